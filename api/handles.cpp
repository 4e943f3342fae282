#include "api/handles.hpp"

#include "datatype/op.hpp"
#include "datatype/predefined.hpp"

namespace strata::api {

static_assert(index_of(MPI_CXX_LONG_DOUBLE_COMPLEX) == datatype::kCxxLongDoubleComplex);
static_assert(index_of(MPI_INT) == datatype::kInt && index_of(MPI_2INT) == datatype::k2Int);
static_assert(MPI_ANY_SOURCE == transport::kAnySource && MPI_ANY_TAG == transport::kAnyTag);

HandleTable<comm::Communicator>& comms() {
  static HandleTable<comm::Communicator> table(STRATA_KIND_COMM);
  return table;
}

HandleTable<ApiRequest>& requests() {
  static HandleTable<ApiRequest> table(STRATA_KIND_REQUEST);
  return table;
}

HandleTable<transport::Unexpected>& messages() {
  static HandleTable<transport::Unexpected> table(STRATA_KIND_MESSAGE);
  static bool reserved = (table.put(index_of(MPI_MESSAGE_NO_PROC), nullptr), true);  // never handed out
  (void)reserved;
  return table;
}

HandleTable<comm::Group>& groups() {
  static HandleTable<comm::Group> table(STRATA_KIND_GROUP);
  return table;
}

HandleTable<runtime::Info>& infos() {
  static HandleTable<runtime::Info> table(STRATA_KIND_INFO);
  return table;
}

HandleTable<const datatype::Op>& ops() {
  static HandleTable<const datatype::Op> table = [] {
    HandleTable<const datatype::Op> t(STRATA_KIND_OP);
    for (int kind = 1; kind < datatype::kPredefinedOpEnd; ++kind) t.put(kind, datatype::predefined_op(kind));
    return t;
  }();
  return table;
}

const datatype::Op* op_of(MPI_Op handle) { return ops().get(handle); }

const datatype::Datatype* datatype_of(MPI_Datatype handle) {
  if (kind_of(handle) != STRATA_KIND_DATATYPE) return nullptr;
  return datatype::predefined(index_of(handle));
}

}  // namespace strata::api
