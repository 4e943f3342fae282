// Attribute caching on communicators (MPI-4.0 section 7.7). Keyvals are reference counted: a keyval freed by the
// user stays alive while attributes use it. The predefined attributes (MPI_TAG_UB, ...) are read-only.
#pragma once
#include "api/handles.hpp"

namespace strata::api {

struct Keyval {
  MPI_Comm_copy_attr_function* copy;
  MPI_Comm_delete_attr_function* destroy;
  void* extra_state;
  int references;  // the user's handle + every attribute set with it
};
HandleTable<Keyval>& keyvals();

// MPI_Comm_dup: runs the copy callbacks of `from`'s attributes into `to`; an MPI error code if one fails.
int copy_attributes(MPI_Comm from_handle, const comm::Communicator& from, comm::Communicator& to);
// MPI_Comm_free: runs every delete callback; an MPI error code if one fails (all are run regardless).
int delete_attributes(MPI_Comm handle, comm::Communicator& c);

// The communicator attribute calls, for their MPI-2 names and their MPI-1 ones (deprecated, MPI-4.0 19.1):
// `call` is the name errors give.
int create_keyval(const char* call, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* destroy,
                  int* comm_keyval, void* extra_state);
int free_keyval(const char* call, int* comm_keyval);
int set_attr(const char* call, MPI_Comm comm, int comm_keyval, void* attribute_val);
int get_attr(const char* call, MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag);
int delete_attr(const char* call, MPI_Comm comm, int comm_keyval);

}  // namespace strata::api
