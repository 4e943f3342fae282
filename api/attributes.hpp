// Attribute caching (MPI-4.0 7.7) on the three kinds of object that hold attributes: communicators, datatypes and
// windows. One keyval table serves all three; a keyval remembers which kind it was created for and refuses the
// others. Keyvals are reference counted: a keyval freed by the user stays alive while attributes use it. The
// predefined attributes (MPI_TAG_UB, ... on communicators, MPI_WIN_BASE, ... on windows) are read-only.
//
// The bodies here take the entry point's Check and record the first error in it; the entry point raises it on its
// object (a communicator's handler, a window's, or MPI_COMM_SELF's for datatypes).
#pragma once
#include <utility>
#include <vector>

#include "api/check.hpp"
#include "api/handles.hpp"

namespace strata::api {

enum class AttributeHolder { comm, datatype, window };

// The callbacks of all three kinds have one C type: every handle is an int.
using CopyFunction = MPI_Comm_copy_attr_function;
using DeleteFunction = MPI_Comm_delete_attr_function;
using Attributes = std::vector<std::pair<int, void*>>;  // (keyval, value) in the order they were set

struct Keyval {
  AttributeHolder holder;
  CopyFunction* copy;      // nullptr: the predefined NULL_COPY_FN (nothing is copied)
  DeleteFunction* destroy; // nullptr: the predefined NULL_DELETE_FN
  void* extra_state;
  int references;  // the user's handle + every attribute set with it
  bool freed = false;  // the user's handle is gone (MPI_*_free_keyval): the program may no longer name it
};
HandleTable<Keyval>& keyvals();

// Duplicating an object: runs the copy callbacks of `from` (the attributes of handle `from_handle`) into `to`; the
// MPI error code of the first that fails, after which `to` holds the attributes copied so far.
int copy_attributes(int from_handle, const Attributes& from, Attributes& to);
// Freeing an object: runs every delete callback (all of them, even after a failure), last set first, and empties
// `list`; the MPI error code of the first that failed.
int delete_attributes(int handle, Attributes& list);

// The calls' bodies. `copy` / `destroy` may be any of the predefined no-op callbacks.
void create_keyval(Check& check, AttributeHolder holder, CopyFunction* copy, DeleteFunction* destroy, int* keyval,
                   void* extra_state);
void free_keyval(Check& check, AttributeHolder holder, int* keyval);
// `list` is the object's attributes; nullptr only when `check` has already failed on the object.
void set_attr(Check& check, AttributeHolder holder, int handle, Attributes* list, int keyval, void* value);
// A predefined keyval of this holder is the caller's to answer (get_attr refuses it): its value depends on the object.
bool is_predefined_keyval(AttributeHolder holder, int keyval);
void get_attr(Check& check, AttributeHolder holder, const Attributes* list, int keyval, void* value, int* flag);
void delete_attr(Check& check, AttributeHolder holder, int handle, Attributes* list, int keyval);

// The communicator calls, for their MPI-2 names and their MPI-1 ones (deprecated, MPI-4.0 19.1): `call` is the name
// errors give.
int comm_create_keyval(const char* call, CopyFunction* copy, DeleteFunction* destroy, int* keyval, void* extra_state);
int comm_free_keyval(const char* call, int* keyval);
int comm_set_attr(const char* call, MPI_Comm comm, int keyval, void* attribute_val);
int comm_get_attr(const char* call, MPI_Comm comm, int keyval, void* attribute_val, int* flag);
int comm_delete_attr(const char* call, MPI_Comm comm, int keyval);

// Datatypes hold their attributes here, by handle (the datatype layer knows nothing of them). MPI_Type_dup and
// MPI_Type_free call these; they return an MPI error code.
int copy_type_attributes(MPI_Datatype from, MPI_Datatype to);
int delete_type_attributes(MPI_Datatype type);

}  // namespace strata::api
