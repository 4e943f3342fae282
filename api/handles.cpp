#include "api/handles.hpp"

#include "datatype/op.hpp"
#include "datatype/predefined.hpp"
#include "runtime/lasting.hpp"

namespace strata::api {

static_assert(index_of(MPI_CXX_LONG_DOUBLE_COMPLEX) == datatype::kCxxLongDoubleComplex);
static_assert(index_of(MPI_CHARACTER) == datatype::kCharacter && index_of(MPI_COMPLEX16) == datatype::kComplex16);
static_assert(index_of(MPI_INT) == datatype::kInt && index_of(MPI_2INT) == datatype::k2Int);
static_assert(MPI_ANY_SOURCE == transport::kAnySource && MPI_ANY_TAG == transport::kAnyTag);

HandleTable<comm::Communicator>& comms() {
  static auto& table = runtime::lasting<HandleTable<comm::Communicator>>(STRATA_KIND_COMM);
  return table;
}

HandleTable<ApiRequest>& requests() {
  static auto& table = runtime::lasting<HandleTable<ApiRequest>>(STRATA_KIND_REQUEST);
  return table;
}

HandleTable<transport::Unexpected>& messages() {
  static auto& table = runtime::lasting<HandleTable<transport::Unexpected>>(STRATA_KIND_MESSAGE);
  static bool reserved = (table.put(index_of(MPI_MESSAGE_NO_PROC), nullptr), true);  // never handed out
  (void)reserved;
  return table;
}

HandleTable<comm::Group>& groups() {
  static auto& table = runtime::lasting<HandleTable<comm::Group>>(STRATA_KIND_GROUP);
  return table;
}

HandleTable<runtime::Info>& infos() {
  static auto& table = runtime::lasting<HandleTable<runtime::Info>>(STRATA_KIND_INFO);
  return table;
}

HandleTable<const datatype::Op, OpRef>& ops() {
  static auto& table = runtime::lasting<HandleTable<const datatype::Op, OpRef>>([] {
    HandleTable<const datatype::Op, OpRef> t(STRATA_KIND_OP);
    for (int kind = 1; kind < datatype::kPredefinedOpEnd; ++kind)
      t.put(kind, OpRef(OpRef(), datatype::predefined_op(kind)));  // static: no reference count
    return t;
  }());
  return table;
}

const datatype::Op* op_of(MPI_Op handle) { return ops().get(handle); }

OpRef op_ref(MPI_Op handle) {
  const OpRef* slot = ops().slot(handle);
  return slot ? *slot : nullptr;
}

HandleTable<datatype::Datatype, std::shared_ptr<datatype::Datatype>>& datatypes() {
  using Table = HandleTable<datatype::Datatype, std::shared_ptr<datatype::Datatype>>;
  static auto& table = runtime::lasting<Table>([] {
    Table t(STRATA_KIND_DATATYPE);
    for (int i = 1; i < datatype::kPredefinedEnd; ++i)
      t.put(i, std::const_pointer_cast<datatype::Datatype>(datatype::predefined(i)));  // mutable: only the name
    return t;
  }());
  return table;
}

datatype::Datatype* datatype_of(MPI_Datatype handle) { return datatypes().get(handle); }

datatype::TypeRef datatype_ref(MPI_Datatype handle) {
  const auto* slot = datatypes().slot(handle);
  return slot ? *slot : nullptr;
}

// Types come out of datatype/ immutable; the handle may rename and commit its own (never a shared predefined one).
MPI_Datatype add_datatype(datatype::TypeRef type) {
  return datatypes().add(std::const_pointer_cast<datatype::Datatype>(std::move(type)));
}

}  // namespace strata::api
