#include "comm/hw_split.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

#include "comm/create.hpp"
#include "comm/group.hpp"
#include "comm/internal_collectives.hpp"
#include "runtime/info.hpp"

namespace strata::comm {
namespace {

constexpr std::size_t kShownValue = 200;  // how much of a caller's value an error message repeats

const char* kind_name(SplitKind k) {
  switch (k) {
    case SplitKind::Undefined: return "MPI_UNDEFINED";
    case SplitKind::Shared: return "MPI_COMM_TYPE_SHARED";
    case SplitKind::HwGuided: return "MPI_COMM_TYPE_HW_GUIDED";
    case SplitKind::HwUnguided: return "MPI_COMM_TYPE_HW_UNGUIDED";
    case SplitKind::ResourceGuided: return "MPI_COMM_TYPE_RESOURCE_GUIDED";
  }
  return "?";
}

bool guided(SplitKind k) { return k == SplitKind::HwGuided || k == SplitKind::ResourceGuided; }

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// Two members asked for the same thing (aliases of one level are the same value).
bool same_value(const SplitRecord& a, const SplitRecord& b) {
  if (a.target != b.target) return false;
  if (a.target == Target::Level) return a.level == b.level;
  return a.target == Target::NoValue || a.value_hash == b.value_hash;
}

bool participates(const SplitRecord& r) { return r.kind != SplitKind::Undefined; }

// (node, instance): one instance of a level, job-wide. A node level's index is node-unique, so the node tells the
// instances of different nodes apart; a network level's index is already job-wide (rack 1 is the same rack seen
// from every node), so its key leaves the node out, and the parts come in the racks' (switches') order.
using InstanceKey = std::pair<uint32_t, int32_t>;

std::optional<InstanceKey> instance_of(const SplitRecord& r, topo::Level l) {
  const int32_t i = r.instance[topo::index(l)];
  if (!participates(r) || i < 0) return std::nullopt;
  return InstanceKey{topo::network(l) ? 0u : r.node, i};
}

// Unguided: the highest level at which some member's group is a strict subset of the parent's group.
std::optional<topo::Level> unguided_level(const std::vector<SplitRecord>& records) {
  for (topo::Level l : topo::kAllLevels) {
    std::map<InstanceKey, int> group_sizes;
    for (const SplitRecord& r : records)
      if (auto k = instance_of(r, l)) ++group_sizes[*k];
    for (const auto& [key, size] : group_sizes)
      if (size < static_cast<int>(records.size())) return l;
  }
  return std::nullopt;
}

// The first mismatch between participants, or an empty status.
Status check_agreement(const std::vector<SplitRecord>& records, SplitPlan& plan) {
  int first = -1;
  for (int r = 0; r < static_cast<int>(records.size()); ++r) {
    if (!participates(records[r])) continue;
    if (first < 0) {
      first = r;
      continue;
    }
    if (records[r].kind != records[first].kind)
      return error(kErrArg, std::string("processes passed different split types: ") + kind_name(records[first].kind) +
                                " (rank " + std::to_string(first) + ") and " + kind_name(records[r].kind) + " (rank " +
                                std::to_string(r) + ")");
  }
  if (first < 0 || !guided(records[first].kind)) return {};
  for (int r = first; r < static_cast<int>(records.size()); ++r)
    if (participates(records[r]) && records[r].target == Target::BothKeys)
      return error(kErrInfo, "rank " + std::to_string(r) +
                                 " passed both mpi_hw_resource_type and mpi_pset_name (only one is allowed)");
  for (int r = first + 1; r < static_cast<int>(records.size()); ++r)
    if (participates(records[r]) && !same_value(records[first], records[r])) {
      plan.differing[0] = first;
      plan.differing[1] = r;
      return error(kErrInfoValue, "processes passed different mpi_hw_resource_type values");
    }
  return {};
}

// "processes passed different ... values: <a> (rank i) and <b> (rank j)": the values travel only on this error path.
Status describe_mismatch(const Communicator& parent, const SplitRequest& request, const SplitPlan& plan) {
  std::vector<char> mine(kShownValue + 1, '\0');
  std::memcpy(mine.data(), request.value.data(), std::min(request.value.size(), kShownValue));
  const View view{parent.collective_context(), parent.rank, &parent.world_ranks};
  const std::vector<char> all = allgather(view, mine, kTagAllgather);
  auto shown = [&](int r) { return std::string(all.data() + static_cast<std::size_t>(r) * mine.size()); };
  return error(plan.status.error_class, plan.status.message + ": " + shown(plan.differing[0]) + " (rank " +
                                            std::to_string(plan.differing[0]) + ") and " + shown(plan.differing[1]) +
                                            " (rank " + std::to_string(plan.differing[1]) + ")");
}

std::vector<int> to_world(const Communicator& parent, const std::vector<int>& ranks) {
  std::vector<int> world;
  world.reserve(ranks.size());
  for (int r : ranks) world.push_back(parent.world_rank(r));
  return world;
}

}  // namespace

SplitRecord make_record(const SplitRequest& request, const topo::Placement& placement) {
  SplitRecord r{};
  r.kind = request.kind;
  r.key = request.key;
  r.target = request.target;
  r.level = topo::index(request.level);
  r.value_hash = fnv1a(request.value);
  r.node = placement.node;
  std::copy(placement.instance.begin(), placement.instance.end(), r.instance);
  return r;
}

SplitPlan plan_split(const std::vector<SplitRecord>& records, int me, int conduit_world_rank,
                     const std::vector<int>& world_ranks) {
  SplitPlan plan;
  plan.status = check_agreement(records, plan);
  if (!plan.status.ok()) return plan;
  const auto first = std::find_if(records.begin(), records.end(), participates);
  if (first == records.end()) return plan;  // everyone passed MPI_UNDEFINED
  switch (first->kind) {
    case SplitKind::Shared:
      plan.level = topo::Level::Node;
      plan.shared_memory = true;
      break;
    case SplitKind::HwUnguided: plan.level = unguided_level(records); break;
    default:
      if (first->target == Target::Level) plan.level = static_cast<topo::Level>(first->level);
      if (first->target == Target::SharedMemory) {
        plan.level = topo::Level::Node;
        plan.shared_memory = true;
      }
  }
  if (!plan.level) return plan;

  // The parts, in hardware order; each part's members in key order, ties in parent rank order.
  std::map<InstanceKey, std::vector<int>> parts;
  for (int r = 0; r < static_cast<int>(records.size()); ++r)
    if (auto k = instance_of(records[r], *plan.level)) parts[*k].push_back(r);
  plan.num_parts = static_cast<int>(parts.size());
  const auto mine = instance_of(records[me], *plan.level);
  int index = 0;
  for (auto& [key, members] : parts) {
    std::stable_sort(members.begin(), members.end(),
                     [&](int a, int b) { return records[a].key < records[b].key; });
    auto conduit = std::find_if(members.begin(), members.end(),
                                [&](int r) { return world_ranks[r] == conduit_world_rank; });
    plan.roots.push_back(conduit != members.end() ? *conduit : members.front());
    if (mine && key == *mine) {
      plan.part = index;
      plan.members = members;
    }
    plan.parts.push_back(members);
    ++index;
  }
  std::sort(plan.roots.begin(), plan.roots.end());
  return plan;
}

Status create_hw_split(const Communicator& parent, const SplitRequest& request, const topo::Placement& placement,
                       bool with_roots, int conduit_world_rank, SplitResult& out) {
  const SplitRecord mine = make_record(request, placement);
  std::vector<char> blob(sizeof mine);
  std::memcpy(blob.data(), &mine, sizeof mine);
  const View view{parent.collective_context(), parent.rank, &parent.world_ranks};
  const std::vector<char> all = allgather(view, blob, kTagAllgather);
  std::vector<SplitRecord> records(parent.size);
  std::memcpy(records.data(), all.data(), all.size());

  SplitPlan plan = plan_split(records, parent.rank, conduit_world_rank, parent.world_ranks);
  if (!plan.status.ok()) return plan.differing[0] >= 0 ? describe_mismatch(parent, request, plan) : plan.status;
  out = SplitResult{};
  out.level = plan.level;
  out.shared_memory = plan.shared_memory;
  if (plan.num_parts == 0) return {};  // MPI_COMM_NULL everywhere, known everywhere: no context needed
  if (Status s = create_from_members(parent, to_world(parent, plan.members), out.part); !s.ok()) return s;
  if (out.part) out.part->hw_level = HwLevel{level_value(out), plan.num_parts, plan.part};
  if (with_roots)
    if (Status s = create_from_members(parent, to_world(parent, plan.roots), out.roots); !s.ok()) {
      if (out.part) release(*out.part);
      out.part.reset();
      return s;
    }
  return {};
}

std::string level_value(const SplitResult& r) {
  if (r.shared_memory) return "mpi_shared_memory";
  return r.level ? std::string(topo::canonical_name(*r.level)) : std::string();
}

}  // namespace strata::comm
