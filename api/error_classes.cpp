// Each error class the layers below api/ name (runtime/error_classes.hpp) is the one mpi.h gives applications.
#include <mpi.h>

#include "runtime/error_classes.hpp"

namespace strata {

static_assert(kErrBuffer == MPI_ERR_BUFFER);
static_assert(kErrCount == MPI_ERR_COUNT);
static_assert(kErrType == MPI_ERR_TYPE);
static_assert(kErrTag == MPI_ERR_TAG);
static_assert(kErrComm == MPI_ERR_COMM);
static_assert(kErrRank == MPI_ERR_RANK);
static_assert(kErrRequest == MPI_ERR_REQUEST);
static_assert(kErrRoot == MPI_ERR_ROOT);
static_assert(kErrGroup == MPI_ERR_GROUP);
static_assert(kErrOp == MPI_ERR_OP);
static_assert(kErrTopology == MPI_ERR_TOPOLOGY);
static_assert(kErrDims == MPI_ERR_DIMS);
static_assert(kErrArg == MPI_ERR_ARG);
static_assert(kErrUnknown == MPI_ERR_UNKNOWN);
static_assert(kErrTruncate == MPI_ERR_TRUNCATE);
static_assert(kErrOther == MPI_ERR_OTHER);
static_assert(kErrIntern == MPI_ERR_INTERN);
static_assert(kErrPending == MPI_ERR_PENDING);
static_assert(kErrInStatus == MPI_ERR_IN_STATUS);
static_assert(kErrAccess == MPI_ERR_ACCESS);
static_assert(kErrAmode == MPI_ERR_AMODE);
static_assert(kErrAssert == MPI_ERR_ASSERT);
static_assert(kErrBadFile == MPI_ERR_BAD_FILE);
static_assert(kErrBase == MPI_ERR_BASE);
static_assert(kErrConversion == MPI_ERR_CONVERSION);
static_assert(kErrDisp == MPI_ERR_DISP);
static_assert(kErrDupDatarep == MPI_ERR_DUP_DATAREP);
static_assert(kErrFileExists == MPI_ERR_FILE_EXISTS);
static_assert(kErrFileInUse == MPI_ERR_FILE_IN_USE);
static_assert(kErrFile == MPI_ERR_FILE);
static_assert(kErrInfoKey == MPI_ERR_INFO_KEY);
static_assert(kErrInfoNokey == MPI_ERR_INFO_NOKEY);
static_assert(kErrInfoValue == MPI_ERR_INFO_VALUE);
static_assert(kErrInfo == MPI_ERR_INFO);
static_assert(kErrIo == MPI_ERR_IO);
static_assert(kErrKeyval == MPI_ERR_KEYVAL);
static_assert(kErrLocktype == MPI_ERR_LOCKTYPE);
static_assert(kErrName == MPI_ERR_NAME);
static_assert(kErrNoMem == MPI_ERR_NO_MEM);
static_assert(kErrNotSame == MPI_ERR_NOT_SAME);
static_assert(kErrNoSpace == MPI_ERR_NO_SPACE);
static_assert(kErrNoSuchFile == MPI_ERR_NO_SUCH_FILE);
static_assert(kErrPort == MPI_ERR_PORT);
static_assert(kErrQuota == MPI_ERR_QUOTA);
static_assert(kErrReadOnly == MPI_ERR_READ_ONLY);
static_assert(kErrRmaConflict == MPI_ERR_RMA_CONFLICT);
static_assert(kErrRmaSync == MPI_ERR_RMA_SYNC);
static_assert(kErrService == MPI_ERR_SERVICE);
static_assert(kErrSize == MPI_ERR_SIZE);
static_assert(kErrSpawn == MPI_ERR_SPAWN);
static_assert(kErrUnsupportedDatarep == MPI_ERR_UNSUPPORTED_DATAREP);
static_assert(kErrUnsupportedOperation == MPI_ERR_UNSUPPORTED_OPERATION);
static_assert(kErrWin == MPI_ERR_WIN);
static_assert(kErrRmaRange == MPI_ERR_RMA_RANGE);
static_assert(kErrRmaAttach == MPI_ERR_RMA_ATTACH);
static_assert(kErrRmaShared == MPI_ERR_RMA_SHARED);
static_assert(kErrRmaFlavor == MPI_ERR_RMA_FLAVOR);
static_assert(kErrSession == MPI_ERR_SESSION);
static_assert(kErrProcAborted == MPI_ERR_PROC_ABORTED);
static_assert(kErrValueTooLarge == MPI_ERR_VALUE_TOO_LARGE);

}  // namespace strata
