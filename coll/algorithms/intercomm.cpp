// Collectives on an intercommunicator (MPI-4.0 6.2.2): the data of one group goes to the other. Args numbers both
// groups in one space of ranks (args.hpp: inter), so a schedule addresses either group and runs over the
// intercommunicator's collective context like any other.
//
// Rooted operations leave the root's group idle but for the root: a bcast or scatter goes to the remote group's
// rank 0, or to each of its ranks, and a reduce is reduced inside the contributing group first, so the root takes
// one message. The all-to-all kinds pair every rank with every remote rank (allgather, alltoall) or reduce inside
// each group and swap the results between the groups' ranks 0, which pass them on (allreduce, reduce_scatter).
// Phases inside one group are the intracommunicator algorithms, built for the group and embedded (Schedule::embed).
#include <iterator>
#include <numeric>

#include "coll/algorithms.hpp"

namespace strata::coll {
namespace {

constexpr int kQuarter = kTagsPerCollective / 4;
constexpr int kFirstPhase = 0;             // tag offsets: a phase inside the group
constexpr int kSecondPhase = kQuarter;     // the next one
constexpr int kAcross = 2 * kQuarter;      // messages between the groups (one per pair of ranks and direction)

int local_rank(const Args& a) { return a.rank - a.local_base; }
bool leads(const Args& a) { return local_rank(a) == 0; }  // rank 0 of its group
bool is_root(const Args& a) { return a.rank == a.root; }
bool in_root_group(const Args& a) { return a.root < 0 || is_root(a); }  // MPI_PROC_NULL or MPI_ROOT

Data send_data(const Args& a) { return {a.send_buf(), a.sendcount, a.sendtype}; }
Data nowhere(std::size_t count, const datatype::TypeRef& type) { return {Buf{}, count, type}; }  // insignificant here
Data recv_data(const Args& a) { return {a.recv_buf(), a.recvcount, a.recvtype}; }

// `op` with `sub`'s buffers over this rank's group (root: its rank 0), after `after`; returns its end. The binomial
// algorithm where it applies (it keeps a non-commutative operator's order), else the registry's first.
VertexId in_group(Operation op, Args sub, const Args& a, int tag_offset, Schedule& s, VertexId after) {
  sub.inter = false;
  sub.rank = local_rank(a);
  sub.size = a.local_size;
  sub.root = 0;
  sub.tag_limit = kQuarter;
  sub.node_memory = sub.shared_memory = false;
  sub.hierarchy = nullptr;
  const Algorithm* algorithm = find_algorithm(op, "binomial");
  if (algorithm == nullptr || (algorithm->applies != nullptr && !algorithm->applies(sub)))
    algorithm = first_applicable(op, sub);
  const auto first = static_cast<VertexId>(s.vertices().size());
  algorithm->build(sub, s);
  std::vector<int> peers(static_cast<std::size_t>(a.local_size));
  std::iota(peers.begin(), peers.end(), a.local_base);
  const VertexId before[] = {after};
  return s.embed(first, peers, tag_offset, before);
}

// This group's reduction of its send buffers, at its rank 0 in `result` (scratch there; nothing elsewhere).
VertexId reduce_in_group(const Args& a, Data& result, Schedule& s) {
  result = leads(a) ? s.temp(a.sendcount, a.sendtype) : nowhere(a.sendcount, a.sendtype);
  Args sub = a;
  set_recv(sub, result);
  return in_group(Operation::kReduce, sub, a, kFirstPhase, s, kNoVertex);
}

void barrier(const Args& a, Schedule& s) {  // everyone of both groups has entered: a barrier over the union
  Args all = a;
  all.inter = false;
  all.node_memory = all.shared_memory = false;
  all.hierarchy = nullptr;
  const Algorithm* algorithm = find_algorithm(Operation::kBarrier, "binomial");
  (algorithm ? algorithm : first_applicable(Operation::kBarrier, all))->build(all, s);
}

void bcast(const Args& a, Schedule& s) {
  if (is_root(a)) s.send(recv_data(a), a.remote_base, kAcross);
  if (in_root_group(a)) return;
  const VertexId got = leads(a) ? s.recv(recv_data(a), a.root, kAcross) : kNoVertex;
  in_group(Operation::kBcast, a, a, kFirstPhase, s, got);
}

void reduce(const Args& a, Schedule& s) {
  if (is_root(a)) s.recv(recv_data(a), a.remote_base, kAcross);
  if (in_root_group(a)) return;
  Data result;
  const VertexId reduced = reduce_in_group(a, result, s);
  if (leads(a)) s.send(result, a.root, kAcross, {reduced});
}

void gather(const Args& a, Schedule& s, bool v) {
  if (is_root(a))
    for (int j = 0; j < a.remote_size; ++j)
      s.recv(v ? block_v(a.recv_buf(), a.recvcounts, a.rdispls, a.recvtype, j)
               : elements(recv_data(a), static_cast<std::size_t>(j) * a.recvcount, a.recvcount),
             a.remote_base + j, kAcross);
  if (!in_root_group(a)) s.send(send_data(a), a.root, kAcross);
}

void scatter(const Args& a, Schedule& s, bool v) {
  if (is_root(a))
    for (int j = 0; j < a.remote_size; ++j)
      s.send(v ? block_v(a.send_buf(), a.sendcounts, a.sdispls, a.sendtype, j)
               : elements(send_data(a), static_cast<std::size_t>(j) * a.sendcount, a.sendcount),
             a.remote_base + j, kAcross);
  if (!in_root_group(a)) s.recv(recv_data(a), a.root, kAcross);
}

// Every rank sends block(j) to remote rank j and receives remote rank j's into into(j).
template <class Out, class In>
void pairwise(const Args& a, Schedule& s, Out out, In into) {
  for (int j = 0; j < a.remote_size; ++j) {
    s.recv(into(j), a.remote_base + j, kAcross);
    s.send(out(j), a.remote_base + j, kAcross);
  }
}

void allgather(const Args& a, Schedule& s, bool v) {
  pairwise(a, s, [&](int) { return send_data(a); }, [&](int j) {
    return v ? block_v(a.recv_buf(), a.recvcounts, a.rdispls, a.recvtype, j)
             : elements(recv_data(a), static_cast<std::size_t>(j) * a.recvcount, a.recvcount);
  });
}

void alltoall(const Args& a, Schedule& s) {
  pairwise(
      a, s, [&](int j) { return elements(send_data(a), static_cast<std::size_t>(j) * a.sendcount, a.sendcount); },
      [&](int j) { return elements(recv_data(a), static_cast<std::size_t>(j) * a.recvcount, a.recvcount); });
}

void alltoallv(const Args& a, Schedule& s) {
  pairwise(
      a, s, [&](int j) { return block_v(a.send_buf(), a.sendcounts, a.sdispls, a.sendtype, j); },
      [&](int j) { return block_v(a.recv_buf(), a.recvcounts, a.rdispls, a.recvtype, j); });
}

void alltoallw(const Args& a, Schedule& s) {
  pairwise(
      a, s, [&](int j) { return block_w(a.send_buf(), a.sendcounts, a.sdispls, a.sendtypes, j); },
      [&](int j) { return block_w(a.recv_buf(), a.recvcounts, a.rdispls, a.recvtypes, j); });
}

// Each group reduces its own vectors at its rank 0; the two ranks 0 swap their results into `swapped`, and each
// passes the other group's on through `pass_on` (a phase in its group from `swapped`, after the swap).
template <class PassOn>
void reduce_and_swap(const Args& a, Schedule& s, Data swapped, PassOn pass_on) {
  Data mine;
  const VertexId reduced = reduce_in_group(a, mine, s);
  VertexId got = kNoVertex;
  if (leads(a)) {
    got = s.recv(swapped, a.remote_base, kAcross);
    s.send(mine, a.remote_base, kAcross, {reduced});
  }
  pass_on(got);
}

void allreduce(const Args& a, Schedule& s) {
  reduce_and_swap(a, s, recv_data(a), [&](VertexId got) {
    Args sub = a;
    set_recv(sub, recv_data(a));
    in_group(Operation::kBcast, sub, a, kSecondPhase, s, got);
  });
}

// Reduce_scatter(_block): the other group's reduction, its recvcounts (or recvcount) elements to each rank.
void reduce_scatter(const Args& a, Schedule& s, bool block_counts) {
  const Data swapped = leads(a) ? s.temp(a.sendcount, a.sendtype) : nowhere(a.sendcount, a.sendtype);
  reduce_and_swap(a, s, swapped, [&](VertexId got) {
    Args sub = a;
    set_send(sub, swapped);
    set_recv(sub, recv_data(a));
    if (block_counts) {
      sub.sendcount = a.recvcount;
      in_group(Operation::kScatter, sub, a, kSecondPhase, s, got);
      return;
    }
    sub.sendcounts = a.recvcounts;
    sub.sdispls.assign(a.recvcounts.size(), 0);
    std::exclusive_scan(a.recvcounts.begin(), a.recvcounts.end(), sub.sdispls.begin(), 0);
    in_group(Operation::kScatterv, sub, a, kSecondPhase, s, got);
  });
}

void unsupported(const Args&, Schedule&) {}  // scan, exscan: api/ refuses them on intercommunicators

constexpr Algorithm kIntercomm[] = {
    {Operation::kBarrier, "intercomm", barrier, nullptr},
    {Operation::kBcast, "intercomm", bcast, nullptr},
    {Operation::kGather, "intercomm", [](const Args& a, Schedule& s) { gather(a, s, false); }, nullptr},
    {Operation::kGatherv, "intercomm", [](const Args& a, Schedule& s) { gather(a, s, true); }, nullptr},
    {Operation::kScatter, "intercomm", [](const Args& a, Schedule& s) { scatter(a, s, false); }, nullptr},
    {Operation::kScatterv, "intercomm", [](const Args& a, Schedule& s) { scatter(a, s, true); }, nullptr},
    {Operation::kAllgather, "intercomm", [](const Args& a, Schedule& s) { allgather(a, s, false); }, nullptr},
    {Operation::kAllgatherv, "intercomm", [](const Args& a, Schedule& s) { allgather(a, s, true); }, nullptr},
    {Operation::kAlltoall, "intercomm", alltoall, nullptr},
    {Operation::kAlltoallv, "intercomm", alltoallv, nullptr},
    {Operation::kAlltoallw, "intercomm", alltoallw, nullptr},
    {Operation::kReduce, "intercomm", reduce, nullptr},
    {Operation::kAllreduce, "intercomm", allreduce, nullptr},
    {Operation::kReduceScatter, "intercomm", [](const Args& a, Schedule& s) { reduce_scatter(a, s, false); },
     nullptr},
    {Operation::kReduceScatterBlock, "intercomm", [](const Args& a, Schedule& s) { reduce_scatter(a, s, true); },
     nullptr},
    {Operation::kScan, "intercomm", unsupported, nullptr},
    {Operation::kExscan, "intercomm", unsupported, nullptr},
    {Operation::kNeighborAllgather, "intercomm", unsupported, nullptr},  // topologies live on intracommunicators
    {Operation::kNeighborAllgatherv, "intercomm", unsupported, nullptr},
    {Operation::kNeighborAlltoall, "intercomm", unsupported, nullptr},
    {Operation::kNeighborAlltoallv, "intercomm", unsupported, nullptr},
    {Operation::kNeighborAlltoallw, "intercomm", unsupported, nullptr},
};

static_assert(std::size(kIntercomm) == static_cast<std::size_t>(Operation::kCount));

}  // namespace

const Algorithm& intercomm_algorithm(Operation op) { return kIntercomm[static_cast<int>(op)]; }

}  // namespace strata::coll
