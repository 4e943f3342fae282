// The MPI error classes (MPI-4.0 section 9.4) by the numbers include/mpi.h gives them, for the layers below api/,
// which do not include mpi.h: a Status carries one (runtime/status.hpp). api/error_classes.cpp checks that each
// equals its MPI_ERR_ macro.
#pragma once

namespace strata {

inline constexpr int kErrBuffer = 1;
inline constexpr int kErrCount = 2;
inline constexpr int kErrType = 3;
inline constexpr int kErrTag = 4;
inline constexpr int kErrComm = 5;
inline constexpr int kErrRank = 6;
inline constexpr int kErrRequest = 7;
inline constexpr int kErrRoot = 8;
inline constexpr int kErrGroup = 9;
inline constexpr int kErrOp = 10;
inline constexpr int kErrTopology = 11;
inline constexpr int kErrDims = 12;
inline constexpr int kErrArg = 13;
inline constexpr int kErrUnknown = 14;
inline constexpr int kErrTruncate = 15;
inline constexpr int kErrOther = 16;
inline constexpr int kErrIntern = 17;
inline constexpr int kErrPending = 18;
inline constexpr int kErrInStatus = 19;
inline constexpr int kErrAccess = 20;
inline constexpr int kErrAmode = 21;
inline constexpr int kErrAssert = 22;
inline constexpr int kErrBadFile = 23;
inline constexpr int kErrBase = 24;
inline constexpr int kErrConversion = 25;
inline constexpr int kErrDisp = 26;
inline constexpr int kErrDupDatarep = 27;
inline constexpr int kErrFileExists = 28;
inline constexpr int kErrFileInUse = 29;
inline constexpr int kErrFile = 30;
inline constexpr int kErrInfoKey = 31;
inline constexpr int kErrInfoNokey = 32;
inline constexpr int kErrInfoValue = 33;
inline constexpr int kErrInfo = 34;
inline constexpr int kErrIo = 35;
inline constexpr int kErrKeyval = 36;
inline constexpr int kErrLocktype = 37;
inline constexpr int kErrName = 38;
inline constexpr int kErrNoMem = 39;
inline constexpr int kErrNotSame = 40;
inline constexpr int kErrNoSpace = 41;
inline constexpr int kErrNoSuchFile = 42;
inline constexpr int kErrPort = 43;
inline constexpr int kErrQuota = 44;
inline constexpr int kErrReadOnly = 45;
inline constexpr int kErrRmaConflict = 46;
inline constexpr int kErrRmaSync = 47;
inline constexpr int kErrService = 48;
inline constexpr int kErrSize = 49;
inline constexpr int kErrSpawn = 50;
inline constexpr int kErrUnsupportedDatarep = 51;
inline constexpr int kErrUnsupportedOperation = 52;
inline constexpr int kErrWin = 53;
inline constexpr int kErrRmaRange = 54;
inline constexpr int kErrRmaAttach = 55;
inline constexpr int kErrRmaShared = 56;
inline constexpr int kErrRmaFlavor = 57;
inline constexpr int kErrSession = 58;
inline constexpr int kErrProcAborted = 59;
inline constexpr int kErrValueTooLarge = 60;

}  // namespace strata
