// Hardware splits (MPI-4.0 7.4.2 MPI_Comm_split_type, MPI-4.1 RESOURCE_GUIDED and MPI_Get_hw_resource_info) and the
// MPIX hierarchy proposals declared in mpi.h. The semantics live in comm/hw_split.hpp; here: arguments, the info
// keys, and handing the communicators out.
#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>

#include "api/check.hpp"
#include "api/comm_inherit.hpp"
#include "comm/create.hpp"
#include "comm/hw_split.hpp"
#include "runtime/state.hpp"
#include "topo/local.hpp"
#include "topo/peers.hpp"

using namespace strata;
using namespace strata::api;

namespace {

constexpr const char* kTypeKey = "mpi_hw_resource_type";
constexpr const char* kPsetKey = "mpi_pset_name";

comm::SplitKind split_kind_of(int split_type) {
  switch (split_type) {
    case MPI_COMM_TYPE_SHARED: return comm::SplitKind::Shared;
    case MPI_COMM_TYPE_HW_GUIDED: return comm::SplitKind::HwGuided;
    case MPI_COMM_TYPE_HW_UNGUIDED: return comm::SplitKind::HwUnguided;
    case MPI_COMM_TYPE_RESOURCE_GUIDED: return comm::SplitKind::ResourceGuided;
    default: return comm::SplitKind::Undefined;
  }
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// A guided split's mpi_hw_resource_type value: a level (any spelling topo::parse_level takes), mpi_shared_memory
// (exactly), or unknown.
void read_value(const std::string& value, comm::SplitRequest& r) {
  r.value = quoted(value);
  if (value == "mpi_shared_memory") {
    r.target = comm::Target::SharedMemory;
  } else if (auto level = topo::parse_level(value)) {
    r.target = comm::Target::Level;
    r.level = *level;
  } else {
    r.target = comm::Target::UnknownValue;
  }
}

// A guided split's value: what the info asks for (MPI-4.0 7.4.2; mpi_pset_name is RESOURCE_GUIDED's, MPI-4.1).
void read_target(const runtime::Info* info, comm::SplitRequest& r) {
  const std::string* hw = info ? info->get(kTypeKey) : nullptr;
  const std::string* pset = info && r.kind == comm::SplitKind::ResourceGuided ? info->get(kPsetKey) : nullptr;
  if (hw && pset) {
    r.target = comm::Target::BothKeys;
    r.value = "both mpi_hw_resource_type and mpi_pset_name";
  } else if (pset) {
    r.target = comm::Target::PsetName;  // no process sets without sessions: MPI_COMM_NULL
    r.value = "mpi_pset_name " + quoted(*pset);
  } else if (!hw) {
    r.target = comm::Target::NoValue;
    r.value = info ? "no mpi_hw_resource_type key" : "MPI_INFO_NULL";
  } else {
    read_value(*hw, r);
  }
}

// Where the caller lies, as far as this split needs it: only its node for SHARED and MPI_UNDEFINED (no topology
// is loaded for them). If the topology cannot be read, the caller still takes part (as confined to its node only)
// so nobody waits for it, and `status` says why.
topo::Placement placement_for(comm::SplitKind kind, Status& status) {
  const runtime::World& world = runtime::state().world;
  topo::Placement node_only;
  node_only.node = world.node_of_rank[world.rank];
  node_only.instance.fill(topo::kAbsent);
  node_only.instance[topo::index(topo::Level::Node)] = 0;
  if (kind == comm::SplitKind::Undefined || kind == comm::SplitKind::Shared) return node_only;
  const topo::LocalView* view = topo::local_view(world, status);
  return view ? view->placement : node_only;
}

// One hardware split of `c`, its results handed out: `newcomm` (with mpi_hw_resource_type in its info) and, if
// asked, `rootscomm`.
int split(const char* call, MPI_Comm handle, comm::Communicator& c, const comm::SplitRequest& request,
          MPI_Comm* newcomm, MPI_Comm* rootscomm, int conduit_world_rank, std::string* level_out) {
  *newcomm = MPI_COMM_NULL;  // also what every process gets when the members disagree
  if (rootscomm) *rootscomm = MPI_COMM_NULL;
  Status topology;
  const topo::Placement placement = placement_for(request.kind, topology);
  comm::SplitResult result;
  if (Status s = comm::create_hw_split(c, request, placement, rootscomm != nullptr, conduit_world_rank, result);
      !s.ok())
    return raise(call, handle, s);
  if (!topology.ok()) {
    if (result.part) comm::release(*result.part);
    if (result.roots) comm::release(*result.roots);
    return raise(call, handle, topology);
  }
  const std::string value = comm::level_value(result);
  if (result.part) result.part->hints.set(kTypeKey, value);
  if (level_out) *level_out = result.part ? value : std::string();
  if (rootscomm)
    if (int rc = publish(call, handle, c, std::move(result.roots), false, rootscomm); rc != MPI_SUCCESS) {
      if (result.part) comm::release(*result.part);
      return rc;
    }
  if (int rc = publish(call, handle, c, std::move(result.part), false, newcomm); rc != MPI_SUCCESS) {
    if (rootscomm && *rootscomm != MPI_COMM_NULL) PMPI_Comm_free(rootscomm);
    return rc;
  }
  return MPI_SUCCESS;
}

// HW_UNGUIDED's info is INOUT (MPI-4.0 7.4.2): it gets the level of the new communicator; the key is removed where
// the caller got MPI_COMM_NULL, so a value left from an earlier call is never mistaken for this one's.
void write_level(runtime::Info* info, const std::string& level) {
  if (!info) return;
  if (level.empty())
    info->erase(kTypeKey);
  else
    info->set(kTypeKey, level);
}

int copy_name(const std::string& name, char* type, int* resultlen) {
  const std::size_t n = std::min<std::size_t>(name.size(), MPI_MAX_INFO_VAL);
  std::memcpy(type, name.data(), n);
  type[n] = '\0';
  *resultlen = static_cast<int>(n);
  return MPI_SUCCESS;
}

}  // namespace

STRATA_PMPI(Comm_split_type)
extern "C" int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  comm::Communicator* c = nullptr;
  runtime::Info* given = nullptr;
  Check check("MPI_Comm_split_type", comm);
  check.intracomm(comm, c).not_null(newcomm, "newcomm").info(info, given, true);
  if (check.ok() && split_type != MPI_UNDEFINED && split_kind_of(split_type) == comm::SplitKind::Undefined)
    check.fail(MPI_ERR_ARG, "invalid split_type " + std::to_string(split_type) +
                                " (MPI_COMM_TYPE_SHARED, _HW_GUIDED, _HW_UNGUIDED, _RESOURCE_GUIDED or MPI_UNDEFINED)");
  if (!check.ok()) return check.raise();
  comm::SplitRequest request;
  request.kind = split_kind_of(split_type);
  request.key = key;
  if (request.kind == comm::SplitKind::HwGuided || request.kind == comm::SplitKind::ResourceGuided)
    read_target(given, request);
  std::string level;
  if (int rc = split("MPI_Comm_split_type", comm, *c, request, newcomm, nullptr, -1, &level); rc != MPI_SUCCESS)
    return rc;
  if (request.kind == comm::SplitKind::HwUnguided) write_level(given, level);
  return MPI_SUCCESS;
}

STRATA_PMPI(Get_hw_resource_info)
extern "C" int PMPI_Get_hw_resource_info(MPI_Info* hw_info) {
  Check check("MPI_Get_hw_resource_info");
  check.not_null(hw_info, "hw_info");
  if (!check.ok()) return check.raise();
  Status status;
  const topo::LocalView* view = topo::local_view(runtime::state().world, status);
  if (view == nullptr) return raise("MPI_Get_hw_resource_info", MPI_COMM_SELF, status);
  runtime::Info info;
  for (topo::Level l : topo::kAllLevels)
    if (view->placement.present(l)) info.set(topo::canonical_name(l), view->placement.confined(l) ? "true" : "false");
  *hw_info = add_info(std::move(info));
  return MPI_SUCCESS;
}

STRATA_PMPIX(Comm_hsplit_with_roots)
extern "C" int PMPIX_Comm_hsplit_with_roots(MPI_Comm oldcomm, MPI_Info info, MPI_Comm* newcomm,
                                            MPI_Comm* rootscomm) {
  comm::Communicator* c = nullptr;
  runtime::Info* given = nullptr;
  Check check("MPIX_Comm_hsplit_with_roots", oldcomm);
  check.intracomm(oldcomm, c).info(info, given, true).not_null(newcomm, "newcomm").not_null(rootscomm, "rootscomm");
  if (!check.ok()) return check.raise();
  comm::SplitRequest request;
  request.kind = comm::SplitKind::HwUnguided;
  request.key = c->rank;
  std::string level;
  if (int rc = split("MPIX_Comm_hsplit_with_roots", oldcomm, *c, request, newcomm, rootscomm, -1, &level);
      rc != MPI_SUCCESS)
    return rc;
  write_level(given, level);
  return MPI_SUCCESS;
}

STRATA_PMPIX(Comm_get_hlevel_info)
extern "C" int PMPIX_Comm_get_hlevel_info(MPI_Comm comm, int* num_comms, int* index, char* type, int* resultlen) {
  comm::Communicator* c = nullptr;
  Check check("MPIX_Comm_get_hlevel_info", comm);
  check.comm(comm, c).not_null(num_comms, "num_comms").not_null(index, "index").not_null(type, "type");
  check.not_null(resultlen, "resultlen");
  if (check.ok() && !c->hw_level)
    check.fail(MPI_ERR_COMM, describe_comm(comm) + " was not made by a hardware split");
  if (!check.ok()) return check.raise();
  *num_comms = c->hw_level->num_comms;
  *index = c->hw_level->index;
  return copy_name(c->hw_level->type, type, resultlen);
}

STRATA_PMPIX(Comm_get_min_hlevel)
extern "C" int PMPIX_Comm_get_min_hlevel(MPI_Comm comm, int nranks, const int ranks[], char* type, int* resultlen) {
  comm::Communicator* c = nullptr;
  Check check("MPIX_Comm_get_min_hlevel", comm);
  check.comm(comm, c).not_null(type, "type").not_null(resultlen, "resultlen");
  if (check.ok() && nranks < 0) check.fail(MPI_ERR_ARG, "negative nranks " + std::to_string(nranks));
  if (check.ok() && nranks > 0) check.not_null(ranks, "ranks");
  for (int i = 0; check.ok() && i < nranks; ++i)
    if (ranks[i] < 0 || ranks[i] >= c->size)
      check.fail(MPI_ERR_RANK, "ranks[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                                   " is not a rank of " + describe_comm(comm) + " (size " + std::to_string(c->size) +
                                   ")");
  if (!check.ok()) return check.raise();
  if (std::find(ranks, ranks + nranks, c->rank) == ranks + nranks) return copy_name("Unknown", type, resultlen);
  const runtime::World& world = runtime::state().world;
  const uint32_t node = world.node_of_rank[c->world_rank(c->rank)];
  if (std::any_of(ranks, ranks + nranks, [&](int r) { return world.node_of_rank[c->world_rank(r)] != node; })) {
    // Across nodes: the lowest network level holding all their nodes (issue 12), else the whole "Cluster".
    Status status;
    const topo::LocalView* view = topo::local_view(world, status);
    if (view == nullptr) return raise("MPIX_Comm_get_min_hlevel", comm, status);
    for (auto l = topo::kNetworkLevels.rbegin(); l != topo::kNetworkLevels.rend(); ++l) {
      const int instance = view->network.instance(*l, node);
      if (instance >= 0 && std::all_of(ranks, ranks + nranks, [&](int r) {
            return view->network.instance(*l, world.node_of_rank[c->world_rank(r)]) == instance;
          }))
        return copy_name(std::string(topo::canonical_name(*l)), type, resultlen);
    }
    return copy_name("Cluster", type, resultlen);
  }
  std::vector<const topo::Placement*> placements;
  for (int i = 0; i < nranks; ++i) {
    Status status;
    const topo::Placement* p = topo::peer_placement(world, c->world_rank(ranks[i]), status);
    if (p == nullptr) return raise("MPIX_Comm_get_min_hlevel", comm, status);
    placements.push_back(p);
  }
  Status status;
  const topo::LocalView* view = topo::local_view(world, status);
  if (view == nullptr) return raise("MPIX_Comm_get_min_hlevel", comm, status);
  // The smallest instance holding them all. Levels do not always nest in enum order (a NUMA node may span both
  // packages), so sizes decide; a tie goes to the deeper level (a PU over its core, an L3 cache as large as the
  // node over the node).
  topo::Level deepest = topo::Level::Node;
  int smallest = view->machine.pu_count();
  for (topo::Level l : topo::kAllLevels) {
    const int instance = placements.front()->at(l);
    auto holds = [&](const topo::Placement* p) { return p->at(l) == instance; };
    if (topo::network(l) || instance < 0 || !std::all_of(placements.begin(), placements.end(), holds)) continue;
    for (const topo::Instance& i : view->machine.instances(l))
      if (i.index == instance && i.cpuset.weight() <= smallest) {
        smallest = i.cpuset.weight();
        deepest = l;
      }
  }
  return copy_name(std::string(topo::canonical_name(deepest)), type, resultlen);
}

namespace {

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const auto first = item.find_first_not_of(' '), last = item.find_last_not_of(' ');
    items.push_back(first == std::string::npos ? std::string() : item.substr(first, last - first + 1));
  }
  return items;
}

void free_all(int n, MPI_Comm* comms) {
  for (int i = 0; i < n; ++i)
    if (comms[i] != MPI_COMM_NULL) PMPI_Comm_free(&comms[i]);
}

}  // namespace

STRATA_PMPIX(Comm_hierarchy_create)
extern "C" int PMPIX_Comm_hierarchy_create(MPI_Comm comm, MPI_Info info, int maxlevels, int* nlevels,
                                           MPI_Comm levelcomms[], MPI_Comm conduitcomms[]) {
  constexpr const char* call = "MPIX_Comm_hierarchy_create";
  comm::Communicator* c = nullptr;
  runtime::Info* given = nullptr;
  Check check(call, comm);
  check.intracomm(comm, c).info(info, given, true).not_null(nlevels, "nlevels");
  if (check.ok() && maxlevels < 0) check.fail(MPI_ERR_ARG, "negative maxlevels " + std::to_string(maxlevels));
  if (check.ok() && maxlevels > 0) check.not_null(levelcomms, "levelcomms").not_null(conduitcomms, "conduitcomms");
  int conduit = 0;
  const std::string* conduit_value = given ? given->get("mpix_conduit_rank") : nullptr;
  if (check.ok() && conduit_value) {
    char* end = nullptr;
    const long r = std::strtol(conduit_value->c_str(), &end, 10);
    if (conduit_value->empty() || *end != '\0' || r < 0 || r >= c->size)
      check.fail(MPI_ERR_INFO_VALUE, "mpix_conduit_rank " + quoted(*conduit_value) + " is not a rank of " +
                                         describe_comm(comm) + " (size " + std::to_string(c->size) + ")");
    conduit = static_cast<int>(r);
  }
  if (!check.ok()) return check.raise();
  const std::string* levels_value = given ? given->get("mpix_hierarchy_levels") : nullptr;
  const std::vector<std::string> levels = levels_value ? comma_list(*levels_value) : std::vector<std::string>{};

  std::fill(levelcomms, levelcomms + maxlevels, MPI_COMM_NULL);
  std::fill(conduitcomms, conduitcomms + maxlevels, MPI_COMM_NULL);
  *nlevels = 0;
  const int conduit_world_rank = c->world_rank(conduit);
  comm::Communicator* parent = c;
  for (int depth = 0; depth < maxlevels && (!levels_value || depth < static_cast<int>(levels.size())); ++depth) {
    comm::SplitRequest request;
    request.kind = levels_value ? comm::SplitKind::HwGuided : comm::SplitKind::HwUnguided;
    request.key = parent->rank;
    if (levels_value) read_value(levels[depth], request);
    int rc = split(call, comm, *parent, request, &levelcomms[depth], &conduitcomms[depth], conduit_world_rank,
                   nullptr);
    if (rc == MPI_SUCCESS && request.target == comm::Target::UnknownValue)  // the same verdict on every process
      rc = raise(call, comm, MPI_ERR_INFO_VALUE,
                 "mpix_hierarchy_levels names an unknown level " + request.value + " (e.g. hwloc://NUMANode, L3)");
    if (rc != MPI_SUCCESS) {
      free_all(depth + 1, levelcomms);
      free_all(depth + 1, conduitcomms);
      *nlevels = 0;
      return rc;
    }
    if (levelcomms[depth] == MPI_COMM_NULL) break;
    *nlevels = depth + 1;
    parent = comms().get(levelcomms[depth]);
  }
  return MPI_SUCCESS;
}
