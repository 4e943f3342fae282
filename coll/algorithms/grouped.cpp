// The grouped family: reduce, allreduce and bcast as two flat collectives, one inside each of G groups of consecutive
// ranks and one across the groups (the topology-oblivious transformation of the hierarchical reduction paper, Hasanov
// and Lastovetsky 2016, section 3). Unlike the hierarchical family it needs no hierarchy: the groups follow from p
// and G alone (grouped.hpp), so it serves any communicator.
//
//   reduce     inside each group to its leader, then among the leaders to the root            (paper, Algorithm 1)
//   allreduce  inside each group, then among the ranks at the same index of every group       (paper, Fig. 2)
//   bcast      among the leaders from the root, then inside each group from its leader
//
// A group's leader is the root in the root's group, so the result needs no extra hop to it, else the group's first
// rank. Each phase runs the flat algorithm select() picks for its own size and message (or one forced through
// build_grouped), built into this schedule and addressed to the phase's ranks (Schedule::embed), as the hierarchical
// family does per level.
//
// G: Args::groups, else round(sqrt(p)). With linear inner algorithms the phases take G - 1 and p/G - 1 steps, fewest
// at G = sqrt(p): F(G) = (G + p/G - 2)(a + mb + mg) for the reduce (section 3.1), twice the steps for the allreduce
// (formula 5). Strata's linear reduce double-buffers, which hides all but three reductions of each phase:
// (G + p/G - 2)(a + mb) + 6mg when both phases have at least 4 ranks (tests/unit/coll/grouped_test.cpp checks both
// forms against the cost model). With logarithmic inner algorithms G hardly matters: log2(p/G) + log2(G) = log2(p).
//
// Rank order. Groups are runs of consecutive ranks, and every algorithm select() returns for a phase keeps its
// members' rank order (it applies to the operator: a ring refuses a non-commutative one), so each group's partial
// result is x(first) op .. op x(last), and the second phase combines the partial results in group order, which is
// rank order. The family therefore serves non-commutative operators too.
//
// Unequal groups (G not dividing p). Reduce and bcast only see groups of two sizes. The allreduce's second phase needs
// a counterpart at the same index in every group: the last rank of each longer group (index p / G) has none. It takes
// part in its group's allreduce, so its input is counted there, sits out the columns (joining one would count its
// group twice; a group-wide bcast afterwards would cost every rank of the group another step), and then receives the
// result from the first rank of the next group: one message, from a rank that always exists since the longer groups
// come first and there are fewer than G of them, and that sends at most one such message.
//
// Tags. No two ranks exchange messages in more than one phase: the first phase's pairs share a group; the second's
// (leaders, or ranks at one index) and the allreduce's hand-off join ranks of different groups, and the hand-off's two
// ranks are in no column together. So every phase's algorithm uses the collective's tags from 0 with the whole
// tag_limit, and the hand-off tag 0: the family adds no tags to its inner algorithms.
//
// Scratch: only a reduce leader that is not the root keeps its group's result in scratch, written afresh on every run
// from the user's buffers, so a persistent schedule always reduces the current inputs.
#include "coll/algorithms/grouped.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "coll/selection.hpp"

namespace strata::coll {

int Groups::of(int rank) const {
  const int q = ranks_ / count_, in_longer = longer() * (q + 1);
  return rank < in_longer ? rank / (q + 1) : longer() + (rank - in_longer) / q;
}

std::vector<int> Groups::members(int g) const {
  std::vector<int> out(static_cast<std::size_t>(size(g)));
  std::iota(out.begin(), out.end(), first(g));
  return out;
}

std::vector<int> Groups::column(int index) const {
  std::vector<int> out;
  for (int g = 0; g < count_; ++g) out.push_back(first(g) + index);
  return out;
}

int group_count(int ranks, int requested) {
  if (requested > 0) return std::clamp(requested, 1, ranks);
  return std::max(1, static_cast<int>(std::lround(std::sqrt(static_cast<double>(ranks)))));
}

std::vector<int> group_choices(int ranks, int nodes) {
  const double root = std::sqrt(static_cast<double>(ranks));
  std::vector<int> out;
  for (int g : {static_cast<int>(std::floor(root)), static_cast<int>(std::ceil(root)), nodes})
    if (g >= 2 && g < ranks && std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Args::groups of a phase's own call. Its algorithm must not group again: forced by STRATA_COLL_<OPERATION>, select()
// would otherwise pick this family for the phase, and with G = 1 the phase is the whole collective again.
constexpr int kPhase = -1;

// What every builder works from: the call, this rank's group and its index there, and the forced inner algorithm.
struct Plan {
  const Args& a;
  Schedule& s;
  const Algorithm* inner;
  Groups groups;
  int group;
  int index;
};

bool same(const Buf& x, const Buf& y) { return x.area == y.area && x.at == y.at; }

Buf input(const Args& a) { return a.in_place ? a.recv_buf() : a.send_buf(); }

Data whole(const Args& a, const Buf& at) { return {at, a.recvcount, a.recvtype}; }

// `a` reading its input at `in` and, if this rank gets the result, writing it to `out`: in place when they are one.
// Counts and types stay, since the inner algorithms read recvcount and recvtype at every rank.
Args with_buffers(const Args& a, const Buf& in, const Buf& out, bool gets_result) {
  Args sub = a;
  sub.sendbuf = reinterpret_cast<const void*>(in.at);
  sub.send_area = in.area;
  sub.recvbuf = reinterpret_cast<void*>(out.at);
  sub.recv_area = out.area;
  sub.in_place = gets_result && same(in, out);
  return sub;
}

// Runs `op` among `ranks` (communicator ranks, this one at `me`), rooted at ranks[root], with `sub`'s buffers, once
// `after` has completed: the forced inner algorithm, or the flat one select() picks for that many ranks. Returns its
// end.
VertexId phase(const Plan& plan, Operation op, Args sub, const std::vector<int>& ranks, int me, int root,
               VertexId after) {
  sub.rank = me;
  sub.size = static_cast<int>(ranks.size());
  sub.root = root;
  sub.hierarchy = nullptr;  // the phase's ranks are not the communicator's: no topology-aware algorithm
  sub.groups = kPhase;
  const Algorithm* algorithm = plan.inner;
  if (algorithm == nullptr) select(op, sub, "", algorithm);  // some flat reduce, allreduce and bcast always apply
  const auto first = static_cast<VertexId>(plan.s.vertices().size());
  algorithm->build(sub, plan.s);
  const VertexId before[] = {after};
  return plan.s.embed(first, ranks, 0, before);
}

// Each group's leader, in group order: the root leads its own group.
std::vector<int> leaders(const Groups& g, int root) {
  std::vector<int> out;
  for (int k = 0; k < g.count(); ++k) out.push_back(k == g.of(root) ? root : g.first(k));
  return out;
}

// The result into recvbuf where no phase put it there (p = 1: no phase ran).
VertexId deliver(const Plan& plan, const Buf& result, VertexId ready) {
  const Buf out = plan.a.recv_buf();
  if (same(result, out)) return ready;
  return plan.s.copy(whole(plan.a, result), whole(plan.a, out), {ready});
}

// ---- Reduce -------------------------------------------------------------------------------------------------------

void reduce(const Plan& plan) {
  const Args& a = plan.a;
  const Groups& g = plan.groups;
  const std::vector<int> leader = leaders(g, a.root);
  const bool leads = a.rank == leader[plan.group], root = a.rank == a.root;
  Buf partial = input(a);
  VertexId ready = kNoVertex;
  if (g.size(plan.group) > 1) {
    const Buf into = root || !leads ? a.recv_buf() : plan.s.temp(a.recvcount, a.recvtype).buf;
    const int group_root = leader[plan.group] - g.first(plan.group);
    ready = phase(plan, Operation::kReduce, with_buffers(a, partial, into, leads), g.members(plan.group),
                  plan.index, group_root, ready);
    if (!leads) return;
    partial = into;
  }
  if (g.count() > 1) {
    ready = phase(plan, Operation::kReduce, with_buffers(a, partial, a.recv_buf(), root), leader, plan.group,
                  g.of(a.root), ready);
    if (!root) return;
    partial = a.recv_buf();
  }
  if (root) deliver(plan, partial, ready);
}

// ---- Allreduce ----------------------------------------------------------------------------------------------------

void allreduce(const Plan& plan) {
  const Args& a = plan.a;
  const Groups& g = plan.groups;
  const Buf out = a.recv_buf();
  Buf partial = input(a);
  VertexId ready = kNoVertex;
  if (g.size(plan.group) > 1) {
    ready = phase(plan, Operation::kAllreduce, with_buffers(a, partial, out, true), g.members(plan.group), plan.index,
                  0, ready);
    partial = out;
  }
  if (plan.index >= g.columns()) {  // the last rank of a longer group: in no column (see the top of the file)
    plan.s.recv(whole(a, out), g.first(plan.group + 1), 0, {ready});
    return;
  }
  if (g.count() > 1) {
    ready = phase(plan, Operation::kAllreduce, with_buffers(a, partial, out, true), g.column(plan.index), plan.group,
                  0, ready);
    partial = out;
  }
  ready = deliver(plan, partial, ready);
  const int previous = plan.group - 1;
  if (plan.index == 0 && previous >= 0 && g.size(previous) > g.columns())
    plan.s.send(whole(a, out), g.first(previous) + g.columns(), 0, {ready});
}

// ---- Bcast --------------------------------------------------------------------------------------------------------

void bcast(const Plan& plan) {
  const Args& a = plan.a;
  const Groups& g = plan.groups;
  const std::vector<int> leader = leaders(g, a.root);
  VertexId ready = kNoVertex;
  if (g.count() > 1 && a.rank == leader[plan.group])
    ready = phase(plan, Operation::kBcast, a, leader, plan.group, g.of(a.root), ready);
  if (g.size(plan.group) > 1)
    phase(plan, Operation::kBcast, a, g.members(plan.group), plan.index, leader[plan.group] - g.first(plan.group),
          ready);
}

// ---- The table ----------------------------------------------------------------------------------------------------

void build_reduce(const Args& a, Schedule& s) { build_grouped(Operation::kReduce, a, s, nullptr); }
void build_allreduce(const Args& a, Schedule& s) { build_grouped(Operation::kAllreduce, a, s, nullptr); }
void build_bcast(const Args& a, Schedule& s) { build_grouped(Operation::kBcast, a, s, nullptr); }

bool outside_a_phase(const Args& a) { return a.groups != kPhase; }

constexpr Algorithm kAlgorithms[] = {
    {Operation::kReduce, "grouped", build_reduce, outside_a_phase, false, true},
    {Operation::kAllreduce, "grouped", build_allreduce, outside_a_phase, false, true},
    {Operation::kBcast, "grouped", build_bcast, outside_a_phase, false, true},
};

}  // namespace

bool build_grouped(Operation op, const Args& a, Schedule& s, const Algorithm* inner) {
  if (op != Operation::kReduce && op != Operation::kAllreduce && op != Operation::kBcast) return false;
  if (a.recvcount == 0) return true;  // nothing to move
  const Groups groups(a.size, group_count(a.size, a.groups));
  const Plan plan{a, s, inner, groups, groups.of(a.rank), groups.index_of(a.rank)};
  if (op == Operation::kReduce) reduce(plan);
  if (op == Operation::kAllreduce) allreduce(plan);
  if (op == Operation::kBcast) bcast(plan);
  return true;
}

std::span<const Algorithm> grouped_algorithms() { return kAlgorithms; }

}  // namespace strata::coll
