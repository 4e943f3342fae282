// The MPI-1 names of the communicator attribute calls and callbacks, deprecated since MPI-2.0 and still part of
// MPI-4.0 (section 19.1), which older programs and test suites use: the same calls, errors naming the old names.
#include "api/attributes.hpp"
#include "api/pmpi.hpp"

using namespace strata::api;

STRATA_PMPI(NULL_COPY_FN)
extern "C" int PMPI_NULL_COPY_FN(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  return PMPI_COMM_NULL_COPY_FN(comm, keyval, extra, in, out, flag);
}

STRATA_PMPI(DUP_FN)
extern "C" int PMPI_DUP_FN(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  return PMPI_COMM_DUP_FN(comm, keyval, extra, in, out, flag);
}

STRATA_PMPI(NULL_DELETE_FN)
extern "C" int PMPI_NULL_DELETE_FN(MPI_Comm comm, int keyval, void* value, void* extra) {
  return PMPI_COMM_NULL_DELETE_FN(comm, keyval, value, extra);
}

STRATA_PMPI(Keyval_create)
extern "C" int PMPI_Keyval_create(MPI_Copy_function* copy, MPI_Delete_function* destroy, int* keyval,
                                  void* extra_state) {
  const strata::runtime::CallScope call_scope;
  return comm_create_keyval("MPI_Keyval_create", copy, destroy, keyval, extra_state);
}

STRATA_PMPI(Keyval_free)
extern "C" int PMPI_Keyval_free(int* keyval) {
  const strata::runtime::CallScope call_scope;
  return comm_free_keyval("MPI_Keyval_free", keyval);
}

STRATA_PMPI(Attr_put)
extern "C" int PMPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val) {
  const strata::runtime::CallScope call_scope;
  return comm_set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}

STRATA_PMPI(Attr_get)
extern "C" int PMPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag) {
  const strata::runtime::CallScope call_scope;
  return comm_get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

STRATA_PMPI(Attr_delete)
extern "C" int PMPI_Attr_delete(MPI_Comm comm, int keyval) {
  const strata::runtime::CallScope call_scope;
  return comm_delete_attr("MPI_Attr_delete", comm, keyval);
}
