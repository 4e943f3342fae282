// Handle tables. A handle is (kind << 26) | index (see mpi.h); index 0 is the kind's null handle. Tables hand out
// the lowest free index, so a freed handle's index is reused.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "api/pmpi.hpp"
#include "comm/communicator.hpp"
#include "datatype/datatype.hpp"
#include "transport/matching.hpp"
#include "transport/request.hpp"

namespace strata::comm {
struct Group;
}
namespace strata::coll {
class Collective;
}
namespace strata::runtime {
class Info;
}
namespace strata::datatype {
struct Op;
}

namespace strata::api {

constexpr int kIndexBits = 26;
constexpr int kind_of(int handle) { return (handle >> kIndexBits) & 0xf; }
constexpr int index_of(int handle) { return handle & ((1 << kIndexBits) - 1); }

// Slot is T* (the table's owner deletes) or std::shared_ptr<T> (the handle holds one reference).
template <class T, class Slot = T*>
class HandleTable {
 public:
  explicit HandleTable(int kind) : kind_(kind), slots_(1) {}  // slot 0: the null handle
  int add(Slot object) {
    if (free_.empty()) {
      slots_.push_back(std::move(object));
      return STRATA_HANDLE(kind_, static_cast<int>(slots_.size() - 1));
    }
    int index = free_.back();
    free_.pop_back();
    slots_[index] = std::move(object);
    return STRATA_HANDLE(kind_, index);
  }
  void put(int index, Slot object) {  // predefined objects at fixed indices
    if (static_cast<int>(slots_.size()) <= index) slots_.resize(index + 1);
    slots_[index] = std::move(object);
  }
  T* get(int handle) const {
    const Slot* s = slot(handle);
    if (s == nullptr) return nullptr;
    if constexpr (std::is_pointer_v<Slot>)
      return *s;
    else
      return s->get();
  }
  const Slot* slot(int handle) const {
    if (kind_of(handle) != kind_ || handle < 0) return nullptr;
    int i = index_of(handle);
    return i < static_cast<int>(slots_.size()) ? &slots_[i] : nullptr;
  }
  void remove(int handle) {
    slots_[index_of(handle)] = Slot{};
    free_.push_back(index_of(handle));
    ++removals_;
  }
  // How many handles were freed so far: a handle checked when this was n is still the same object while it is n.
  std::uint64_t removals() const { return removals_; }

 private:
  int kind_;
  std::uint64_t removals_ = 0;
  std::vector<Slot> slots_;
  std::vector<int> free_;
};

struct SendRecvParts;  // derived_requests.hpp
struct Generalized;
struct Partitioned;    // partitioned.hpp

// A point-to-point request as the API sees it: the transport request plus what only the API needs.
struct ApiRequest : transport::Request {
  bool proc_null = false;    // to or from MPI_PROC_NULL: completes at once
  bool active = false;       // started and not yet returned by a Wait/Test (the standard's "active")
  MPI_Comm comm = MPI_COMM_NULL;
  bool collective = false;   // a nonblocking collective: MPI_Cancel and MPI_Request_free are erroneous (MPI-4.0 6.12)
  bool buffered = false;     // MPI_Bsend_init: MPI_Start runs start_buffered (bsend.cpp)
  bool one_sided = false;    // MPI_Rput, MPI_Rget, ...: the engine never saw it, and MPI_Cancel refuses it
  std::string failure;       // why it failed, when status.error says it did and no generic message fits
  int added_code = 0;        // the failure as a code the program added (MPI_Add_error_code): returned unchanged
  // A collective's request (nonblocking or persistent): what it runs. A persistent one keeps it, built at init, and
  // the tag block it got then (coll/collective.hpp) and counts its starts.
  std::shared_ptr<coll::Collective> collective_run;
  int collective_tag_base = 0;
  uint64_t collective_starts = 0;
  // Requests the api layer completes itself, not the engine (derived_requests.hpp): MPI_Isendrecv's send and
  // receive, or a generalized request's callbacks.
  std::shared_ptr<SendRecvParts> parts;
  std::shared_ptr<Generalized> generalized;
  std::shared_ptr<Partitioned> partitioned;  // MPI_Psend_init's or MPI_Precv_init's: its partitions and messages
};

HandleTable<comm::Communicator>& comms();
HandleTable<ApiRequest>& requests();
HandleTable<transport::Unexpected>& messages();
HandleTable<comm::Group>& groups();    // index 1: MPI_GROUP_EMPTY
HandleTable<runtime::Info>& infos();   // index 1: MPI_INFO_ENV

// Datatypes: the predefined ones at their fixed indices, derived ones after them. A handle holds a reference and
// so does each pending operation, so MPI_Type_free never pulls a type from under a request (MPI-4.0 5.1.10).
HandleTable<datatype::Datatype, std::shared_ptr<datatype::Datatype>>& datatypes();
datatype::Datatype* datatype_of(MPI_Datatype handle);
datatype::TypeRef datatype_ref(MPI_Datatype handle);
MPI_Datatype add_datatype(datatype::TypeRef type);

// Groups and info objects through their owners (group_calls.cpp, info_calls.cpp): MPI_GROUP_EMPTY and
// MPI_INFO_ENV (filled on first use after MPI_Init) included; nullptr for null or invalid handles.
comm::Group* group_of(MPI_Group handle);
MPI_Group add_group(comm::Group group);  // an empty group gives MPI_GROUP_EMPTY
runtime::Info* info_of(MPI_Info handle);
MPI_Info add_info(runtime::Info info);

// Reduction operators: indices 1..14 are the predefined ones (datatype::OpKind), user ones come from MPI_Op_create.
// op_of gives nullptr for MPI_OP_NULL, freed and invalid handles. A pending collective holds its own reference, so
// MPI_Op_free lets it finish with the operator (MPI-4.0 6.9.5).
using OpRef = std::shared_ptr<const datatype::Op>;
HandleTable<const datatype::Op, OpRef>& ops();
const datatype::Op* op_of(MPI_Op handle);
OpRef op_ref(MPI_Op handle);

}  // namespace strata::api
