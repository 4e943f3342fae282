// The exchange family: allgather(v), where every rank's one block goes to every rank, and alltoall(v, w), where
// every rank has a distinct block for each rank. Costs for p ranks and n bytes per block (alpha per message, beta
// per byte; local copies not counted unless the algorithm adds them on purpose):
//
//   allgather(v)  linear              all at once                  (p-1) alpha + (p-1) n beta, in one burst
//                 ring                p-1 steps to the right       (p-1) (alpha + n beta)
//   allgather     recursive_doubling  log2 p steps (p = 2^k only)  log2 p alpha + (p-1) n beta
//                 bruck               ceil(log2 p) steps           ceil(log2 p) alpha + (p-1) n beta; copies p n
//   alltoall(v,w) linear              all at once                  (p-1) alpha + (p-1) n beta, in one burst
//                 pairwise            p-1 steps, one partner each  (p-1) (alpha + n beta)
//   alltoall      bruck               ceil(log2 p) steps           ceil(log2 p) (alpha + p/2 n beta); copies p n log2 p
//   allgather(v), shared_memory       one write, p-1 reads         of n (allgather(v), in pieces of an area where
//   alltoall                                                       longer) or of all p n (alltoall: small blocks) each,
//                                                                  in the node's memory (Args::shared_memory)
//
// Tags: linear and pairwise send at most one message per direction between two ranks (tag 0). The ring tags each
// message with its step, since the left neighbour may be several steps ahead; recursive doubling and Bruck meet a
// new peer every round, and tag by round all the same so that no argument about peers is needed.
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <limits>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/node_segment.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"

namespace strata::coll {
namespace {

bool power_of_two(int p) { return p > 0 && (p & (p - 1)) == 0; }

// ---- Who talks to whom: pure functions of (rank, p, step). ----

// Ring: at step s (0 <= s < p-1) a rank passes on the block of the rank s to its left (its own at step 0) and
// receives the block of the rank s+1 to its left.
int ring_block(int rank, int p, int step) { return ((rank - step) % p + p) % p; }

// Pairwise exchange at step s (1 <= s < p). For powers of two, XOR makes every step a perfect matching, so both
// directions of one link carry the step's traffic; otherwise a shift by s, which sends to and receives from
// different ranks.
struct Partners {
  int to, from;
};
Partners pairwise_partners(int rank, int p, int step) {
  if (power_of_two(p)) return {rank ^ step, rank ^ step};
  return {(rank + step) % p, (rank - step + p) % p};
}

// Bruck alltoall, the round of distance d (a power of two below p): the block indices in [0, p) with bit d set,
// as runs of consecutive indices [first, first + count).
struct Run {
  int first, count;
};
std::vector<Run> bruck_runs(int p, int d) {
  std::vector<Run> runs;
  for (int first = d; first < p; first += 2 * d) runs.push_back({first, std::min(d, p - first)});
  return runs;
}

// ---- Allgather(v) ----

// Allgather(v) as its algorithms see it: where each rank's block lands in recvbuf, and what this rank contributes
// (sendbuf, or its own block, already in place with MPI_IN_PLACE).
struct Gathered {
  std::vector<Data> block;
  Data mine;
};

Data whole_recvbuf(const Args& a) {
  return {a.recv_buf(), static_cast<std::size_t>(a.size) * a.recvcount, a.recvtype};
}

Data contribution(const Args& a, const Data& own_block) {
  return a.in_place ? own_block : Data{a.send_buf(), a.sendcount, a.sendtype};
}

Gathered allgather_blocks(const Args& a) {
  const Data all = whole_recvbuf(a);
  Gathered g;
  for (int j = 0; j < a.size; ++j) g.block.push_back(elements(all, j * a.recvcount, a.recvcount));
  g.mine = contribution(a, g.block[a.rank]);
  return g;
}

Gathered allgatherv_blocks(const Args& a) {
  const std::ptrdiff_t extent = a.recvtype->extent();
  Gathered g;
  for (int j = 0; j < a.size; ++j)
    g.block.push_back({a.recv_buf() + a.rdispls[j] * extent, static_cast<std::size_t>(a.recvcounts[j]),
                       a.recvtype});
  g.mine = contribution(a, g.block[a.rank]);
  return g;
}

// Without MPI_IN_PLACE a rank's own block arrives by a local copy (send and receive types may differ).
VertexId place_own_block(const Args& a, const Gathered& g, Schedule& s) {
  return a.in_place ? kNoVertex : s.copy(g.mine, g.block[a.rank]);
}

void gather_linear(const Args& a, const Gathered& g, Schedule& s) {
  const int p = a.size, r = a.rank;
  place_own_block(a, g, s);
  // Start with the next rank up, so that not every rank sends to rank 0 first.
  for (int i = 1; i < p; ++i) {
    const int to = (r + i) % p, from = (r - i + p) % p;
    s.recv(g.block[from], from, 0);
    s.send(g.mine, to, 0);
  }
}

void gather_ring(const Args& a, const Gathered& g, Schedule& s) {
  const int p = a.size, r = a.rank, right = (r + 1) % p, left = (r - 1 + p) % p;
  place_own_block(a, g, s);
  VertexId received = kNoVertex;
  for (int step = 0; step + 1 < p; ++step) {
    // Every receive lands in its own block, so all are posted at once; a send waits for the block it passes on.
    const Data& out = step == 0 ? g.mine : g.block[ring_block(r, p, step)];
    s.send(out, right, step, {received});
    received = s.recv(g.block[ring_block(r, p, step + 1)], left, step);
  }
}

// Elements of a block per piece through the node's memory: as many as fill an area, where both sides cut a block at
// the same bytes (one packed element size; in place there is one side), else 0 (then only blocks that fit an area).
std::size_t gather_piece_elements(const Args& a) {
  const std::size_t element = datatype::wire_bytes(*a.recvtype, 1);
  if (element == 0 || element > NodeSegment::kBlockBytes) return 0;
  if (!a.in_place && (!a.sendtype || datatype::wire_bytes(*a.sendtype, 1) != element)) return 0;
  return NodeSegment::kBlockBytes / element;
}

// Through the node's shared memory: each rank leaves its block once for all, in area-sized pieces, and reads every
// other block straight into place. One round of writes and one of reads, where linear posts p-1 messages each way.
// Empty blocks (the v variant's zero counts) are neither written nor read.
void gather_shared_memory(const Args& a, const Gathered& g, Schedule& s) {
  if (a.recvtype->size == 0) return;
  place_own_block(a, g, s);
  const std::size_t cut = gather_piece_elements(a);
  const std::size_t chunk = cut != 0 ? cut : std::numeric_limits<std::size_t>::max();  // else whole blocks
  VertexId published = kNoVertex;  // in order: a writer's pieces take its areas in turn
  for (std::size_t k = 0; k < pieces(g.block[a.rank].count, chunk); ++k)
    published = s.publish(piece(g.mine, chunk, k), all_ranks_but(a.rank, a.size), static_cast<int>(k), {published});
  for (int j = 0; j < a.size; ++j)
    for (std::size_t k = 0; j != a.rank && k < pieces(g.block[j].count, chunk); ++k)
      s.read(piece(g.block[j], chunk, k), j, all_ranks_but(j, a.size), static_cast<int>(k));
}

void build_allgather_shared_memory(const Args& a, Schedule& s) { gather_shared_memory(a, allgather_blocks(a), s); }
void build_allgatherv_shared_memory(const Args& a, Schedule& s) { gather_shared_memory(a, allgatherv_blocks(a), s); }
void build_allgather_linear(const Args& a, Schedule& s) { gather_linear(a, allgather_blocks(a), s); }
void build_allgather_ring(const Args& a, Schedule& s) { gather_ring(a, allgather_blocks(a), s); }
void build_allgatherv_linear(const Args& a, Schedule& s) { gather_linear(a, allgatherv_blocks(a), s); }
void build_allgatherv_ring(const Args& a, Schedule& s) { gather_ring(a, allgatherv_blocks(a), s); }

// Step k pairs ranks 2^k apart; each sends the 2^k consecutive blocks its group of 2^k has gathered and receives
// the partner group's, which lie next to them in recvbuf: one message per step, no scratch.
void build_allgather_recursive_doubling(const Args& a, Schedule& s) {
  const int p = a.size, r = a.rank;
  const std::size_t n = a.recvcount;
  const Gathered g = allgather_blocks(a);
  const Data all = whole_recvbuf(a);
  std::vector<VertexId> have = {place_own_block(a, g, s)};
  for (int d = 1, step = 0; d < p; d *= 2, ++step) {
    const auto group = [&](int rank) { return elements(all, (rank & ~(d - 1)) * n, d * n); };
    const int partner = r ^ d;
    s.send(group(r), partner, step, have);
    // The partner's group is disjoint from every group this rank sends, so its receive can be posted at once.
    have.push_back(s.recv(group(partner), partner, step));
  }
}

// Bruck et al. 1997: blocks gather in scratch in rotated order (scratch block i is rank r+i's), so at distance d a
// rank sends its first min(d, p-d) blocks to rank r-d and receives as many from rank r+d behind them; any p works.
void build_allgather_bruck(const Args& a, Schedule& s) {
  const int p = a.size, r = a.rank;
  const std::size_t n = a.recvcount;
  const Gathered g = allgather_blocks(a);
  const Data all = whole_recvbuf(a);
  const Data tmp = s.temp(p * n, a.recvtype);
  const auto blocks = [&](const Data& d, int first, int count) { return elements(d, first * n, count * n); };
  std::vector<VertexId> have{s.copy(g.mine, blocks(tmp, 0, 1))};
  for (int d = 1, round = 0; d < p; d *= 2, ++round) {
    const int count = std::min(d, p - d);
    s.send(blocks(tmp, 0, count), (r - d + p) % p, round, have);
    have.push_back(s.recv(blocks(tmp, d, count), (r + d) % p, round));  // beyond what any send reads
  }
  // Undo the rotation: scratch blocks [0, p-r) are ranks r..p-1, the rest ranks 0..r-1.
  s.copy(blocks(tmp, 0, p - r), blocks(all, r, p - r), have);
  if (r > 0) s.copy(blocks(tmp, p - r, r), blocks(all, 0, r), have);
}

// ---- Alltoall(v, w) ----

// Alltoall(v, w) as its algorithms see it: per peer, what goes out and where what comes in lands. With
// MPI_IN_PLACE (MPI-4.0 6.8) the outgoing block for peer j is block j of recvbuf, which the block from j will
// overwrite, so it is first copied to scratch; `staged[j]` is that copy (kNoVertex when not in place).
struct Exchange {
  std::vector<Data> out, in;
  std::vector<VertexId> staged;
};

// `out` and `in` filled by the variant; stages the outgoing blocks when in place.
Exchange staged_exchange(const Args& a, std::vector<Data> out, std::vector<Data> in, Schedule& s) {
  Exchange x{std::move(out), std::move(in), std::vector<VertexId>(a.size, kNoVertex)};
  if (!a.in_place) return x;
  for (int j = 0; j < a.size; ++j) {
    if (j == a.rank) continue;  // a rank's own block stays where it is
    x.out[j] = s.temp(x.in[j].count, x.in[j].type);
    x.staged[j] = s.copy(x.in[j], x.out[j]);
  }
  return x;
}

Exchange alltoall_blocks(const Args& a, Schedule& s) {
  const Data all_in = whole_recvbuf(a);
  std::vector<Data> out, in;
  for (int j = 0; j < a.size; ++j) in.push_back(elements(all_in, j * a.recvcount, a.recvcount));
  if (a.in_place) return staged_exchange(a, in, in, s);
  const Data all_out{a.send_buf(), static_cast<std::size_t>(a.size) * a.sendcount, a.sendtype};
  for (int j = 0; j < a.size; ++j) out.push_back(elements(all_out, j * a.sendcount, a.sendcount));
  return staged_exchange(a, std::move(out), std::move(in), s);
}

// Displacements in elements of the one send or receive type.
Exchange alltoallv_blocks(const Args& a, Schedule& s) {
  std::vector<Data> out, in;
  for (int j = 0; j < a.size; ++j)
    in.push_back({a.recv_buf() + a.rdispls[j] * a.recvtype->extent(),
                  static_cast<std::size_t>(a.recvcounts[j]), a.recvtype});
  if (a.in_place) return staged_exchange(a, in, in, s);
  for (int j = 0; j < a.size; ++j)
    out.push_back({a.send_buf() + a.sdispls[j] * a.sendtype->extent(),
                   static_cast<std::size_t>(a.sendcounts[j]), a.sendtype});
  return staged_exchange(a, std::move(out), std::move(in), s);
}

// Displacements in bytes, a type per peer.
Exchange alltoallw_blocks(const Args& a, Schedule& s) {
  std::vector<Data> out, in;
  for (int j = 0; j < a.size; ++j)
    in.push_back({a.recv_buf() + a.rdispls[j], static_cast<std::size_t>(a.recvcounts[j]), a.recvtypes[j]});
  if (a.in_place) return staged_exchange(a, in, in, s);
  for (int j = 0; j < a.size; ++j)
    out.push_back({a.send_buf() + a.sdispls[j], static_cast<std::size_t>(a.sendcounts[j]), a.sendtypes[j]});
  return staged_exchange(a, std::move(out), std::move(in), s);
}

// Without MPI_IN_PLACE a rank's block for itself moves by a local copy; in place it is already there.
void keep_own_block(const Args& a, const Exchange& x, Schedule& s) {
  if (!a.in_place) s.copy(x.out[a.rank], x.in[a.rank]);
}

void exchange_linear(const Args& a, const Exchange& x, Schedule& s) {
  const int p = a.size, r = a.rank;
  keep_own_block(a, x, s);
  for (int i = 1; i < p; ++i) {
    const int to = (r + i) % p, from = (r - i + p) % p;
    s.recv(x.in[from], from, 0, {x.staged[from]});  // in place: not before its old contents are staged
    s.send(x.out[to], to, 0, {x.staged[to]});
  }
}

void exchange_pairwise(const Args& a, const Exchange& x, Schedule& s) {
  const int p = a.size, r = a.rank;
  keep_own_block(a, x, s);
  VertexId previous = kNoVertex;  // one step at a time: the point of pairwise is to bound what is in flight
  for (int step = 1; step < p; ++step) {
    const Partners w = pairwise_partners(r, p, step);
    const VertexId received = s.recv(x.in[w.from], w.from, 0, {previous, x.staged[w.from]});
    const VertexId sent = s.send(x.out[w.to], w.to, 0, {previous, x.staged[w.to]});
    previous = s.join({received, sent});
  }
}

// Through the node's shared memory, for small blocks: each rank leaves all p of its outgoing blocks once for all,
// and reads each other rank's whole set, keeping its own block of it. One round of writes and one of reads, where
// linear posts p-1 messages each way; but each read carries p blocks for one.
void build_alltoall_shared_memory(const Args& a, Schedule& s) {
  const int p = a.size, r = a.rank;
  const Data all_in = whole_recvbuf(a);
  if (a.recvcount == 0 || a.recvtype->size == 0) return;
  const Data source = a.in_place ? all_in : Data{a.send_buf(), p * a.sendcount, a.sendtype};
  const VertexId published = s.publish(source, all_ranks_but(r, p), 0);
  if (!a.in_place)
    s.copy(elements(source, r * a.sendcount, a.sendcount), elements(all_in, r * a.recvcount, a.recvcount));
  // Each writer's set arrives packed; in place, recvbuf is only written once this rank's own set has gone out.
  const std::size_t block = datatype::wire_bytes(*a.recvtype, a.recvcount);
  const Data sets = s.temp(static_cast<std::size_t>(p) * block * (p - 1), datatype::predefined(datatype::kByte));
  for (int j = 0, k = 0; j < p; ++j) {
    if (j == r) continue;
    const Data set = elements(sets, static_cast<std::size_t>(k++) * p * block, p * block);
    const VertexId got = s.read(set, j, all_ranks_but(j, p), 0);
    s.copy(elements(set, r * block, block), elements(all_in, j * a.recvcount, a.recvcount), {got, published});
  }
}

void build_alltoall_linear(const Args& a, Schedule& s) { exchange_linear(a, alltoall_blocks(a, s), s); }
void build_alltoall_pairwise(const Args& a, Schedule& s) { exchange_pairwise(a, alltoall_blocks(a, s), s); }
void build_alltoallv_linear(const Args& a, Schedule& s) { exchange_linear(a, alltoallv_blocks(a, s), s); }
void build_alltoallv_pairwise(const Args& a, Schedule& s) { exchange_pairwise(a, alltoallv_blocks(a, s), s); }
void build_alltoallw_linear(const Args& a, Schedule& s) { exchange_linear(a, alltoallw_blocks(a, s), s); }
void build_alltoallw_pairwise(const Args& a, Schedule& s) { exchange_pairwise(a, alltoallw_blocks(a, s), s); }

// Bruck et al. 1997, for small blocks where latency dominates. Scratch holds the blocks rotated so that block i is
// the one for rank r+i; in the round of distance d every block whose index has bit d set moves d ranks up (so a
// block travels exactly its index), packed into one message; at the end block i holds what rank r-i sent here.
//
//   per round:  pack (tmp runs -> packed_out)  ->  send to r+d
//               receive from r-d into packed_in  ->  unpack (packed_in -> the same tmp runs)
// The packing buffers are reused, so a round's packing waits for the previous send, and its receive for the
// previous unpacking. In place costs nothing more: the rotation has read recvbuf before the end writes it.
void build_alltoall_bruck(const Args& a, Schedule& s) {
  const int p = a.size, r = a.rank;
  const std::size_t n = a.recvcount;
  const Data all_in = whole_recvbuf(a);
  const Data source = a.in_place ? all_in : Data{a.send_buf(), p * a.sendcount, a.sendtype};
  const std::size_t per_source = a.in_place ? a.recvcount : a.sendcount;
  const auto blocks = [&](const Data& d, std::size_t per, int first, int count) {
    return elements(d, first * per, count * per);
  };

  const Data tmp = s.temp(p * n, a.recvtype);
  std::vector<VertexId> ready{s.copy(blocks(source, per_source, r, p - r), blocks(tmp, n, 0, p - r))};
  if (r > 0) ready.push_back(s.copy(blocks(source, per_source, 0, r), blocks(tmp, n, p - r, r)));

  int most = 0;
  for (int d = 1; d < p; d *= 2) {
    int moved = 0;
    for (const Run& run : bruck_runs(p, d)) moved += run.count;
    most = std::max(most, moved);
  }
  const Data packed_out = s.temp(most * n, a.recvtype), packed_in = s.temp(most * n, a.recvtype);

  VertexId sent = kNoVertex;
  std::vector<VertexId> unpacked;
  for (int d = 1, round = 0; d < p; d *= 2, ++round) {
    std::vector<VertexId> packed, pack_after = ready;
    if (sent != kNoVertex) pack_after.push_back(sent);
    int at = 0;
    for (const Run& run : bruck_runs(p, d)) {
      packed.push_back(s.copy(blocks(tmp, n, run.first, run.count), blocks(packed_out, n, at, run.count), pack_after));
      at += run.count;
    }
    sent = s.send(blocks(packed_out, n, 0, at), (r + d) % p, round, packed);
    const VertexId received = s.recv(blocks(packed_in, n, 0, at), (r - d + p) % p, round, unpacked);
    std::vector<VertexId> unpack_after = packed;  // the runs are overwritten only once they are packed
    unpack_after.push_back(received);
    unpacked.clear();
    at = 0;
    for (const Run& run : bruck_runs(p, d)) {
      unpacked.push_back(
          s.copy(blocks(packed_in, n, at, run.count), blocks(tmp, n, run.first, run.count), unpack_after));
      at += run.count;
    }
    ready = unpacked;
  }
  // Block i came from rank r-i: the reverse order, so one copy per block.
  for (int j = 0; j < p; ++j) s.copy(blocks(tmp, n, (r - j + p) % p, 1), blocks(all_in, n, j, 1), ready);
}

bool applies_power_of_two(const Args& a) { return power_of_two(a.size); }

// What one rank writes fits an area.
bool node_memory_fits(const Args& a, std::size_t blocks) {
  return shares_node_memory(a) && a.recvtype &&
         blocks * datatype::wire_bytes(*a.recvtype, a.recvcount) <= NodeSegment::kBlockBytes;
}
// Each block fits an area, or goes in pieces that each have a tag.
bool gathered_blocks_fit(const Args& a, std::size_t largest) {
  if (!shares_node_memory(a) || !a.recvtype) return false;
  if (datatype::wire_bytes(*a.recvtype, largest) <= NodeSegment::kBlockBytes) return true;
  const std::size_t chunk = gather_piece_elements(a);
  return chunk != 0 && pieces(largest, chunk) <= static_cast<std::size_t>(tag_limit(a));
}
bool allgather_node_memory_fits(const Args& a) { return gathered_blocks_fit(a, a.recvcount); }
bool allgatherv_node_memory_fits(const Args& a) {
  const auto largest = std::max_element(a.recvcounts.begin(), a.recvcounts.end());
  return gathered_blocks_fit(a, largest == a.recvcounts.end() ? 0 : static_cast<std::size_t>(*largest));
}
bool alltoall_node_memory_fits(const Args& a) { return node_memory_fits(a, static_cast<std::size_t>(a.size)); }

}  // namespace

std::span<const Algorithm> exchange_algorithms() {
  static const Algorithm kAlgorithms[] = {
      {Operation::kAllgather, "linear", build_allgather_linear, nullptr},
      {Operation::kAllgather, "ring", build_allgather_ring, nullptr},
      {Operation::kAllgather, "recursive_doubling", build_allgather_recursive_doubling, applies_power_of_two},
      {Operation::kAllgather, "bruck", build_allgather_bruck, nullptr},
      {Operation::kAllgather, "shared_memory", build_allgather_shared_memory, allgather_node_memory_fits},
      {Operation::kAllgatherv, "linear", build_allgatherv_linear, nullptr},
      {Operation::kAllgatherv, "ring", build_allgatherv_ring, nullptr},
      {Operation::kAllgatherv, "shared_memory", build_allgatherv_shared_memory, allgatherv_node_memory_fits},
      {Operation::kAlltoall, "linear", build_alltoall_linear, nullptr},
      {Operation::kAlltoall, "pairwise", build_alltoall_pairwise, nullptr},
      {Operation::kAlltoall, "bruck", build_alltoall_bruck, nullptr},
      {Operation::kAlltoall, "shared_memory", build_alltoall_shared_memory, alltoall_node_memory_fits},
      {Operation::kAlltoallv, "linear", build_alltoallv_linear, nullptr},
      {Operation::kAlltoallv, "pairwise", build_alltoallv_pairwise, nullptr},
      {Operation::kAlltoallw, "linear", build_alltoallw_linear, nullptr},
      {Operation::kAlltoallw, "pairwise", build_alltoallw_pairwise, nullptr},
  };
  return kAlgorithms;
}

}  // namespace strata::coll
