// Error classes, strings and communicator error handlers (MPI-4.0 chapter 9.3-9.4).
#include <cstring>

#include "api/check.hpp"

using namespace strata;
using namespace strata::api;

// Both work at any time, also before MPI_Init, so that a failed call can be explained.
STRATA_PMPI(Error_string)
extern "C" int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  if (string == nullptr || resultlen == nullptr)
    return raise("MPI_Error_string", MPI_COMM_NULL, MPI_ERR_ARG, "string or resultlen is NULL");
  const std::string text = error_string(errorcode);
  if (text.empty())
    return raise("MPI_Error_string", MPI_COMM_NULL, MPI_ERR_ARG, "invalid error code " + std::to_string(errorcode));
  const int n = std::min<int>(static_cast<int>(text.size()), MPI_MAX_ERROR_STRING - 1);
  std::memcpy(string, text.data(), n);
  string[n] = '\0';
  *resultlen = n;
  return MPI_SUCCESS;
}

STRATA_PMPI(Error_class)
extern "C" int PMPI_Error_class(int errorcode, int* errorclass) {
  if (errorclass == nullptr) return raise("MPI_Error_class", MPI_COMM_NULL, MPI_ERR_ARG, "errorclass is NULL");
  if (errorcode < 0 || error_string(errorcode).empty())
    return raise("MPI_Error_class", MPI_COMM_NULL, MPI_ERR_ARG, "invalid error code " + std::to_string(errorcode));
  *errorclass = error_class_of(errorcode);
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_set_errhandler)
extern "C" int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_set_errhandler", comm);
  check.comm(comm, c);
  if (check.ok() && errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN &&
      errhandler != MPI_ERRORS_ABORT)
    check.fail(MPI_ERR_ARG, "invalid error handler " + std::to_string(errhandler));
  if (!check.ok()) return check.raise();
  c->errhandler = errhandler;
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_get_errhandler)
extern "C" int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_get_errhandler", comm);
  check.comm(comm, c).not_null(errhandler, "errhandler");
  if (!check.ok()) return check.raise();
  *errhandler = c->errhandler;
  return MPI_SUCCESS;
}
