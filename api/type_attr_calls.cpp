// Attributes on datatypes (MPI-4.0 7.7.4): the calls, the predefined callbacks, and the attributes themselves,
// held here by handle. MPI_Type_dup copies them and MPI_Type_free deletes them (datatype_calls.cpp).
#include <unordered_map>

#include "api/attributes.hpp"
#include "runtime/lasting.hpp"

using namespace strata;
using namespace strata::api;

namespace {

std::unordered_map<MPI_Datatype, Attributes>& type_attributes() {
  static auto& table = runtime::lasting<std::unordered_map<MPI_Datatype, Attributes>>();
  return table;
}

// The attribute list of a valid datatype, made on first use; nullptr once the check has failed.
Attributes* attributes_of(Check& check, MPI_Datatype type) {
  const datatype::Datatype* t = nullptr;
  check.type(type, t);
  return check.ok() ? &type_attributes()[type] : nullptr;
}

}  // namespace

namespace strata::api {

int copy_type_attributes(MPI_Datatype from, MPI_Datatype to) {
  const auto it = type_attributes().find(from);
  if (it == type_attributes().end()) return MPI_SUCCESS;
  Attributes copied;
  const int rc = copy_attributes(from, it->second, copied);
  if (!copied.empty()) type_attributes()[to] = std::move(copied);
  return rc;
}

int delete_type_attributes(MPI_Datatype type) {
  const auto it = type_attributes().find(type);
  if (it == type_attributes().end()) return MPI_SUCCESS;
  Attributes list = std::move(it->second);
  type_attributes().erase(it);
  return delete_attributes(type, list);
}

}  // namespace strata::api

STRATA_PMPI(TYPE_NULL_COPY_FN)
extern "C" int PMPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

STRATA_PMPI(TYPE_DUP_FN)
extern "C" int PMPI_TYPE_DUP_FN(MPI_Datatype, int, void*, void* attribute_val_in, void* attribute_val_out,
                                int* flag) {
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

STRATA_PMPI(TYPE_NULL_DELETE_FN)
extern "C" int PMPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void*, void*) { return MPI_SUCCESS; }

STRATA_PMPI(Type_create_keyval)
extern "C" int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* copy, MPI_Type_delete_attr_function* destroy,
                                       int* type_keyval, void* extra_state) {
  Check check("MPI_Type_create_keyval");
  create_keyval(check, AttributeHolder::datatype, copy, destroy, type_keyval, extra_state);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

STRATA_PMPI(Type_free_keyval)
extern "C" int PMPI_Type_free_keyval(int* type_keyval) {
  Check check("MPI_Type_free_keyval");
  free_keyval(check, AttributeHolder::datatype, type_keyval);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

STRATA_PMPI(Type_set_attr)
extern "C" int PMPI_Type_set_attr(MPI_Datatype type, int type_keyval, void* attribute_val) {
  Check check("MPI_Type_set_attr");
  set_attr(check, AttributeHolder::datatype, type, attributes_of(check, type), type_keyval, attribute_val);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

STRATA_PMPI(Type_get_attr)
extern "C" int PMPI_Type_get_attr(MPI_Datatype type, int type_keyval, void* attribute_val, int* flag) {
  Check check("MPI_Type_get_attr");
  get_attr(check, AttributeHolder::datatype, attributes_of(check, type), type_keyval, attribute_val, flag);
  return check.ok() ? MPI_SUCCESS : check.raise();
}

STRATA_PMPI(Type_delete_attr)
extern "C" int PMPI_Type_delete_attr(MPI_Datatype type, int type_keyval) {
  Check check("MPI_Type_delete_attr");
  delete_attr(check, AttributeHolder::datatype, type, attributes_of(check, type), type_keyval);
  return check.ok() ? MPI_SUCCESS : check.raise();
}
