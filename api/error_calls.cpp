// Error classes, strings and communicator error handlers (MPI-4.0 chapter 9.3-9.4).
#include <cstring>

#include "api/check.hpp"

using namespace strata;
using namespace strata::api;

// Both work at any time, also before MPI_Init, so that a failed call can be explained.
STRATA_PMPI(Error_string)
extern "C" int PMPI_Error_string(int errorcode, char* string, int* resultlen) {
  const runtime::CallScope call_scope;  // no Check: MPI_Add_error_string may run in another thread
  if (string == nullptr || resultlen == nullptr)
    return raise("MPI_Error_string", MPI_COMM_NULL, MPI_ERR_ARG, "string or resultlen is NULL");
  if (!is_valid_code(errorcode))
    return raise("MPI_Error_string", MPI_COMM_NULL, MPI_ERR_ARG, "invalid error code " + std::to_string(errorcode));
  const std::string text = error_string(errorcode);
  const int n = std::min<int>(static_cast<int>(text.size()), MPI_MAX_ERROR_STRING - 1);
  std::memcpy(string, text.data(), n);
  string[n] = '\0';
  *resultlen = n;
  return MPI_SUCCESS;
}

STRATA_PMPI(Error_class)
extern "C" int PMPI_Error_class(int errorcode, int* errorclass) {
  const runtime::CallScope call_scope;  // no Check: MPI_Add_error_string may run in another thread
  if (errorclass == nullptr) return raise("MPI_Error_class", MPI_COMM_NULL, MPI_ERR_ARG, "errorclass is NULL");
  if (!is_valid_code(errorcode))
    return raise("MPI_Error_class", MPI_COMM_NULL, MPI_ERR_ARG, "invalid error code " + std::to_string(errorcode));
  *errorclass = error_class_of(errorcode);
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_set_errhandler)
extern "C" int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_set_errhandler", comm);
  check.comm(comm, c);
  if (check.ok() && !is_errhandler(errhandler))
    check.fail(MPI_ERR_ARG, "invalid error handler " + std::to_string(errhandler));
  if (check.ok() && !is_errhandler_for(errhandler, STRATA_KIND_COMM))
    check.fail(MPI_ERR_ARG, "error handler " + std::to_string(errhandler) + " was made for windows "
                            "(MPI_Win_create_errhandler), not communicators");
  if (!check.ok()) return check.raise();
  retain_errhandler(errhandler);
  release_errhandler(c->errhandler);
  c->errhandler = errhandler;
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_get_errhandler)
extern "C" int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_get_errhandler", comm);
  check.comm(comm, c).not_null(errhandler, "errhandler");
  if (!check.ok()) return check.raise();
  retain_errhandler(c->errhandler);  // a new reference: the caller frees it with MPI_Errhandler_free
  *errhandler = c->errhandler;
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_create_errhandler)
extern "C" int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* errhandler) {
  Check check("MPI_Comm_create_errhandler");
  check.not_null(reinterpret_cast<void*>(function), "comm_errhandler_fn").not_null(errhandler, "errhandler");
  if (!check.ok()) return check.raise();
  *errhandler = errhandlers().add(new ErrhandlerObject{function, 1});
  return MPI_SUCCESS;
}

STRATA_PMPI(Comm_call_errhandler)
extern "C" int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_call_errhandler", comm);
  check.comm(comm, c);
  if (!check.ok()) return check.raise();
  invoke_errhandler(comm, errorcode);
  return MPI_SUCCESS;  // the handler returned (MPI-4.0 9.5)
}

// Predefined handlers may be freed too: MPI_Comm_get_errhandler hands out references to them (a no-op here).
// Allowed at any time (Table 11.1): a session's handler is made and freed around MPI_Session_init and _finalize.
STRATA_PMPI(Errhandler_free)
extern "C" int PMPI_Errhandler_free(MPI_Errhandler* errhandler) {
  Check check("MPI_Errhandler_free", MPI_COMM_SELF, Check::kAnyTime);
  check.not_null(errhandler, "errhandler");
  if (check.ok() && !is_errhandler(*errhandler))
    check.fail(MPI_ERR_ARG, "invalid error handler " + std::to_string(*errhandler));
  if (!check.ok()) return check.raise();
  release_errhandler(*errhandler);
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

STRATA_PMPI(Add_error_class)
extern "C" int PMPI_Add_error_class(int* errorclass) {
  Check check("MPI_Add_error_class");
  check.not_null(errorclass, "errorclass");
  if (!check.ok()) return check.raise();
  const int cls = add_error_class();
  if (cls < 0) return raise("MPI_Add_error_class", MPI_COMM_SELF, MPI_ERR_OTHER, "no error classes left");
  *errorclass = cls;
  return MPI_SUCCESS;
}

STRATA_PMPI(Add_error_code)
extern "C" int PMPI_Add_error_code(int errorclass, int* errorcode) {
  Check check("MPI_Add_error_code");
  check.not_null(errorcode, "errorcode");
  if (check.ok() && (!is_valid_code(errorclass) || error_class_of(errorclass) != errorclass))
    check.fail(MPI_ERR_ARG, "invalid error class " + std::to_string(errorclass));
  if (!check.ok()) return check.raise();
  *errorcode = add_error_code(errorclass);
  return MPI_SUCCESS;
}

// Only added classes and codes take strings (MPI-4.0 9.5: changing a predefined one is erroneous).
STRATA_PMPI(Add_error_string)
extern "C" int PMPI_Add_error_string(int errorcode, const char* string) {
  Check check("MPI_Add_error_string");
  check.not_null(string, "string");
  if (check.ok() && !is_added_code(errorcode))
    check.fail(MPI_ERR_ARG, "error code " + std::to_string(errorcode) + " was not added by MPI_Add_error_class/code");
  if (check.ok() && std::strlen(string) >= MPI_MAX_ERROR_STRING)
    check.fail(MPI_ERR_ARG, "string longer than MPI_MAX_ERROR_STRING - 1");
  if (!check.ok()) return check.raise();
  set_error_string(errorcode, string);
  return MPI_SUCCESS;
}
