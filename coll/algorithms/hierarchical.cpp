// The hierarchical family: a collective as one flat collective per level of the communicator's hardware hierarchy
// (hierarchy.hpp), among the leaders of the parts of the group holding this rank (persistent-collectives paper,
// sections 8-9; hierarchical-model paper, section 6). Each level runs the flat algorithm select_level picks for its
// own size and message (selection.hpp: the rule table inside a node, the cost model among nodes' leaders), built
// straight into the schedule and addressed to the leaders' ranks (Schedule::embed), so one schedule holds the whole
// collective and is built once like any other.
//
//   bcast      down the levels from the root, which leads every group holding it (no extra message)
//   reduce     up the levels to the root; each leader combines its part's partial results
//   allreduce  up to the first level's leaders, a flat allreduce among them, then down; or, for long vectors,
//              multi_leader: every rank of a node carries a slice across the network (below)
//   bcast      also multi_lane: a binomial tree over the nodes whose sends each node spreads over its ranks (below)
//   barrier    a flat barrier up every level, then a one-byte bcast down
//   gather     up the levels: each leader gathers its part's blocks in rank order; the root puts them in place
//              (in block order, where every part is a run of ranks, the last gatherv fills recvbuf directly)
//   scatter    the reverse of gather (in block order each leader sends its blocks from where they are: the root
//              from sendbuf, keeping its own part there; no reordering copies)
//   allgather  gather up to the first level's leaders, a flat allgatherv among them, then a bcast down (in block
//              order all of it in recvbuf, each part's blocks in their place: no scratch, no reordering)
//
// Inside a node, where the algorithm a level of all of the node's processes would run uses the node's shared memory,
// the node is that one level rather than cut by packages and caches (node_as_one_level): bcast, reduce, allreduce
// and allgather.
//
// Rank order. A group's blocks travel in the ascending order of its ranks, so each level's layout is known to every
// member from the hierarchy alone: no rank lists travel at run time. A non-commutative operator needs every partial
// result to cover a contiguous run of ranks: where a group's parts are not contiguous runs (shuffled ranks), that
// group is reduced flat, in rank order, instead of being cut further.
//
// Tags. Two ranks exchange messages at one level only (they lead different parts of exactly one group), except in
// allreduce, allgather and barrier, whose way down meets the way up again: the way down takes the upper half of the
// collective's tags, each level's flat algorithm the half it is in.
#include <algorithm>
#include <climits>
#include <cstddef>
#include <map>
#include <string_view>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/algorithms/trees.hpp"
#include "coll/hierarchy.hpp"
#include "coll/selection.hpp"
#include "datatype/predefined.hpp"
#include "runtime/lasting.hpp"
#include "topo/levels.hpp"

namespace strata::coll {
namespace {

constexpr int kHalf = kTagsPerCollective / 2;
constexpr int kUp = 0;        // tag offset of the way up (and of the first level)
constexpr int kDown = kHalf;  // tag offset of the way down

const datatype::TypeRef& bytes_type() {
  static auto& byte = runtime::lasting<const datatype::TypeRef>(datatype::predefined(datatype::kByte));
  return byte;
}

// One level as an algorithm runs it: the parts of the group holding this rank, their leaders in the same order,
// and which leader is this rank and which the group's own.
struct Step {
  std::vector<std::vector<int>> parts;
  std::vector<int> leaders;
  const std::vector<int>* members = nullptr;  // the group, ascending
  int me = -1;  // my index among the leaders, -1 when I do not lead a part
  int top = 0;  // the index of the group's leader
};

bool contiguous(const std::vector<int>& part) {
  return part.back() - part.front() + 1 == static_cast<int>(part.size());
}

bool parts_run(const std::vector<std::vector<int>>& parts) {
  return std::all_of(parts.begin(), parts.end(), contiguous);
}

// The levels for a collective rooted at `root` (0 for the unrooted ones). `in_order`: every partial result must
// cover a contiguous run of ranks, and the leaders combine them in rank order (a non-commutative operator).
std::vector<Step> steps(const Hierarchy& h, int me, int root, bool in_order) {
  std::vector<Step> out;
  for (const Hierarchy::Level& level : h.levels) {
    Step& st = out.emplace_back();
    st.members = &level.members;
    st.parts = level.parts;
    const bool cut = !in_order || parts_run(st.parts);
    if (!cut) {  // reduced flat, in rank order, and not cut further
      st.parts.clear();
      for (int r : level.members) st.parts.push_back({r});
    }
    if (in_order) std::sort(st.parts.begin(), st.parts.end());
    const int group_leader = leader(level.members, root);
    for (const std::vector<int>& part : st.parts) {
      const int l = leader(part, root);
      if (l == me) st.me = static_cast<int>(st.leaders.size());
      if (l == group_leader) st.top = static_cast<int>(st.leaders.size());
      st.leaders.push_back(l);
    }
    if (!cut) break;
  }
  return out;
}

// The flat algorithm for `op` among the step's leaders, `sub` made the level's arguments (its buffers kept).
const Algorithm* level_algorithm(Operation op, Args& sub, const Step& st) {
  sub.rank = st.me;
  sub.size = static_cast<int>(st.leaders.size());
  sub.root = st.top;
  sub.tag_limit = kHalf;
  // The level's leaders may share the node's memory when they are all on this node.
  const std::vector<topo::Placement>& at = sub.hierarchy->placements;
  const uint32_t node = at[static_cast<std::size_t>(st.leaders[st.me])].node;
  sub.shared_memory = sub.node_memory && std::all_of(st.leaders.begin(), st.leaders.end(), [&](int r) {
    return at[static_cast<std::size_t>(r)].node == node;
  });
  auto link_of = [&](int x, int y) {
    return link_class(topo::distance(at[static_cast<std::size_t>(st.leaders[x])],
                                     at[static_cast<std::size_t>(st.leaders[y])]));
  };
  auto node_of = [&](int x) { return static_cast<int>(at[static_cast<std::size_t>(st.leaders[x])].node); };
  const std::shared_ptr<const Hierarchy> keep = std::move(sub.hierarchy);  // `at` lives in it
  return select_level(op, sub, link_of, node_of);  // some flat one always applies
}

// The flat algorithm for `op` among the step's leaders, with `sub`'s buffers, after `after`. Returns its end.
VertexId level(Operation op, Args sub, const Step& st, int tag_offset, Schedule& s, VertexId after) {
  const Algorithm* algorithm = level_algorithm(op, sub, st);
  const auto first = static_cast<VertexId>(s.vertices().size());
  algorithm->build(sub, s);
  const VertexId before[] = {after};
  return s.embed(first, st.leaders, tag_offset, before);
}

// A flat level among `ranks` (this rank's index `me`), for level().
Step among(const std::vector<int>& ranks, int me) {
  Step st;
  st.leaders = ranks;
  st.me = me;
  return st;
}

// The level whose parts are nodes (below the racks' and switches' levels, where the job has them).
std::size_t node_cut(const Hierarchy& h) {
  std::size_t d = 0;
  while (d < h.levels.size() && h.levels[d].name != topo::short_name(topo::Level::Node)) ++d;
  return d;
}

// The cuts inside a node (packages, caches) pay off between processes that pass messages, but the node's shared
// memory serves all of its processes at once, one write and p-1 reads, which cut levels only repeat level by level:
// a bcast of 8 MiB to 4 processes of "pack:2 core:2" takes 2.7 ms down its 2 levels and 0.64 ms through the node's
// memory, and an allgather of 1 MiB blocks by 8 ranks on 2 such nodes took 14-20 ms (a flat ring 5.8). So where the
// algorithm a level of all the node's processes would run for `op` (with `a`'s message) uses the node's memory, the
// node is one level, flat among its processes in rank order, and the steps end there.
void node_as_one_level(Operation op, const Args& a, int root, std::vector<Step>& st) {
  const Hierarchy& h = *a.hierarchy;
  const std::size_t d = node_cut(h) + 1;  // this rank's node
  if (d >= st.size()) return;
  const std::vector<int>& members = h.levels[d].members;
  auto index = [&](int r) {
    return static_cast<int>(std::find(members.begin(), members.end(), r) - members.begin());
  };
  Step node = among(members, index(a.rank));
  node.members = &members;
  for (int r : members) node.parts.push_back({r});
  node.top = index(leader(members, root));
  Args sub = a;
  if (std::string_view(level_algorithm(op, sub, node)->name).starts_with("shared_memory")) {
    st.resize(d);
    st.push_back(std::move(node));
  }
}

bool same(const Buf& x, const Buf& y) { return x.area == y.area && x.at == y.at; }

// ---- Bcast, Barrier -----------------------------------------------------------------------------------------------

// Down levels [from, to) with `a`'s buffer (recvbuf, recvcount, recvtype).
VertexId bcast_down(const Args& a, const std::vector<Step>& st, std::size_t from, std::size_t to, int tag_offset,
                    Schedule& s, VertexId after) {
  for (std::size_t d = from; d < to; ++d)
    if (st[d].me >= 0) after = level(Operation::kBcast, a, st[d], tag_offset, s, after);
  return after;
}
VertexId bcast_down(const Args& a, const std::vector<Step>& st, std::size_t from, int tag_offset, Schedule& s,
                    VertexId after) {
  return bcast_down(a, st, from, st.size(), tag_offset, s, after);
}

void bcast(const Args& a, Schedule& s) {
  std::vector<Step> st = steps(*a.hierarchy, a.rank, a.root, false);
  node_as_one_level(Operation::kBcast, a, a.root, st);
  bcast_down(a, st, 0, kUp, s, kNoVertex);
}

// ---- Multi-lane bcast ---------------------------------------------------------------------------------------------

// The process of `part` (led by `leader`) that carries the j-th of the part's `sends` across the network: the
// leader, then the part's other processes in rank order, and round again. `relay`: the leader took the data from
// the network itself; while the part's other processes outnumber its sends, they carry them, one each.
int lane(const std::vector<int>& part, int leader, std::size_t j, std::size_t sends, bool relay) {
  const std::size_t i = relay && sends < part.size() ? j + 1 : j % part.size();
  if (i == 0) return leader;
  std::size_t seen = 0;
  for (int r : part)
    if (r != leader && ++seen == i) return r;
  return leader;  // not reached: i < part.size()
}

// The hierarchical bcast with the level across nodes spread over each node's processes (the lanes of Traff and
// Hunold's multi-lane collectives): a binomial tree over the nodes, whose sends between nodes a node spreads over its
// processes (lane()). The root's node's leader sends to its first (largest) child node as soon as it holds the data;
// the node's processes then share the data by the node's own bcast, and its further child nodes each get it from the
// node's next process in rank order. Any other node's leader took the data from the network, and leaves its node's
// sends to the others while they are enough. The tree's depth and its messages across the network are those of the
// hierarchical bcast over a binomial level, but no process sends log2(nodes) of them one after another:
// back-to-back bcasts go at the pace of the busiest sender. 8 ranks on 4 simulated nodes of 2 in block order, us per
// call in a stream (one call alone): 8 B 13.7 (216-361), where the hierarchical bcast takes 16.6, binomial 15.4
// (211-354) and the pipeline 14.0 (339-521); 64 KiB 293-443 where the pipeline takes 297-436 in the same launches
// (319-400 against 302-337 when every leader sent first; one call 3-5 % faster then). A node's lanes cost a hop
// inside the node, which the cost model sees where processors are not shared (model_choice.hpp: the multi-lane bcast
// then comes after the binomial one).
void multi_lane_bcast(const Args& a, Schedule& s) {
  const Hierarchy& h = *a.hierarchy;
  std::vector<Step> st = steps(h, a.rank, a.root, false);
  node_as_one_level(Operation::kBcast, a, a.root, st);
  const std::size_t n = node_cut(h);
  if (n >= st.size()) return bcast(a, s);  // inside one node (where it does not apply): no lanes to spread over
  const VertexId above = bcast_down(a, st, 0, n, kUp, s, kNoVertex);  // the racks' and switches' levels
  const Step& nodes = st[n];
  const int p = static_cast<int>(nodes.parts.size());
  const auto mine = static_cast<std::size_t>(h.levels[n].mine);
  auto part = [&](int vrank) { return static_cast<std::size_t>(absolute(vrank, nodes.top, p)); };
  const TreeNode node = knomial_node(relative(static_cast<int>(mine), nodes.top, p), p, 2);
  const Data data{a.recv_buf(), a.recvcount, a.recvtype};
  VertexId got = above;
  if (nodes.me >= 0 && node.parent >= 0) {  // this node's leader: from the parent node's lane for this node
    const std::size_t parent = part(node.parent);
    const std::vector<Child> siblings = knomial_node(node.parent, p, 2).children;
    const auto j = static_cast<std::size_t>(std::find_if(siblings.begin(), siblings.end(), [&](const Child& c) {
                                              return part(c.vrank) == mine;
                                            }) - siblings.begin());
    got = s.recv(data, lane(nodes.parts[parent], nodes.leaders[parent], j, siblings.size(), node.parent != 0), kUp);
  }
  const std::size_t sends = node.children.size();
  const bool relay = node.parent >= 0;  // not the root's node
  auto send = [&](std::size_t j, VertexId after) {
    s.send(data, nodes.leaders[part(node.children[j].vrank)], kUp, {after});
  };
  // A leader's first send leaves as soon as it holds the data; every other one once the node has it.
  const bool early =
      nodes.me >= 0 && sends > 0 && lane(nodes.parts[mine], nodes.leaders[mine], 0, sends, relay) == a.rank;
  if (early) send(0, got);
  const VertexId held = bcast_down(a, st, n + 1, kUp, s, got);
  for (std::size_t j = early ? 1 : 0; j < sends; ++j)
    if (lane(nodes.parts[mine], nodes.leaders[mine], j, sends, relay) == a.rank) send(j, held);
}

bool multi_lane_applies(const Args& a) { return a.hierarchy != nullptr && a.hierarchy->spans_nodes(); }

void barrier(const Args& a, Schedule& s) {
  const std::vector<Step> st = steps(*a.hierarchy, a.rank, 0, false);
  VertexId done = kNoVertex;
  for (std::size_t d = st.size(); d-- > 0;)
    if (st[d].me >= 0) done = level(Operation::kBarrier, a, st[d], kUp, s, done);
  Args token = a;
  set_recv(token, {s.scratch(1), 1, bytes_type()});
  bcast_down(token, st, 1, kDown, s, done);
}

// ---- Reduce, Allreduce --------------------------------------------------------------------------------------------

// What a rank holds on the way up: its partial result (its group's blocks for a gather), from when, and whether it
// still leads its group at the next level up (false once it has handed its data to its leader).
struct Held {
  Data data;
  VertexId ready = kNoVertex;
  bool leads = true;
};

// Up the levels from the deepest to `stop` (included): each group's leader combines its parts' partial results.
// The leader of level 0's group (the root) puts the result in `result`.
Held reduce_up(const Args& a, const std::vector<Step>& st, std::size_t stop, const Data& result, Schedule& s) {
  Held h{{a.in_place ? a.recv_buf() : a.send_buf(), a.recvcount, a.recvtype}};
  for (std::size_t d = st.size(); d-- > stop;) {
    if (st[d].me < 0) continue;
    const bool root = st[d].me == st[d].top;
    Args sub = a;
    set_send(sub, h.data);
    if (root) set_recv(sub, d == 0 ? result : s.temp(a.recvcount, a.recvtype));
    sub.in_place = root && same(h.data.buf, sub.recv_buf());
    h.ready = level(Operation::kReduce, sub, st[d], kUp, s, h.ready);
    if (!root) {
      h.leads = false;
      return h;
    }
    h.data = {sub.recv_buf(), a.recvcount, a.recvtype};
  }
  return h;
}

bool in_order(const Args& a) { return !a.op->commutative; }

void reduce(const Args& a, Schedule& s) {
  std::vector<Step> st = steps(*a.hierarchy, a.rank, a.root, in_order(a));
  node_as_one_level(Operation::kReduce, a, a.root, st);
  reduce_up(a, st, 0, {a.recv_buf(), a.recvcount, a.recvtype}, s);
}

void allreduce(const Args& a, Schedule& s) {
  std::vector<Step> st = steps(*a.hierarchy, a.rank, 0, in_order(a));
  node_as_one_level(Operation::kReduce, a, 0, st);
  const Data result{a.recv_buf(), a.recvcount, a.recvtype};
  Held h = reduce_up(a, st, 1, result, s);
  if (h.leads) {  // a leader of level 0's parts
    Args sub = a;
    set_send(sub, h.data);
    set_recv(sub, result);
    sub.in_place = same(h.data.buf, result.buf);
    h.ready = level(Operation::kAllreduce, sub, st[0], kUp, s, h.ready);
  }
  bcast_down(a, st, 1, kDown, s, h.ready);
}

// ---- Multi-leader allreduce ---------------------------------------------------------------------------------------

// For long vectors across nodes, where one leader per node would carry all of its node's network traffic and
// reductions alone: each node reduce-scatters the vector among its first L ranks (L: the fewest ranks on any node),
// the i-th ranks of all nodes allreduce slice i side by side, and each node allgathers its slices. Commutative
// operators only: a node's ranks need not be a contiguous run. With a single slice it is the hierarchical one.

void multi_leader_allreduce(const Args& a, Schedule& s) {
  const std::size_t n = a.recvcount;
  if (n == 0) return;
  const std::vector<topo::Placement>& at = a.hierarchy->placements;
  std::map<uint32_t, std::vector<int>> by_node;  // each node's ranks, ascending
  for (int r = 0; r < a.size; ++r) by_node[at[static_cast<std::size_t>(r)].node].push_back(r);
  const uint32_t my_node = at[static_cast<std::size_t>(a.rank)].node;
  const std::vector<int>& mine = by_node[my_node];
  const auto me = static_cast<std::size_t>(std::find(mine.begin(), mine.end(), a.rank) - mine.begin());
  std::size_t slices = n;
  for (const auto& [node, ranks] : by_node) slices = std::min(slices, ranks.size());
  // One slice (one element, or a node of one rank): its node's first rank carries it all, which is the hierarchical
  // allreduce, and a reduce-scatter and allgatherv of one block would only be a slower reduce and bcast (bench/
  // run-topology, 8 B, 2 nodes, ranks scattered: 224 us against 95).
  if (slices == 1) return allreduce(a, s);
  // Slice i of the vector: counts[i] elements from displs[i]; none for the ranks past the first L.
  std::vector<int> counts(mine.size(), 0), displs(mine.size(), 0);
  for (std::size_t i = 0, from = 0; i < slices; from += static_cast<std::size_t>(counts[i++])) {
    counts[i] = static_cast<int>(n / slices + (i < n % slices ? 1 : 0));
    displs[i] = static_cast<int>(from);
  }
  const Data result{a.recv_buf(), n, a.recvtype};
  const Data slice = elements(result, static_cast<std::size_t>(displs[me]), static_cast<std::size_t>(counts[me]));
  const Step on_node = among(mine, static_cast<int>(me));

  Args sub = a;  // reduce-scatter the node's inputs; in place, from a copy, since the slices land in recvbuf
  sub.in_place = false;
  VertexId ready = kNoVertex;
  Data input{a.send_buf(), n, a.sendtype};
  if (a.in_place) {
    input = s.temp(n, a.recvtype);
    ready = s.copy(result, input, {});
  }
  set_send(sub, input);
  set_recv(sub, slice);
  sub.recvcounts = counts;
  ready = level(Operation::kReduceScatter, sub, on_node, kUp, s, ready);

  if (me < slices && by_node.size() > 1) {  // slice `me` with the same slice of every other node
    std::vector<int> peers;  // rank `me` of each node
    int at_mine = 0;
    for (const auto& [node, ranks] : by_node) {
      if (node == my_node) at_mine = static_cast<int>(peers.size());
      peers.push_back(ranks[me]);
    }
    sub = a;
    sub.in_place = true;
    set_recv(sub, slice);
    ready = level(Operation::kAllreduce, sub, among(peers, at_mine), kUp, s, ready);
  }

  sub = a;
  sub.in_place = true;
  set_recv(sub, result);
  sub.recvcounts = counts;
  sub.rdispls = displs;
  level(Operation::kAllgatherv, sub, on_node, kDown, s, ready);
}

bool multi_leader_applies(const Args& a) { return a.hierarchy != nullptr && a.op != nullptr && a.op->commutative; }

// ---- Gather, Scatter, Allgather -----------------------------------------------------------------------------------

// A group's blocks as its leader holds them: `block` bytes per rank, in some order of its ranks.
Data blocks(const Buf& at, std::size_t ranks, std::size_t block) { return {at, ranks * block, bytes_type()}; }
Data block_at(const Data& blocks, std::size_t i, std::size_t block) { return elements(blocks, i * block, block); }

// A step's gatherv / scatterv layout: each leader's whole part, parts one after the other.
void part_layout(const Step& st, std::size_t block, std::vector<int>& counts, std::vector<int>& displs) {
  int at = 0;
  for (const std::vector<int>& part : st.parts) {
    counts.push_back(static_cast<int>(part.size() * block));
    displs.push_back(at);
    at += counts.back();
  }
}

// For each rank in part order, its position in the group's rank order.
std::vector<std::size_t> rank_positions(const Step& st) {
  const std::vector<int>& members = *st.members;
  std::vector<std::size_t> to;
  for (const std::vector<int>& part : st.parts)
    for (int r : part)
      to.push_back(static_cast<std::size_t>(std::lower_bound(members.begin(), members.end(), r) - members.begin()));
  return to;
}

bool in_rank_order(const std::vector<std::size_t>& positions) {
  for (std::size_t i = 0; i < positions.size(); ++i)
    if (positions[i] != i) return false;
  return true;
}

// Up the levels from the deepest to `stop` (included): each group's leader gathers its parts' blocks and puts
// them in the rank order of its group.
Held gather_up(const Args& a, const std::vector<Step>& st, std::size_t stop, const Data& mine, std::size_t block,
               Schedule& s) {
  Held h{mine};
  for (std::size_t d = st.size(); d-- > stop;) {
    if (st[d].me < 0) continue;
    const bool root = st[d].me == st[d].top;
    const std::size_t ranks = st[d].members->size();
    Args sub = a;
    sub.in_place = false;
    set_send(sub, h.data);
    const Data by_part = root ? blocks(s.scratch(ranks * block), ranks, block) : Data{};
    if (root) {
      set_recv(sub, {by_part.buf, 0, bytes_type()});
      part_layout(st[d], block, sub.recvcounts, sub.rdispls);
    }
    h.ready = level(Operation::kGatherv, sub, st[d], kUp, s, h.ready);
    if (!root) {
      h.leads = false;
      return h;
    }
    h.data = by_part;
    const std::vector<std::size_t> to = rank_positions(st[d]);
    if (in_rank_order(to)) continue;
    h.data = blocks(s.scratch(ranks * block), ranks, block);
    std::vector<VertexId> copies;
    for (std::size_t i = 0; i < to.size(); ++i)
      copies.push_back(s.copy(block_at(by_part, i, block), block_at(h.data, to[i], block), {h.ready}));
    h.ready = s.join(copies);
  }
  return h;
}

// This rank's block (and its bytes): the send side, or its place in recvbuf when in place (only a gather's root
// reads its in_place).
Data own_block(const Args& a, bool in_place, std::size_t& block) {
  if (!in_place) {
    block = a.sendcount * a.sendtype->size;
    return {a.send_buf(), a.sendcount, a.sendtype};
  }
  block = a.recvcount * a.recvtype->size;
  return elements({a.recv_buf(), 0, a.recvtype}, static_cast<std::size_t>(a.rank) * a.recvcount, a.recvcount);
}

// Rank r's block of recvbuf (recvcount elements of recvtype at r x recvcount).
Data recv_block(const Args& a, int r) {
  return elements({a.recv_buf(), 0, a.recvtype}, static_cast<std::size_t>(r) * a.recvcount, a.recvcount);
}

// Whether the v-variants' int counts and displacements hold `per_rank` (a block's elements or bytes) for `ranks`.
bool fits_int_counts(std::size_t per_rank, std::size_t ranks) {
  return per_rank <= static_cast<std::size_t>(INT_MAX) / ranks;
}

// Whether every part of every level from `from` down is a run of consecutive ranks (block order; below the top, a
// node that is one level, of single ranks): each part's blocks are then one region of recvbuf, which a gatherv can
// fill in place. `per_rank` (a block's elements or bytes) bounds the v-variants' int counts.
bool parts_are_runs(const std::vector<Step>& st, std::size_t per_rank, std::size_t from = 0) {
  return std::all_of(st.begin() + static_cast<std::ptrdiff_t>(from), st.end(),
                     [](const Step& step) { return parts_run(step.parts); }) &&
         fits_int_counts(per_rank, st[0].members->size());
}

// Blocks i = 0, 1, ... of `from` (`block` bytes each) into their places in recvbuf, the i-th to ranks[i]'s, after
// `after`. Returns when all are there.
VertexId put_in_place(const Args& a, const Data& from, std::size_t block, const std::vector<int>& ranks,
                      VertexId after, Schedule& s) {
  std::vector<VertexId> copies;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    copies.push_back(s.copy(block_at(from, i, block), recv_block(a, ranks[i]), {after}));
  return s.join(copies);
}

// `part`'s region of recvbuf: its ranks' blocks, in elements of recvtype.
void add_region(const Args& a, const std::vector<int>& part, std::vector<int>& counts, std::vector<int>& displs) {
  counts.push_back(static_cast<int>(part.size() * a.recvcount));
  displs.push_back(static_cast<int>(static_cast<std::size_t>(part.front()) * a.recvcount));
}

void gather(const Args& a, Schedule& s) {
  std::size_t block = 0;
  const Data mine = own_block(a, a.in_place && a.rank == a.root, block);
  const std::vector<Step> st = steps(*a.hierarchy, a.rank, a.root, false);
  if (parts_are_runs(st, block)) {  // the last level straight into the root's recvbuf, each part to its region
    const Held h = gather_up(a, st, 1, mine, block, s);
    if (!h.leads) return;
    Args sub = a;
    set_send(sub, h.data);
    sub.in_place = a.rank == a.root && same(h.data.buf, mine.buf) && a.in_place;  // its own block, in place
    if (a.rank == a.root)
      for (const std::vector<int>& part : st[0].parts) add_region(a, part, sub.recvcounts, sub.rdispls);
    level(Operation::kGatherv, sub, st[0], kUp, s, h.ready);
    return;
  }
  const Held h = gather_up(a, st, 0, mine, block, s);
  if (a.rank != a.root) return;
  // Level 0's group is the whole communicator: its rank order is recvbuf's.
  put_in_place(a, h.data, block, *st[0].members, h.ready, s);
}

// The top leaders' exchange block by block, where their parts are not runs (blockwise_exchange): each sends its
// part's blocks to every other leader and receives theirs, from and into their places in recvbuf. Two leaders talk
// at this level only, so a block's tag is its index in its part. `ready`: this leader's own part is in place.
// Returns when every block is in place: its own part too, since the receives wait for nothing and may all finish
// first.
VertexId exchange_blocks(const Args& a, const Step& st, Schedule& s, VertexId ready) {
  std::vector<VertexId> arrived{ready};
  const VertexId after[] = {ready};
  const std::vector<int>& mine = st.parts[static_cast<std::size_t>(st.me)];
  for (std::size_t l = 0; l < st.leaders.size(); ++l) {
    if (static_cast<int>(l) == st.me) continue;
    for (std::size_t i = 0; i < mine.size(); ++i)
      s.send(recv_block(a, mine[i]), st.leaders[l], kUp + static_cast<int>(i), after);
    for (std::size_t i = 0; i < st.parts[l].size(); ++i)
      arrived.push_back(s.recv(recv_block(a, st.parts[l][i]), st.leaders[l], kUp + static_cast<int>(i)));
  }
  return s.join(arrived);
}

// Whether the top leaders exchange block by block (exchange_blocks): where their parts are not runs (scattered
// ranks), for large blocks, and up to 8 leaders, so that (leaders - 1) x part messages each stay few. Each leader
// first puts its part's blocks in their places in recvbuf. Otherwise it gathers its part into scratch, exchanges the
// parts into more scratch, and copies every block into place: with 1 MiB blocks, 48 MiB of copies per node where
// block order makes 35. 8 ranks on 2 simulated nodes, ranks scattered, us by scratch / block by block: 64 KiB 236 /
// 339, 128 KiB 484 / 501, 256 KiB 1041 / 804, 1 MiB 6046 / 4337. Decided from the top level alone, which every top
// leader sees alike.
bool blockwise_exchange(const Args& a, const Step& top) {
  constexpr std::size_t kLeastBlock = std::size_t{256} << 10;
  constexpr std::size_t kMostLeaders = 8;
  auto fits_tags = [](const std::vector<int>& part) { return part.size() <= static_cast<std::size_t>(kHalf); };
  return !parts_run(top.parts) && top.leaders.size() <= kMostLeaders &&
         std::all_of(top.parts.begin(), top.parts.end(), fits_tags) && a.recvcount * a.recvtype->size >= kLeastBlock &&
         fits_int_counts(a.recvcount, static_cast<std::size_t>(a.size));
}

// Allgather with parts that are runs: each leader gathers its part into its part's region of recvbuf (a gatherv
// whose displacements are the ranks' places), the top leaders exchange their regions there (an allgatherv in place,
// or block by block where the top level's parts are not runs), and the whole recvbuf goes down. No scratch and no
// reordering copies, which the model does not see but which cost a fifth of the time at 1 MiB blocks (8 ranks on 2
// simulated nodes: 10.8-13.2 ms with them, 8.6-11.7 without).
// `all_blocks`: `a` with every rank's block as one receive count (what the way down carries).
void allgather_in_place(const Args& a, const Args& all_blocks, const std::vector<Step>& st, Schedule& s) {
  VertexId ready = kNoVertex;
  bool gathered = false;  // this rank led a gather: its part is in its recvbuf
  for (std::size_t d = st.size(); d-- > 0;) {
    const Step& step = st[d];
    if (step.me < 0) continue;
    if (d == 0 && !parts_run(step.parts)) {
      if (!gathered && !a.in_place) ready = s.copy({a.send_buf(), a.sendcount, a.sendtype}, recv_block(a, a.rank));
      ready = exchange_blocks(a, step, s, ready);
      break;
    }
    const bool root = step.me == step.top || d == 0;
    Args sub = a;
    const std::vector<int>& mine = step.parts[static_cast<std::size_t>(step.me)];
    sub.in_place = root && (gathered || a.in_place);
    if (!sub.in_place && gathered)  // its part's region
      set_send(sub, elements({a.recv_buf(), 0, a.recvtype}, static_cast<std::size_t>(mine.front()) * a.recvcount,
                             mine.size() * a.recvcount));
    else if (!sub.in_place && a.in_place)  // its own block, in place (else sendbuf as called)
      set_send(sub, recv_block(a, a.rank));
    if (root)
      for (const std::vector<int>& part : step.parts) add_region(a, part, sub.recvcounts, sub.rdispls);
    ready = level(d == 0 ? Operation::kAllgatherv : Operation::kGatherv, sub, step, kUp, s, ready);
    if (!root) break;
    gathered = true;
  }
  bcast_down(all_blocks, st, 1, kDown, s, ready);
}

void allgather(const Args& a, Schedule& s) {
  std::vector<Step> st = steps(*a.hierarchy, a.rank, 0, false);
  Args all_blocks = a;  // what the way down carries
  all_blocks.recvcount = a.recvcount * static_cast<std::size_t>(a.size);
  node_as_one_level(Operation::kBcast, all_blocks, 0, st);
  const bool blockwise = blockwise_exchange(a, st[0]);
  // Blockwise, only the levels below the top need be runs: this rank's leaders then gather straight into place.
  if (parts_are_runs(st, a.recvcount, blockwise ? 1 : 0))
    return allgather_in_place(a, all_blocks, st, s);
  std::size_t block = 0;
  const Data mine = own_block(a, a.in_place, block);
  Held h = gather_up(a, st, 1, mine, block, s);
  if (h.leads && blockwise) {  // its group's blocks (in its rank order) into their places, then the exchange
    h.ready = exchange_blocks(a, st[0], s, put_in_place(a, h.data, block, *st[1].members, h.ready, s));
  } else if (h.leads) {  // a leader of level 0's parts: exchange the parts, then put every block in place
    const std::size_t ranks = static_cast<std::size_t>(a.size);
    const Data by_part = blocks(s.scratch(ranks * block), ranks, block);
    Args sub = a;
    sub.in_place = false;
    set_send(sub, h.data);
    set_recv(sub, {by_part.buf, 0, bytes_type()});
    part_layout(st[0], block, sub.recvcounts, sub.rdispls);
    h.ready = level(Operation::kAllgatherv, sub, st[0], kUp, s, h.ready);
    std::vector<int> in_part_order;
    for (const std::vector<int>& part : st[0].parts)
      in_part_order.insert(in_part_order.end(), part.begin(), part.end());
    h.ready = put_in_place(a, by_part, block, in_part_order, h.ready, s);
  }
  bcast_down(all_blocks, st, 1, kDown, s, h.ready);
}

// Down the levels from the root: each group's leader hands each part its blocks, in the part's rank order. Where a
// group's parts follow its rank order (block order), the leader sends straight from where the blocks are (the root's
// sendbuf, a sub-leader's scratch), and the root keeps its own part in its sendbuf (sent to itself in place); else it
// first copies them into part order.
void scatter(const Args& a, Schedule& s) {
  const std::vector<Step> st = steps(*a.hierarchy, a.rank, a.root, false);
  const bool at_root = a.rank == a.root;
  const std::size_t block = at_root ? a.sendcount * a.sendtype->size : a.recvcount * a.recvtype->size;
  // The blocks of the group this rank leads, in its rank order, `unit` elements each: the root's sendbuf at first.
  Data by_rank{a.send_buf(), 0, a.sendtype};
  std::size_t unit = a.sendcount;
  VertexId ready = kNoVertex;
  for (std::size_t d = 0; d < st.size(); ++d) {
    if (st[d].me < 0) continue;
    const bool root = st[d].me == st[d].top;
    const std::vector<int>& mine = st[d].parts[static_cast<std::size_t>(st[d].me)];
    Args sub = a;
    sub.in_place = false;
    bool kept = false;  // this rank's part stays where its blocks are
    if (root) {
      const std::vector<std::size_t> from = rank_positions(st[d]);
      if (in_rank_order(from)) {
        set_send(sub, by_rank);
        part_layout(st[d], unit, sub.sendcounts, sub.sdispls);
        const auto me = static_cast<std::size_t>(st[d].me);
        kept = mine.size() > 1;
        if (kept) by_rank = elements(by_rank, static_cast<std::size_t>(sub.sdispls[me]), mine.size() * unit);
      } else {  // put the blocks in part order
        const std::size_t ranks = st[d].members->size();
        const Data by_part = blocks(s.scratch(ranks * block), ranks, block);
        std::vector<VertexId> copies;
        for (std::size_t i = 0; i < from.size(); ++i)
          copies.push_back(s.copy(elements(by_rank, from[i] * unit, unit), block_at(by_part, i, block), {ready}));
        ready = s.join(copies);
        set_send(sub, {by_part.buf, 0, bytes_type()});
        part_layout(st[d], block, sub.sendcounts, sub.sdispls);
      }
    }
    if (kept) {
      sub.in_place = true;
    } else if (mine.size() > 1) {
      by_rank = blocks(s.scratch(mine.size() * block), mine.size(), block);
      unit = block;
      set_recv(sub, by_rank);
    } else if (at_root && a.in_place) {
      sub.in_place = true;  // the root's own block stays in its sendbuf
    }
    ready = level(Operation::kScatterv, sub, st[d], kUp, s, ready);
    if (mine.size() == 1) return;
  }
}

bool has_hierarchy(const Args& a) { return a.hierarchy != nullptr; }

constexpr Algorithm kAlgorithms[] = {
    {Operation::kBarrier, "hierarchical", barrier, has_hierarchy, true},
    {Operation::kBcast, "hierarchical", bcast, has_hierarchy, true},
    {Operation::kBcast, "multi_lane", multi_lane_bcast, multi_lane_applies, true},
    {Operation::kGather, "hierarchical", gather, has_hierarchy, true},
    {Operation::kScatter, "hierarchical", scatter, has_hierarchy, true},
    {Operation::kAllgather, "hierarchical", allgather, has_hierarchy, true},
    {Operation::kReduce, "hierarchical", reduce, has_hierarchy, true},
    {Operation::kAllreduce, "hierarchical", allreduce, has_hierarchy, true},
    {Operation::kAllreduce, "multi_leader", multi_leader_allreduce, multi_leader_applies, true},
};

}  // namespace

std::span<const Algorithm> hierarchical_algorithms() { return kAlgorithms; }

}  // namespace strata::coll
