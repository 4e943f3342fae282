// The rooted family: barrier, bcast, gather(v) and scatter(v) as schedule builders, and their registry table.
// Trees are built over ranks relative to the root (vrank = (rank - root) mod p), so every root uses the same shapes.
//
// Costs (alpha-beta model; p ranks, n bytes: the whole buffer for bcast, one rank's block for gather/scatter):
//   barrier   linear              2(p-1) alpha at rank 0
//   barrier   dissemination       ceil(log2 p) alpha
//   barrier   recursive_doubling  (log2 p' + 2) alpha, p' the largest power of two <= p (+2 for the fold)
//   barrier   shared_memory       2 (write + read), p-1 reads at rank 0 (Args::shared_memory)
//   bcast     linear              (p-1)(alpha + n beta) at the root
//   bcast     binomial            ceil(log2 p)(alpha + n beta)
//   bcast     knomial             (k-1) ceil(log_k p)(alpha + n beta)
//   bcast     pipeline            (p + S - 2)(alpha + n/S beta), S segments of segment_bytes
//   bcast     scatter_allgather   (log2 p + p - 1) alpha + 2 (p-1)/p n beta   (van de Geijn)
//   bcast     shared_memory       one write of n bytes, then p-1 reads of them, side by side (Args::shared_memory)
//   gather    linear              (p-1)(alpha + n beta) at the root          (gatherv, scatter, scatterv: the same)
//   gather    binomial            ceil(log2 p) alpha + (p-1) n beta          (scatter: the same)
#include <algorithm>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/algorithms/trees.hpp"
#include "coll/node_segment.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"

namespace strata::coll {
namespace {

// ---- Pattern maths: who talks to whom, apart from any data (and trees.hpp) ---------------------------------------

// The blocks of vranks [first, first + n) lie in the root's buffer by rank: one run of ranks, or two when the range
// passes rank p - 1 and continues at rank 0. `offset` is the run's first block within the range.
struct Run {
  int offset;
  int rank;
  int n;
};
std::vector<Run> runs_by_rank(int first, int n, int root, int p) {
  const int start = absolute(first, root, p);
  if (start + n <= p) return {{0, start, n}};
  return {{0, start, p - start}, {p - start, 0, n - (p - start)}};
}

// ---- Data helpers -------------------------------------------------------------------------------------------------

bool empty(const Data& d) { return d.count == 0 || d.type->size == 0; }
Data send_data(const Args& a) { return {a.send_buf(), a.sendcount, a.sendtype}; }
Data recv_data(const Args& a) { return {a.recv_buf(), a.recvcount, a.recvtype}; }  // bcast's buffer too

// A zero-byte message: a barrier's only content is that it arrived.
Data token() {
  static const char nothing = 0;
  return {Buf::user(&nothing), 0, datatype::predefined(datatype::kByte)};
}

// ---- Barrier ------------------------------------------------------------------------------------------------------

// Everyone reports to rank 0, which releases everyone once all have reported.
void barrier_linear(const Args& a, Schedule& s) {
  if (a.rank != 0) {
    s.send(token(), 0, 0);
    s.recv(token(), 0, 0);
    return;
  }
  std::vector<VertexId> arrived;
  for (int r = 1; r < a.size; ++r) arrived.push_back(s.recv(token(), r, 0));
  const VertexId all = s.join(arrived);
  for (int r = 1; r < a.size; ++r) s.send(token(), r, 0, {all});
}

// Hensgen, Finkel, Manber 1988: in round k, tell rank + 2^k and hear from rank - 2^k; after ceil(log2 p) rounds every
// rank has heard, transitively, from every other. A round's send waits for every earlier round's news.
void barrier_dissemination(const Args& a, Schedule& s) {
  VertexId heard = kNoVertex;  // every receive so far: what a round passes on is all the rank has heard
  for (int round = 0, d = 1; d < a.size; ++round, d *= 2) {
    s.send(token(), (a.rank + d) % a.size, round, {heard});
    const VertexId got = s.recv(token(), (a.rank - d + a.size) % a.size, round);
    heard = heard == kNoVertex ? got : s.join({heard, got});
  }
}

// Pairwise exchanges with partner newrank ^ 2^k among the largest power of two p' <= p. The first 2(p - p') ranks
// fold in pairs beforehand (the even one reports to the odd one and sits out) and are released afterwards.
void barrier_recursive_doubling(const Args& a, Schedule& s) {
  const int p = a.size, r = a.rank;
  int pof2 = 1, rounds = 0;
  while (pof2 * 2 <= p) pof2 *= 2, ++rounds;
  const int rem = p - pof2;
  const int kFold = 0, kRelease = rounds + 1;  // exchange round k uses tag k + 1
  if (r < 2 * rem && r % 2 == 0) {
    s.send(token(), r + 1, kFold);
    s.recv(token(), r + 1, kRelease);
    return;
  }
  VertexId heard = r < 2 * rem ? s.recv(token(), r - 1, kFold) : kNoVertex;
  const int newrank = r < 2 * rem ? r / 2 : r - rem;
  for (int k = 0; k < rounds; ++k) {
    const int partner_new = newrank ^ (1 << k);
    const int partner = partner_new < rem ? 2 * partner_new + 1 : partner_new + rem;
    s.send(token(), partner, k + 1, {heard});
    const VertexId got = s.recv(token(), partner, k + 1);
    heard = heard == kNoVertex ? got : s.join({heard, got});
  }
  if (r < 2 * rem) s.send(token(), r - 1, kRelease, {heard});
}

// Through the node's shared memory, by way of rank 0 (as MPICH's release-gather barrier): each rank leaves a token
// for rank 0, which takes them all and then leaves one token for everyone. One read a rank, p-1 at rank 0.
// Rank 0 leaves first, so a rooted call from rank 0 after the barrier (IMB's and OSU's loops: the call is timed on
// each rank, then a barrier) finds its leaves arriving after its data. Where every rank took every other's token
// (one hop where this takes two), the last rank to arrive left first and waited in the call for a root that the
// scheduler had not run yet. 2026-11-29, 4 / 8 ranks on 2 processors, us: a loop of a timed 8-byte bcast and a
// barrier, bcast per rank 0.43-0.51 / 0.35-0.84 (was 0.4-8.5 / 0.5-25.6; Open MPI 0.24-6.3), the whole loop
// 8.7-11.0 / 20-28.6 (was 8.9-11.1 / 25-31.8); IMB-MPI1 Bcast 8 B t_avg 0.42-0.47 / 0.29-0.42 (was 2.7-3.2 /
// 5.6-8.6; Open MPI 0.93-1.04 / 12.8-17.9), Scatter 0.51-0.63 / 4.1-8.3 (3.6-4.6 / 10-22). The cost is a second
// hop: back-to-back barriers take 6.0-8.9 / 14.6-23.3 (were 3.7-5.4 / 16.3-24.0; Open MPI 5.0-7.0 / 18.8-21.0).
void barrier_shared_memory(const Args& a, Schedule& s) {
  if (a.size == 1) return;
  if (a.rank != 0) {
    s.publish(token(), {0}, 0);
    s.read(token(), 0, all_ranks_but(0, a.size), 1);
    return;
  }
  std::vector<VertexId> arrived;
  for (int r = 1; r < a.size; ++r) arrived.push_back(s.read(token(), r, {0}, 0));
  s.publish(token(), all_ranks_but(0, a.size), 1, arrived);
}

// ---- Bcast --------------------------------------------------------------------------------------------------------

// The whole buffer down a k-nomial tree: receive from the parent, then forward to the children.
void bcast_tree(const Args& a, Schedule& s, int k) {
  const Data all = recv_data(a);
  if (empty(all)) return;
  const int p = a.size;
  const TreeNode node = knomial_node(relative(a.rank, a.root, p), p, k);
  const VertexId got = node.parent < 0 ? kNoVertex : s.recv(all, absolute(node.parent, a.root, p), 0);
  for (const Child& c : node.children) s.send(all, absolute(c.vrank, a.root, p), 0, {got});
}

// A p-nomial tree is the flat one: the root sends to everyone.
void bcast_linear(const Args& a, Schedule& s) { bcast_tree(a, s, std::max(a.size, 2)); }
void bcast_binomial(const Args& a, Schedule& s) { bcast_tree(a, s, 2); }
void bcast_knomial(const Args& a, Schedule& s) { bcast_tree(a, s, a.radix >= 2 ? a.radix : 4); }

// Down the chain root, root + 1, ... in segments: segment j leaves a rank as soon as it has arrived there, so after
// p - 1 steps of fill every link carries a segment at once.
//
//   step:      1    2    3    4    5
//   v0 -> v1   s0   s1   s2
//   v1 -> v2        s0   s1   s2
//   v2 -> v3             s0   s1   s2
void pipeline_on(const Args& a, Schedule& s, const Data& all, VertexId start) {
  const int p = a.size, vrank = relative(a.rank, a.root, p);
  const std::size_t bytes = a.segment_bytes > 0 ? a.segment_bytes : 64 * 1024;
  // Bytes per segment (bcast_bytes hands over the packed bytes); a huge buffer gets larger segments rather than more
  // segments than there are tags (reusing one while its first message may be in flight could mismatch them).
  const std::size_t tags = static_cast<std::size_t>(tag_limit(a));
  const std::size_t per_segment = std::max({std::size_t{1}, bytes / all.type->size, (all.count + tags - 1) / tags});
  int segment = 0;  // the tag: the receiver posts every segment's receive at once
  for (std::size_t first = 0; first < all.count; first += per_segment, ++segment) {
    const Data part = elements(all, first, std::min(per_segment, all.count - first));
    const VertexId got = vrank == 0 ? start : s.recv(part, absolute(vrank - 1, a.root, p), segment);
    if (vrank + 1 < p) s.send(part, absolute(vrank + 1, a.root, p), segment, {got});
  }
}

// Van de Geijn (Barnett et al. 1994): a binomial scatter of p blocks of ceil(count / p) elements (the last ones short
// or empty), then a ring allgather. Each rank already holds its scatter subtree's blocks, so the ring skips those:
// the left neighbour knows the tree too and does not send them. Tags: 0 the scatter, 1 + step the ring.
void scatter_allgather_on(const Args& a, Schedule& s, const Data& all, VertexId start) {
  const int p = a.size, vrank = relative(a.rank, a.root, p);
  const std::size_t piece = (all.count + p - 1) / p;
  auto blocks = [&](int first, int n) {  // vrank blocks [first, first + n) of the buffer
    const std::size_t from = std::min(all.count, first * piece), to = std::min(all.count, (first + n) * piece);
    return elements(all, from, to - from);
  };
  const TreeNode node = knomial_node(vrank, p, 2);
  const Data mine = blocks(vrank, node.span);
  const VertexId got = node.parent < 0 ? start
                        : empty(mine)     ? kNoVertex
                                          : s.recv(mine, absolute(node.parent, a.root, p), 0);
  for (const Child& c : node.children)
    if (const Data theirs = blocks(c.vrank, c.span); !empty(theirs))
      s.send(theirs, absolute(c.vrank, a.root, p), 0, {got});

  const int right = (vrank + 1) % p, left = (vrank - 1 + p) % p;
  const int right_span = knomial_node(right, p, 2).span;
  std::vector<VertexId> ready(p, kNoVertex);  // the vertex after which block b is here
  for (int b = vrank; b < vrank + node.span; ++b) ready[b] = got;
  for (int step = 0; step < p - 1; ++step) {
    const int out = (vrank - step + p) % p, in = (vrank - step - 1 + p) % p;
    if (const Data d = blocks(out, 1); !empty(d) && !(out >= right && out < right + right_span))
      s.send(d, absolute(right, a.root, p), step + 1, {ready[out]});
    if (const Data d = blocks(in, 1); !empty(d) && !(in >= vrank && in < vrank + node.span))
      ready[in] = s.recv(d, absolute(left, a.root, p), step + 1);
  }
}

// Segmenting broadcasts cut the buffer into pieces. Ranks may describe the same bytes with different types (MPI asks
// only for matching signatures), so the pieces are cut from the packed bytes, alike on every rank: a contiguous
// layout is cut in place as bytes; any other is packed into scratch at the root first and unpacked at the others last.
template <void (*Body)(const Args&, Schedule&, const Data&, VertexId)>
void bcast_bytes(const Args& a, Schedule& s) {
  const Data all = recv_data(a);
  if (empty(all)) return;
  const datatype::TypeRef bytes = datatype::predefined(datatype::kByte);
  const std::size_t n = datatype::wire_bytes(*all.type, all.count);
  if (datatype::contiguous(*all.type, all.count)) {
    Body(a, s, {all.buf + all.type->true_lb, n, bytes}, kNoVertex);
    return;
  }
  const Data packed = s.temp(n, bytes);
  const bool root = a.rank == a.root;
  const VertexId start = root ? s.copy(all, packed) : kNoVertex;
  const auto first = static_cast<VertexId>(s.vertices().size());
  Body(a, s, packed, start);
  if (root) return;
  std::vector<VertexId> body;
  for (auto v = first; v < static_cast<VertexId>(s.vertices().size()); ++v) body.push_back(v);
  s.copy(packed, all, {s.join(body)});
}

// The root writes the buffer into its node area, chunk by chunk, and every other rank reads each chunk from there:
// one copy in and one copy out per reader, where a message costs two (into the shared ring, out of it). Each chunk
// goes to the root's next area (node_segment.hpp), so the root writes ahead while the readers take the earlier ones.
void shared_memory_on(const Args& a, Schedule& s, const Data& all, VertexId start) {
  const std::vector<int> readers = all_ranks_but(a.root, a.size);
  VertexId last = start;
  int chunk = 0;  // the tag
  for (std::size_t first = 0; first < all.count; first += NodeSegment::kBlockBytes, ++chunk) {
    const Data part = elements(all, first, std::min(NodeSegment::kBlockBytes, all.count - first));
    const VertexId after[] = {last};
    last = a.rank == a.root ? s.publish(part, readers, chunk, after) : s.read(part, a.root, readers, chunk, after);
  }
}

// Each chunk needs a tag of its own.
bool shared_memory_fits(const Args& a) {
  if (!shares_node_memory(a) || !a.recvtype) return false;
  const std::size_t bytes = a.recvcount * a.recvtype->size;
  return (bytes + NodeSegment::kBlockBytes - 1) / NodeSegment::kBlockBytes <= static_cast<std::size_t>(tag_limit(a));
}

void bcast_pipeline(const Args& a, Schedule& s) { bcast_bytes<pipeline_on>(a, s); }
void bcast_shared_memory(const Args& a, Schedule& s) { bcast_bytes<shared_memory_on>(a, s); }
void bcast_scatter_allgather(const Args& a, Schedule& s) { bcast_bytes<scatter_allgather_on>(a, s); }

// ---- Gather, Scatter ----------------------------------------------------------------------------------------------

// Where the root's blocks lie: ranks [first, first + n) at first * count in a Gather's recvbuf or a Scatter's
// sendbuf, or one rank's block at its displacement in the v variants.
Data at(const Buf& buf, const datatype::TypeRef& type, std::ptrdiff_t displacement, std::size_t count) {
  return {buf + displacement * type->extent(), count, type};
}
Data gather_blocks(const Args& a, int first, int n) {
  return at(a.recv_buf(), a.recvtype, static_cast<std::ptrdiff_t>(first * a.recvcount), n * a.recvcount);
}
Data scatter_blocks(const Args& a, int first, int n) {
  return at(a.send_buf(), a.sendtype, static_cast<std::ptrdiff_t>(first * a.sendcount), n * a.sendcount);
}
Data gather_block(const Args& a, int r) { return gather_blocks(a, r, 1); }
Data scatter_block(const Args& a, int r) { return scatter_blocks(a, r, 1); }
Data gatherv_block(const Args& a, int r) { return at(a.recv_buf(), a.recvtype, a.rdispls[r], a.recvcounts[r]); }
Data scatterv_block(const Args& a, int r) { return at(a.send_buf(), a.sendtype, a.sdispls[r], a.sendcounts[r]); }

// Rank r's block goes straight to or from the root; the root's own block is copied unless it is in place.
template <class Block>
void gather_linear_with(const Args& a, Schedule& s, Block block) {
  if (a.rank != a.root) {
    if (const Data mine = send_data(a); !empty(mine)) s.send(mine, a.root, 0);
    return;
  }
  for (int r = 0; r < a.size; ++r) {
    const Data to = block(a, r);
    if (empty(to) || (r == a.root && a.in_place)) continue;
    if (r == a.root) s.copy(send_data(a), to);
    else s.recv(to, r, 0);
  }
}

template <class Block>
void scatter_linear_with(const Args& a, Schedule& s, Block block) {
  if (a.rank != a.root) {
    if (const Data mine = recv_data(a); !empty(mine)) s.recv(mine, a.root, 0);
    return;
  }
  for (int r = 0; r < a.size; ++r) {
    const Data from = block(a, r);
    if (empty(from) || (r == a.root && a.in_place)) continue;
    if (r == a.root) s.copy(from, recv_data(a));
    else s.send(from, r, 0);
  }
}

void gather_linear(const Args& a, Schedule& s) { gather_linear_with(a, s, gather_block); }
void gatherv_linear(const Args& a, Schedule& s) { gather_linear_with(a, s, gatherv_block); }
void scatter_linear(const Args& a, Schedule& s) { scatter_linear_with(a, s, scatter_block); }
void scatterv_linear(const Args& a, Schedule& s) { scatter_linear_with(a, s, scatterv_block); }

// The root's side of a binomial gather or scatter: one message per child subtree (two when its ranks wrap past
// p - 1; the run index is the tag), straight into or out of the user buffer in rank order.
template <class Move>
void binomial_root(const Args& a, const TreeNode& node, Move move) {
  for (const Child& c : node.children) {
    const std::vector<Run> runs = runs_by_rank(c.vrank, c.span, a.root, a.size);
    for (std::size_t i = 0; i < runs.size(); ++i)
      move(absolute(c.vrank, a.root, a.size), static_cast<int>(i), runs[i].rank, runs[i].n);
  }
}

// The runs a non-root exchanges with its parent: offsets into its subtree's blocks, split as the root splits them.
std::vector<Run> runs_to_parent(const Args& a, const TreeNode& node, int vrank) {
  if (node.parent == 0) return runs_by_rank(vrank, node.span, a.root, a.size);
  return {{0, 0, node.span}};
}

// Interior ranks collect their subtree's blocks in scratch laid out like sendcount x sendtype per rank (recvtype is
// only significant at the root), own block first, and pass them up in one message.
void gather_binomial(const Args& a, Schedule& s) {
  const int p = a.size, vrank = relative(a.rank, a.root, p);
  const TreeNode node = knomial_node(vrank, p, 2);
  if (vrank == 0) {
    if (empty(gather_block(a, a.root))) return;
    if (!a.in_place) s.copy(send_data(a), gather_block(a, a.root));
    binomial_root(a, node, [&](int child, int tag, int rank, int n) {
      s.recv(gather_blocks(a, rank, n), child, tag);
    });
    return;
  }
  const Data mine = send_data(a);
  if (empty(mine)) return;
  Data up = mine;
  std::vector<VertexId> parts;
  if (!node.children.empty()) {
    up = s.temp(node.span * a.sendcount, a.sendtype);
    parts.push_back(s.copy(mine, elements(up, 0, a.sendcount)));
    for (const Child& c : node.children)
      parts.push_back(s.recv(elements(up, (c.vrank - vrank) * a.sendcount, c.span * a.sendcount),
                             absolute(c.vrank, a.root, p), 0));
  }
  const VertexId collected = parts.empty() ? kNoVertex : s.join(parts);
  const std::vector<Run> runs = runs_to_parent(a, node, vrank);
  for (std::size_t i = 0; i < runs.size(); ++i)
    s.send(elements(up, runs[i].offset * a.sendcount, runs[i].n * a.sendcount), absolute(node.parent, a.root, p),
           static_cast<int>(i), {collected});
}

// The mirror image: interior ranks receive their subtree's blocks into scratch (recvcount x recvtype per rank), hand
// each child its part and keep the first block.
void scatter_binomial(const Args& a, Schedule& s) {
  const int p = a.size, vrank = relative(a.rank, a.root, p);
  const TreeNode node = knomial_node(vrank, p, 2);
  if (vrank == 0) {
    if (empty(scatter_block(a, a.root))) return;
    binomial_root(a, node, [&](int child, int tag, int rank, int n) {
      s.send(scatter_blocks(a, rank, n), child, tag);
    });
    if (!a.in_place) s.copy(scatter_block(a, a.root), recv_data(a));
    return;
  }
  const Data mine = recv_data(a);
  if (empty(mine)) return;
  const Data down = node.children.empty() ? mine : s.temp(node.span * a.recvcount, a.recvtype);
  std::vector<VertexId> parts;
  const std::vector<Run> runs = runs_to_parent(a, node, vrank);
  for (std::size_t i = 0; i < runs.size(); ++i)
    parts.push_back(s.recv(elements(down, runs[i].offset * a.recvcount, runs[i].n * a.recvcount),
                           absolute(node.parent, a.root, p), static_cast<int>(i)));
  if (node.children.empty()) return;
  const VertexId arrived = s.join(parts);
  for (const Child& c : node.children)
    s.send(elements(down, (c.vrank - vrank) * a.recvcount, c.span * a.recvcount), absolute(c.vrank, a.root, p), 0,
           {arrived});
  s.copy(elements(down, 0, a.recvcount), mine, {arrived});
}

// The ring's p - 1 steps each need their own tag.
bool ring_tags_fit(const Args& a) { return a.size <= tag_limit(a); }

constexpr Algorithm kAlgorithms[] = {
    {Operation::kBarrier, "linear", barrier_linear, nullptr},
    {Operation::kBarrier, "dissemination", barrier_dissemination, nullptr},
    {Operation::kBarrier, "recursive_doubling", barrier_recursive_doubling, nullptr},
    {Operation::kBarrier, "shared_memory", barrier_shared_memory, shares_node_memory},
    {Operation::kBcast, "linear", bcast_linear, nullptr},
    {Operation::kBcast, "binomial", bcast_binomial, nullptr},
    {Operation::kBcast, "knomial", bcast_knomial, nullptr},
    {Operation::kBcast, "pipeline", bcast_pipeline, nullptr},
    {Operation::kBcast, "scatter_allgather", bcast_scatter_allgather, ring_tags_fit},
    {Operation::kBcast, "shared_memory", bcast_shared_memory, shared_memory_fits},
    {Operation::kGather, "linear", gather_linear, nullptr},
    {Operation::kGather, "binomial", gather_binomial, nullptr},
    {Operation::kGatherv, "linear", gatherv_linear, nullptr},
    {Operation::kScatter, "linear", scatter_linear, nullptr},
    {Operation::kScatter, "binomial", scatter_binomial, nullptr},
    {Operation::kScatterv, "linear", scatterv_linear, nullptr},
};

}  // namespace

std::span<const Algorithm> rooted_algorithms() { return kAlgorithms; }

}  // namespace strata::coll
