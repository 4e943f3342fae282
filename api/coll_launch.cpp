#include "api/coll_launch.hpp"

#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "coll/comm_cache.hpp"
#include "coll/cost_parameters.hpp"
#include "coll/selection.hpp"
#include "runtime/lasting.hpp"
#include "runtime/progress.hpp"

namespace strata::api {

Check& collective_comm(Check& check, MPI_Comm handle, coll::Operation op, comm::Communicator*& out) {
  if (op == coll::Operation::kScan || op == coll::Operation::kExscan) return check.intracomm(handle, out);
  return check.comm(handle, out);
}

Check& root(Check& check, int root, const comm::Communicator& c) {
  if (check.ok() && c.inter() && root != MPI_ROOT && root != MPI_PROC_NULL && (root < 0 || root >= c.peer_count()))
    return check.fail(MPI_ERR_ROOT, "invalid root " + std::to_string(root) + " (on an intercommunicator: MPI_ROOT, "
                                    "MPI_PROC_NULL or a rank of the remote group, which has " +
                                    std::to_string(c.peer_count()) + ")");
  if (check.ok() && !c.inter() && (root < 0 || root >= c.size))
    check.fail(MPI_ERR_ROOT, "invalid root " + std::to_string(root) + " (the communicator has " +
                                 std::to_string(c.size) + " ranks)");
  return check;
}

Check& data(Check& check, const void* buf, MPI_Count count, MPI_Datatype type, datatype::TypeRef& out) {
  check.count(count).type(type, out).committed(type, out.get());
  if (check.ok()) check.buffer(buf, count, out.get());
  return check;
}

Check& reduction(Check& check, MPI_Op op, const datatype::Datatype& type, const datatype::Op*& out) {
  if (!check.ok()) return check;
  out = op_of(op);
  if (out == nullptr)
    return check.fail(MPI_ERR_OP, op == MPI_OP_NULL ? std::string("op is MPI_OP_NULL")
                                                    : "invalid operator handle " + std::to_string(op));
  const Status s = datatype::check(*out, type);
  if (!s.ok()) check.fail(s.error_class, s.message);
  return check;
}

Check& counts(Check& check, CallArray counts, CallArray displs, int n, std::vector<int>& counts_out,
              std::vector<int>* displs_out, const char* what) {
  if (!check.ok()) return check;
  // An array of no entries may be NULL (a neighbourhood collective's side of degree 0: PETSc passes what a zero-size
  // allocation returned).
  if (n > 0 && (counts.null() || (displs_out != nullptr && displs.null())))
    return check.fail(MPI_ERR_ARG, std::string(what) + "'s counts or displacements are NULL");
  const auto size = static_cast<std::size_t>(n > 0 ? n : 0);
  counts_out.resize(size);
  if (displs_out != nullptr) displs_out->resize(size);
  const auto at = [&](std::size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; };  // failures only
  for (std::size_t i = 0; i < size; ++i) {
    const long long count = counts[i];
    if (count < 0) return check.fail(MPI_ERR_COUNT, at(i) + " is negative (" + std::to_string(count) + ")");
    if (count > INT_MAX)
      return check.fail(MPI_ERR_COUNT, at(i) + " is " + std::to_string(count) +
                                           ": the v and w collectives take counts up to INT_MAX");
    counts_out[i] = static_cast<int>(count);
    if (displs_out == nullptr) continue;
    const long long displ = displs[i];
    if (displ < INT_MIN || displ > INT_MAX)
      return check.fail(MPI_ERR_COUNT, "displacement " + std::to_string(i) + " of " + what + " is " +
                                           std::to_string(displ) + ": the v and w collectives take an int's range");
    (*displs_out)[i] = static_cast<int>(displ);
  }
  return check;
}

namespace {

struct Pending {
  std::shared_ptr<coll::Collective> collective;
  ApiRequest* request;
};

// Reserved when the library loads, so that starting a collective allocates nothing until more than 256 are pending
// at once; not at the first start that stays pending, which may come after many that finished at once (a
// shared-memory bcast's warm-up runs) and must not allocate either.
std::vector<Pending> g_pending = [] {
  std::vector<Pending> l;
  l.reserve(256);
  return l;
}();
std::vector<Pending>& pending() { return g_pending; }

// `r` is alive: an active collective's request cannot be freed.
void finish(const coll::Collective& collective, ApiRequest& r) {
  r.status = {MPI_ANY_SOURCE, MPI_ANY_TAG, collective.error(), 0, false};
  r.failure = collective.message();
  r.complete = true;
}

// Nonblocking collectives progress here, in any MPI call that waits or tests; they finish in any order.
bool poll_pending(void*) {
  bool moved = false;
  std::vector<Pending>& list = pending();
  for (std::size_t i = 0; i < list.size();) {
    list[i].collective->progress();
    if (!list[i].collective->finished()) {
      ++i;
      continue;
    }
    finish(*list[i].collective, *list[i].request);
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
    moved = true;
  }
  if (list.empty()) runtime::remove_poller(poll_pending, nullptr);
  return moved;
}

// A started collective's request: complete at once when the start already finished it (a root's eager sends, a
// single rank: the waiting call then need not poll anything), else pending.
void track(std::shared_ptr<coll::Collective> collective, ApiRequest* r) {
  if (collective->finished()) return finish(*collective, *r);
  if (pending().empty()) runtime::add_poller(poll_pending, nullptr);
  pending().push_back({std::move(collective), r});
}

// The algorithm forced for `op`: the call's own info (a persistent init's), else the communicator's hints; "" when
// none is (automatic choice).
const std::string& forced_algorithm(const comm::Communicator& c, coll::Operation op, const runtime::Info* info) {
  static auto& automatic = runtime::lasting<const std::string>();
  const std::string& key = coll::info_key(op);
  const std::string* forced = info ? info->get(key) : nullptr;
  if (forced == nullptr) forced = c.hints.get(key);
  return forced ? *forced : automatic;
}

// The request handed out for a nonblocking or persistent collective: it keeps what it runs.
ApiRequest* collective_request(MPI_Comm handle, std::shared_ptr<coll::Collective> run) {
  auto* r = new ApiRequest;
  r->kind = transport::RequestKind::Recv;
  r->collective = true;
  r->comm = handle;
  r->collective_run = std::move(run);
  return r;
}

// How a collective call may use the node's shared memory.
enum class NodeMemory {
  kNone,        // a query (MPIX_Comm_get_coll_info): no collective call, so no attaching
  kCall,        // a blocking or nonblocking call
  kPersistent,  // a persistent init: its slot is its index among the communicator's persistent collectives
};

// An intercommunicator's collective: ranks in the space of both groups (coll/args.hpp: inter), the root translated
// there; no node memory, hierarchy or forced algorithm (coll/algorithms/intercomm.cpp has the only ones).
Status complete_inter_args(comm::Communicator& c, coll::Args& args, const std::string*& forced) {
  static auto& automatic = runtime::lasting<const std::string>();
  const bool local_first = coll::inter_local_first(c);
  args.inter = true;
  args.local_size = c.size;
  args.remote_size = c.peer_count();
  args.local_base = local_first ? 0 : args.remote_size;
  args.remote_base = local_first ? args.local_size : 0;
  args.rank = args.local_base + c.rank;
  args.size = args.local_size + args.remote_size;
  args.root = args.root == MPI_ROOT ? args.rank : args.root == MPI_PROC_NULL ? -1 : args.remote_base + args.root;
  if (!c.collectives) c.collectives = std::make_shared<coll::CommCache>();
  forced = &automatic;
  return Status::success();
}

// Completes `args` for a collective on `c` (its rank, size, requested G, node shared memory and, where a
// topology-aware algorithm may run, hierarchy) and sets `forced` to the algorithm forced for it (see
// forced_algorithm).
Status complete_args(comm::Communicator& c, coll::Operation op, coll::Args& args, const runtime::Info* info,
                     const std::string*& forced, NodeMemory memory) {
  if (c.inter()) return complete_inter_args(c, args, forced);
  args.rank = c.rank;
  args.size = c.size;
  const std::string* groups = info ? info->get(coll::kGroupsInfoKey) : nullptr;
  if (groups == nullptr) groups = c.hints.get(coll::kGroupsInfoKey);
  if (Status s = coll::requested_groups(groups, args.groups); !s.ok()) return s;
  if (!c.collectives) c.collectives = std::make_shared<coll::CommCache>();
  if (memory != NodeMemory::kNone)
    if (Status s = c.collectives->attach_node_memory(c); !s.ok()) return s;
  args.node_memory = c.collectives->has_node_memory(c) &&
                     (memory != NodeMemory::kPersistent || coll::persistent_has_slot(c.persistent_collectives));
  args.shared_memory = args.node_memory && !c.collectives->spans_nodes(c);
  args.shared_processors = coll::job_ranks_share_processors();
  forced = &forced_algorithm(c, op, info);
  args.hierarchy = c.collectives->hierarchy(c, op, *forced);
  return Status::success();
}

}  // namespace

int launch(Check& check, MPI_Comm handle, comm::Communicator& c, coll::Operation op, coll::Args& args,
           const coll::CallKey& key, MPI_Request* request) {
  if (!check.ok()) return check.raise();
  const std::string* forced = nullptr;
  Status s = complete_args(c, op, args, nullptr, forced, NodeMemory::kCall);
  std::shared_ptr<coll::Collective> collective;
  if (s.ok()) s = c.collectives->get(op, args, c, *forced, key, collective);
  if (!s.ok()) return check.fail(s.error_class, s.message).raise();
  return start(check, handle, c, collective, request);
}

Status explain(comm::Communicator& c, coll::Operation op, coll::Args& args, coll::Choice& out) {
  const std::string* forced = nullptr;
  if (Status s = complete_args(c, op, args, nullptr, forced, NodeMemory::kNone); !s.ok()) return s;
  return coll::choose(op, args, *forced, out);
}

int start(Check& check, MPI_Comm handle, comm::Communicator& c, const std::shared_ptr<coll::Collective>& collective,
          MPI_Request* request) {
  const uint32_t sequence = c.collectives_started++;
  collective->start(coll::tag_base(sequence), sequence);
  if (request == nullptr) {
    runtime::wait_until([&] { return collective->progress(); });
    if (collective->error() != 0) return check.fail(collective->error(), collective->message()).raise();
    return MPI_SUCCESS;
  }
  ApiRequest* r = collective_request(handle, collective);
  r->active = true;
  *request = requests().add(r);
  track(collective, r);
  return MPI_SUCCESS;
}

int init_persistent(Check& check, MPI_Comm handle, comm::Communicator& c, coll::Operation op, coll::Args& args,
                    const runtime::Info* info, MPI_Request* request) {
  const std::string* forced = nullptr;
  Status s = complete_args(c, op, args, info, forced, NodeMemory::kPersistent);
  std::unique_ptr<coll::Collective> made;
  if (s.ok()) s = coll::Collective::create(op, std::move(args), coll::channel_of(c), *forced, made);
  if (!s.ok()) return check.fail(s.error_class, s.message).raise();
  ApiRequest* r = collective_request(handle, std::move(made));
  r->persistent = true;
  r->complete = true;  // inactive until started
  r->collective_tag_base = coll::persistent_tag_base(c.persistent_collectives++);
  *request = requests().add(r);
  return MPI_SUCCESS;
}

void start_persistent(ApiRequest& r) {
  r.active = true;
  r.complete = false;
  r.collective_run->start(r.collective_tag_base, r.collective_starts++);
  track(r.collective_run, &r);
}

}  // namespace strata::api
