// The reduction family: reduce, allreduce, reduce_scatter(_block), scan and exscan as pure schedule builders.
//
// Rank order. A user operator need not commute (MPI-4.0 6.9.1): the result must be x0 op x1 op ... op x(p-1), and a
// reduce vertex computes inout = in op inout, so `in` must stand for the lower ranks. Every algorithm here whose
// partial results always cover a contiguous run of ranks combines two runs in that order (Ctx::combine) and so
// serves any operator, at the price of a local copy whenever the incoming run is the higher one and the operator
// does not commute. Only ring and pairwise, whose partial results wrap around from rank p-1 to rank 0, need a
// commutative operator (their applies()).
//
// Costs: p ranks, n elements (N: the whole reduce_scatter input), a per message, b per element sent, g per element
// reduced, lg = ceil(log2 p), f = (p-1)/p; "fold" is a + n(b + g) before and a + nb after, when p is not a power
// of two.
//   reduce     linear                 (p-1)(a + nb + ng) at the root
//              binomial               lg (a + nb + ng), and a + nb more if the op does not commute and root != 0
//              pipeline               (p + S - 2)(a + n/S (b + g)), S segments; a + nb more as binomial
//              reduce_scatter_gather  2 lg a + 2fn b + fn g + fold                  (Rabenseifner)
//              shared_memory          one write of n at each rank, then p-1 reads of n and (p-1) n g at the root,
//                                     by chunks of an area, in the node's shared memory (Args::shared_memory)
//   allreduce  reduce_bcast           lg (2a + 2nb + ng)
//              recursive_doubling     lg (a + nb + ng) + fold
//              ring                   2(p-1) a + 2fn b + fn g                       commutative only
//              rabenseifner           2 lg a + 2fn b + fn g + fold
//              segmented_ring         the ring on C chunks of about p x segment_bytes, up to 4 at a time:
//                                     2(p-1) C a + 2fn b + fn g, one chunk's reductions overlapping others' transfers
//              shared_memory          one write of n, then p-1 reads of n and (p-1) n g at every rank
//              shared_memory_slices   one write of fn, then p-1 reads of n/p and fn g, one write of n/p and p-1
//                                     reads of n/p at every rank (a reduce-scatter and an allgather in node memory)
//   reduce_scatter(_block)
//              ring                   (p-1) a + fN (b + g)                          commutative only
//              pairwise               (p-1) a + fN (b + g)                          commutative only
//              reduce_scatterv        lg (a + Nb + Ng) + (p-1) a + fN b             (binomial reduce, linear scatter)
//              shared_memory          one write of fN, then p-1 reads of N/p and fN g at every rank (the first half
//                                     of shared_memory_slices, the call's blocks as the slices; any operator)
//   scan, exscan
//              linear                 (p-1)(a + nb + ng)                            (a chain)
//              recursive_doubling     lg (a + nb + 2ng)
//              shared_memory          one write of n at each rank, then r reads of n and r n g at rank r (reduce's
//                                     fold, ranks 0 .. r only): the last rank's p-1 are the longest
//
// Tags. Between one ordered pair of ranks an algorithm sends at most one message per phase, each phase with its
// own tag (kTag*), except the rings, which send p-1 messages to the same neighbour: they alternate two tags, post
// the sends with one tag in step order, and post each receive only after the one two steps before it has completed,
// so a receive can only ever match its own message.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <span>
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/node_segment.hpp"
#include "datatype/pack.hpp"

namespace strata::coll {
namespace {


constexpr int kTagUp = 0;          // toward a root, and into a fold
constexpr int kTagDown = 1;        // away from a root, and out of a fold
constexpr int kTagExchange = 2;    // recursive doubling / halving
constexpr int kTagGather = 3;      // the allgather or gather undoing a recursive halving
constexpr int kTagRing = 4;        // 4, 5: ring reduce-scatter
constexpr int kTagRingGather = 6;  // 6, 7: ring allgather
constexpr int kTagsPerRing = 8;    // all of the above: what one segment of the segmented ring uses

int mod(int i, int p) { return ((i % p) + p) % p; }

bool same(const Data& x, const Data& y) { return x.buf.area == y.buf.area && x.buf.at == y.buf.at; }

// What every builder works from: the call, the schedule, and vertex constructors that take kNoVertex among their
// dependencies (so "no previous step yet" needs no special case).
struct Ctx {
  const Args& a;
  Schedule& s;
  datatype::TypeRef type;

  Ctx(const Args& args, Schedule& schedule)
      : a(args), s(schedule), type(args.recvtype ? args.recvtype : args.sendtype) {}

  int rank() const { return a.rank; }
  int size() const { return a.size; }
  // The input: sendbuf, or recvbuf with MPI_IN_PLACE.
  Data input(std::size_t n) const { return {a.in_place ? a.recv_buf() : a.send_buf(), n, type}; }
  Data output(std::size_t n) const { return {a.recv_buf(), n, type}; }
  Data temp(std::size_t n) const { return s.temp(n, type); }

  VertexId send(const Data& d, int peer, int tag, std::initializer_list<VertexId> after) const {
    return s.send(d, peer, tag, after);
  }
  VertexId recv(const Data& d, int peer, int tag, std::initializer_list<VertexId> after) const {
    return s.recv(d, peer, tag, after);
  }
  VertexId reduce(const Data& in, const Data& inout, std::initializer_list<VertexId> after) const {
    return s.reduce(in, inout, a.op, a.type_handle, after);
  }
  VertexId copy(const Data& from, const Data& to, std::initializer_list<VertexId> after) const {
    return s.copy(from, to, after);
  }
  VertexId publish(const Data& what, const std::vector<int>& readers, int tag,
                   std::initializer_list<VertexId> after) const {
    return s.publish(what, readers, tag, after);
  }
  VertexId read(const Data& where, int writer, const std::vector<int>& readers, int tag,
                std::initializer_list<VertexId> after) const {
    return s.read(where, writer, readers, tag, after);
  }
  VertexId read_reduce(const Data& inout, int writer, const std::vector<int>& readers, int tag,
                       std::initializer_list<VertexId> after) const {
    return s.read_reduce(inout, writer, readers, tag, a.op, a.type_handle,
                         std::span<const VertexId>(after.begin(), after.size()));
  }
  VertexId join(const std::vector<VertexId>& ids) const { return s.join(ids); }
  // `to` = `from`, unless they are the same buffer (in place): then kNoVertex.
  VertexId init(const Data& from, const Data& to) const { return same(from, to) ? kNoVertex : copy(from, to, {}); }

  // acc = incoming op acc when `incoming` stands for lower ranks than acc, else acc op incoming. The second is
  // reduce(in = acc, inout = incoming) and a copy back, unless the operator commutes. `incoming` must be scratch.
  VertexId combine(const Data& acc, const Data& incoming, bool incoming_is_lower,
                   std::initializer_list<VertexId> after) const {
    if (incoming_is_lower || a.op->commutative) return reduce(incoming, acc, after);
    const VertexId reduced = reduce(acc, incoming, after);
    return copy(incoming, acc, {reduced});
  }
};

// ---- Pattern maths ------------------------------------------------------------------------------------------------

struct Range {
  int lo, hi;  // blocks [lo, hi)
};

// Consecutive blocks of one vector: block i is elements [start[i], start[i + 1]).
struct Blocks {
  std::vector<std::size_t> start;

  // n elements in `parts` blocks of n / parts, the first n % parts one longer (so n < parts leaves empty blocks).
  static Blocks even(std::size_t n, int parts) {
    Blocks b{{0}};
    for (int i = 0; i < parts; ++i)
      b.start.push_back(b.start.back() + n / parts + (static_cast<std::size_t>(i) < n % parts ? 1 : 0));
    return b;
  }
  static Blocks sized(const std::vector<int>& counts) {
    Blocks b{{0}};
    for (int c : counts) b.start.push_back(b.start.back() + static_cast<std::size_t>(c));
    return b;
  }
  std::size_t count(int i) const { return start[i + 1] - start[i]; }
  std::size_t count(Range r) const { return start[r.hi] - start[r.lo]; }
  std::size_t total() const { return start.back(); }
  std::size_t largest() const {
    std::size_t most = 0;
    for (std::size_t i = 0; i + 1 < start.size(); ++i) most = std::max(most, start[i + 1] - start[i]);
    return most;
  }
  Data of(const Data& d, int i) const { return elements(d, start[i], count(i)); }
  Data of(const Data& d, Range r) const { return elements(d, start[r.lo], count(r)); }
};

// MPICH's fold of p ranks onto pof2, the largest power of two <= p: of the first 2 * rem ranks (rem = p - pof2),
// each even one hands its input to the odd one above it and sits out; the others are renumbered 0 .. pof2-1 in rank
// order. Every new rank then stands for a contiguous run of one or two ranks, so rank order survives.
struct Fold {
  int pof2, rem, steps;
  explicit Fold(int p)
      : pof2(static_cast<int>(std::bit_floor(static_cast<unsigned>(p)))),
        rem(p - pof2),
        steps(std::countr_zero(static_cast<unsigned>(pof2))) {}
  int vrank(int r) const { return r < 2 * rem ? (r % 2 == 1 ? r / 2 : -1) : r - rem; }
  int real(int v) const { return v < rem ? 2 * v + 1 : v + rem; }
};

// The blocks (of pof2) that new rank v keeps after `steps` halving steps. Step i splits the range between v and
// v ^ 2^i, the one with bit i set keeping the upper half; masks go from low to high so that the ranks whose data a
// partial result holds are always an aligned, contiguous run of new ranks (which rank order needs).
Range halving_range(int v, int steps, int pof2) {
  Range r{0, pof2};
  for (int i = 0; i < steps; ++i) {
    const int mid = (r.lo + r.hi) / 2;
    if ((v >> i) & 1) r.lo = mid;
    else r.hi = mid;
  }
  return r;
}

// Binomial tree over v = (rank - root) mod p: v's parent is v minus its lowest set bit; its children are v + 1,
// v + 2, v + 4, ... below that bit. Child v + m's subtree is [v + m, v + 2m): each child covers the ranks just above
// all that came before it, so combining children in this order keeps rank order when the root is rank 0.
struct Tree {
  int parent = -1;  // a v, or -1 at the root
  std::vector<int> children;

  Tree(int v, int p) {
    for (int m = 1; m < p; m <<= 1) {
      if (v & m) {
        parent = v - m;
        return;
      }
      if (v + m < p) children.push_back(v + m);
    }
  }
};

// ---- Building blocks ----------------------------------------------------------------------------------------------

// Reduces every rank's `in` up the binomial tree rooted at rank `root`, in rank order when root is 0. At the root
// the result lands in `out` (which may be `in` itself) and the vertex after which it is there is returned; elsewhere
// the send to the parent. Children arrive in two alternating scratch buffers.
VertexId binomial_reduce(const Ctx& c, const Data& in, const Data& out, int root) {
  const int p = c.size(), v = mod(c.rank() - root, p);
  const Tree tree(v, p);
  const Data acc = v == 0 ? out : tree.children.empty() ? in : c.temp(in.count);
  VertexId ready = c.init(in, acc);
  Data child[2];
  VertexId free[2] = {kNoVertex, kNoVertex};  // the last use of child[k]
  for (std::size_t k = 0; k < tree.children.size(); ++k) {
    if (k < 2) child[k] = c.temp(in.count);
    const VertexId got = c.recv(child[k % 2], mod(tree.children[k] + root, p), kTagUp, {free[k % 2]});
    ready = free[k % 2] = c.combine(acc, child[k % 2], false, {got, ready});
  }
  if (tree.parent < 0) return ready;
  return c.send(acc, mod(tree.parent + root, p), kTagUp, {ready});
}

// Broadcasts `data` from rank `root` down the binomial tree, the largest subtree first.
void binomial_bcast(const Ctx& c, const Data& data, int root, VertexId after) {
  const int p = c.size(), v = mod(c.rank() - root, p);
  const Tree tree(v, p);
  const VertexId have = tree.parent < 0 ? after : c.recv(data, mod(tree.parent + root, p), kTagDown, {after});
  for (auto child = tree.children.rbegin(); child != tree.children.rend(); ++child)
    c.send(data, mod(*child + root, p), kTagDown, {have});
}

// Into the fold: each odd rank below 2 * rem takes in its even neighbour's input, as the lower run. Returns, at a
// rank that stays, the vertex after which `acc` holds its contribution; at an even rank that sits out, its send.
VertexId fold_in(const Ctx& c, const Fold& f, const Data& in, const Data& acc) {
  const int r = c.rank();
  if (f.vrank(r) < 0) return c.send(in, r + 1, kTagUp, {});
  const VertexId ready = c.init(in, acc);
  if (r >= 2 * f.rem) return ready;
  const Data lower = c.temp(in.count);
  const VertexId got = c.recv(lower, r - 1, kTagUp, {});
  return c.combine(acc, lower, true, {got, ready});
}

// Out of the fold: each odd rank below 2 * rem hands the result to its even neighbour, whose `result` buffer may
// be its input (in place): `ready` there is the fold's send.
VertexId fold_out(const Ctx& c, const Fold& f, const Data& result, VertexId ready) {
  const int r = c.rank();
  if (r >= 2 * f.rem) return ready;
  if (r % 2 == 1) return c.send(result, r - 1, kTagDown, {ready});
  return c.recv(result, r + 1, kTagDown, {ready});
}

// Recursive halving over the fold's pof2 new ranks (reduce-scatter): at step i, v and v ^ 2^i split their common
// range, each sends the other's half and combines the half it keeps. `sent[i]` is step i's send: only after it may
// that half of `acc` be overwritten.
struct Halving {
  VertexId done;
  std::vector<VertexId> sent;
};

Halving recursive_halving(const Ctx& c, const Fold& f, const Blocks& b, const Data& acc, int v, VertexId ready) {
  Halving h{ready, {}};
  if (f.steps == 0) return h;
  const Data theirs = c.temp(b.count(halving_range(v, 1, f.pof2)));  // the first half kept is the largest
  for (int i = 0; i < f.steps; ++i) {
    const int partner = v ^ (1 << i);
    const Range keep = halving_range(v, i + 1, f.pof2), give = halving_range(partner, i + 1, f.pof2);
    h.sent.push_back(c.send(b.of(acc, give), f.real(partner), kTagExchange, {h.done}));
    const Data in = elements(theirs, 0, b.count(keep));
    const VertexId got = c.recv(in, f.real(partner), kTagExchange, {h.done});
    h.done = c.combine(b.of(acc, keep), in, partner < v, {got, h.done});
  }
  return h;
}

// Recursive doubling allgather undoing the halving step by step, from the last: afterwards every new rank's `acc`
// holds all pof2 blocks.
VertexId halving_allgather(const Ctx& c, const Fold& f, const Blocks& b, const Data& acc, int v, const Halving& h) {
  VertexId done = h.done;
  for (int i = f.steps - 1; i >= 0; --i) {
    const int partner = v ^ (1 << i);
    const VertexId sent = c.send(b.of(acc, halving_range(v, i + 1, f.pof2)), f.real(partner), kTagGather, {done});
    const VertexId got =
        c.recv(b.of(acc, halving_range(partner, i + 1, f.pof2)), f.real(partner), kTagGather, {h.sent[i]});
    done = c.join({sent, got});
  }
  return done;
}

// Binomial gather of the halving's blocks to new rank `vroot`, undoing the steps from the last: at step i the pair
// holds the two halves split at halving step i, and the one agreeing with vroot in bit i takes the other's. Returns
// at vroot the vertex after which `acc` holds everything; elsewhere its one send.
VertexId halving_gather(const Ctx& c, const Fold& f, const Blocks& b, const Data& acc, int v, int vroot,
                        const Halving& h) {
  VertexId done = h.done;
  for (int i = f.steps - 1; i >= 0; --i) {
    const int partner = v ^ (1 << i);
    if (((v ^ vroot) >> i) & 1)
      return c.send(b.of(acc, halving_range(v, i + 1, f.pof2)), f.real(partner), kTagGather, {done});
    const VertexId got =
        c.recv(b.of(acc, halving_range(partner, i + 1, f.pof2)), f.real(partner), kTagGather, {h.sent[i]});
    done = c.join({done, got});
  }
  return done;
}

// Ring reduce-scatter of `in`'s p blocks: block j's partial result starts at rank j + 1 with that rank's input block
// and travels right, each rank adding its own block j, until it reaches rank j after p - 1 steps, where it is added
// into `out` (which holds, or is, the rank's own input block). Partial results travel in two scratch buffers, so the
// input is only read: `input_read` is when it has all been.
struct RingResult {
  VertexId done;
  VertexId input_read;
};

RingResult ring_reduce_scatter(const Ctx& c, const Blocks& b, const Data& in, const Data& out) {
  const int r = c.rank(), p = c.size(), right = mod(r + 1, p), left = mod(r - 1, p);
  const VertexId own = c.init(b.of(in, r), out);
  if (p == 1) return {own, own};
  std::vector<VertexId> reads{own, c.send(b.of(in, mod(r - 1, p)), right, kTagRing, {})};
  const Data carry[2] = {c.temp(b.largest()), c.temp(b.largest())};
  VertexId free[2] = {kNoVertex, kNoVertex};  // the send of what carry[k] last held
  for (int step = 0;; ++step) {
    const int j = mod(r - step - 2, p);  // the block arriving
    const Data partial = elements(carry[step % 2], 0, b.count(j));
    const VertexId got = c.recv(partial, left, kTagRing + step % 2, {free[step % 2]});
    if (step == p - 2) return {c.reduce(partial, out, {got, own}), c.join(reads)};
    const VertexId added = c.reduce(b.of(in, j), partial, {got});
    reads.push_back(added);
    free[step % 2] = c.send(partial, right, kTagRing + (step + 1) % 2, {added});
  }
}

// Where rank r's block of a reduce_scatter result is built. Normally recvbuf. In place, recvbuf holds the whole
// input and the result goes to its start (as in MPICH and Open MPI), over other ranks' input blocks that may still
// be needed: unless r's own block starts there, build it in scratch and copy it down once the input has been read.
struct Placement {
  Data build, result;

  void finish(const Ctx& c, std::initializer_list<VertexId> after) const {
    if (!same(build, result)) c.copy(build, result, after);
  }
};

Placement place_result(const Ctx& c, const Blocks& b, const Data& in) {
  const Data result = c.output(b.count(c.rank()));
  if (!c.a.in_place) return {result, result};
  if (b.start[c.rank()] == 0) return {b.of(in, c.rank()), result};
  return {c.temp(result.count), result};
}

// ---- Reduce -------------------------------------------------------------------------------------------------------

// The root folds from the top: acc = x(p-1), then acc = x(i) op acc for i = p-2 .. 0, which is reduce()'s own
// direction: any operator, no extra copies.
void reduce_linear(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  const int r = c.rank(), p = c.size();
  if (n == 0) return;
  const Data in = c.input(n);
  if (r != a.root) {
    c.send(in, a.root, kTagUp, {});
    return;
  }
  const Data out = c.output(n);
  // In place, x(p-1) arriving in recvbuf would overwrite the root's own input: keep that aside first.
  Data own = in;
  VertexId kept = kNoVertex;
  if (a.in_place && r != p - 1) {
    own = c.temp(n);
    kept = c.copy(in, own, {});
  }
  VertexId acc = r == p - 1 ? c.init(in, out) : c.recv(out, p - 1, kTagUp, {kept});
  Data other[2];
  VertexId free[2] = {kNoVertex, kNoVertex};
  for (int i = p - 2, k = 0; i >= 0; --i) {
    if (i == r) {
      acc = c.reduce(own, out, {acc, kept});
      continue;
    }
    if (k < 2) other[k] = c.temp(n);
    const VertexId got = c.recv(other[k % 2], i, kTagUp, {free[k % 2]});
    acc = free[k % 2] = c.reduce(other[k % 2], out, {got, acc});
    ++k;
  }
}

// Around the root when the operator commutes; otherwise around rank 0, where the tree keeps rank order, and one
// more hop to the root.
void reduce_binomial(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  if (n == 0) return;
  const int r = c.rank(), tree_root = a.op->commutative ? a.root : 0;
  const Data out = r == tree_root ? (r == a.root ? c.output(n) : c.temp(n)) : Data{};
  const VertexId ready = binomial_reduce(c, c.input(n), out, tree_root);
  if (tree_root == a.root) return;
  if (r == tree_root) c.send(out, a.root, kTagDown, {ready});
  if (r == a.root) c.recv(c.output(n), tree_root, kTagDown, {ready});
}

// A chain toward the root by segments (segment_bytes, 64 KiB by default): over v = (rank - root) mod p, v takes
// segment k of the partial result of v + 1 .. p - 1 from its right, folds its own segment in front and passes it
// left, so that every rank reduces at once, each on another segment. The chain runs in rank order from root 0; a
// non-commutative operator therefore reduces to rank 0, which hands the result to the root (as binomial does).
void reduce_pipeline(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  if (n == 0) return;
  const int r = c.rank(), p = c.size(), chain_root = a.op->commutative ? a.root : 0;
  const int v = mod(r - chain_root, p), left = mod(r - 1, p), right = mod(r + 1, p);
  const Data in = c.input(n);
  const Data acc = v == 0 ? (r == a.root ? c.output(n) : c.temp(n)) : v == p - 1 ? in : c.temp(n);
  if (p == 1) {
    c.init(in, acc);
    return;
  }
  // In place at the root the partial results may not land in recvbuf, which still holds its input.
  const Data incoming = v == 0 && same(in, acc) ? c.temp(n) : acc;
  const std::size_t tags = static_cast<std::size_t>(tag_limit(a));
  const std::size_t bytes = a.segment_bytes > 0 ? a.segment_bytes : 64 * 1024;
  const std::size_t per_segment =
      std::max({std::size_t{1}, c.type->size > 0 ? bytes / c.type->size : n, (n + tags - 1) / tags});
  std::vector<VertexId> done;
  int tag = 0;
  for (std::size_t first = 0; first < n; first += per_segment, ++tag) {
    const std::size_t len = std::min(per_segment, n - first);
    const Data mine = elements(in, first, len), part = elements(acc, first, len);
    if (v == p - 1) {
      done.push_back(c.send(mine, left, tag, {}));
      continue;
    }
    const Data arriving = elements(incoming, first, len);
    const VertexId got = c.recv(arriving, right, tag, {});
    const VertexId folded =
        same(arriving, part) ? c.reduce(mine, part, {got}) : c.combine(part, arriving, false, {got});
    done.push_back(v == 0 ? folded : c.send(part, left, tag, {folded}));
  }
  if (chain_root == a.root) return;
  // No chain message goes from rank 0 to the root (rank 0 ends the chain; the root's right neighbour is rank 0 only
  // when the root begins the chain and receives nothing), so tag 0 cannot be mistaken.
  if (v == 0) c.send(acc, a.root, 0, {c.join(done)});
  if (r == a.root) c.recv(c.output(n), chain_root, 0, {c.join(done)});
}

// Rabenseifner: fold, reduce-scatter by recursive halving, binomial gather of the blocks. The gather goes to the
// root, or when the root sat out of the fold, to the odd rank that took its input, which forwards the result.
void reduce_reduce_scatter_gather(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  if (n == 0) return;
  const int r = c.rank();
  const Fold f(c.size());
  const int v = f.vrank(r);
  const int vroot = f.vrank(a.root) >= 0 ? f.vrank(a.root) : f.vrank(a.root + 1);
  const Data acc = r == a.root ? c.output(n) : v >= 0 ? c.temp(n) : Data{};
  VertexId ready = fold_in(c, f, c.input(n), acc);
  if (v >= 0) {
    const Blocks b = Blocks::even(n, f.pof2);
    ready = halving_gather(c, f, b, acc, v, vroot, recursive_halving(c, f, b, acc, v, ready));
  }
  const int holder = f.real(vroot);
  if (holder == a.root) return;
  if (r == holder) c.send(acc, a.root, kTagDown, {ready});
  if (r == a.root) c.recv(acc, holder, kTagDown, {ready});
}

// Through the node's shared memory: every rank leaves its input once in its node area for the ranks that reduce (the
// root, all of them, or for a prefix the higher ones), chunk by chunk, and each of those folds the chunks in rank
// order (any operator) with recursive doubling's association (fold_in_order, below): from the top down, each input
// reduced straight from the area when the layout is contiguous (sparing the copy out), else read into scratch
// first. One round of writes and one of reads, where a tree takes log2 p rounds of messages, each waiting for the
// scheduler when ranks outnumber cores; and on a long vector the writers copy in beside the reducer's work, so it
// only reduces.
std::size_t node_chunk(const Args& a, const datatype::Datatype& type) {
  if (type.size == 0) return std::max<std::size_t>(1, a.recvcount);
  return std::max<std::size_t>(1, NodeSegment::kBlockBytes / type.size);
}

// Who folds whose input: rank r folds x0 .. x(last(r)) (nothing when last < 0), so writer q's readers are the
// other ranks whose run covers q. Reduce: only the root folds, all p; allreduce: every rank; scan: up to its own;
// exscan: up to the one below it.
struct NodeFold {
  enum Kind { kReduce, kAllreduce, kScan, kExscan } kind;
  int root, p;
  int last(int r) const {
    switch (kind) {
      case kReduce: return r == root ? p - 1 : -1;
      case kAllreduce: return p - 1;
      case kScan: return r;
      case kExscan: return r - 1;
    }
    return -1;
  }
  std::vector<int> readers(int q) const {
    std::vector<int> out;
    for (int s = 0; s < p; ++s)
      if (s != q && last(s) >= q) out.push_back(s);
    return out;
  }
};

// A rank that takes every input from the node's memory may associate them as it likes; it takes recursive doubling's
// association (MPICH's, Open MPI's, and recursive_doubling's here): of m inputs the first 2 rem in pairs (x0 op x1,
// x2 op x3, ...; rem = m - pof2), then the pof2 runs halved recursively. A sum of doubles then comes out as theirs
// does, bit for bit, where the chain x0 op (x1 op (... op x(m-1))) this replaced differed in the last bits: enough
// for hypre's regression tests, whose saved outputs came from those libraries, to fail on one node.
// `put(q, into, after)` writes x(q) into `into`, `add_below(q, into, after)` makes it x(q) op `into`; `temps` hold the
// lower halves, one per level of the tree (fold_levels), with their last readers in `temp_free`.
int fold_levels(int m) { return std::countr_zero(std::bit_floor(static_cast<unsigned>(std::max(m, 1)))); }

template <class Put, class AddBelow>
VertexId fold_in_order(const Ctx& c, int m, const Data& dest, const std::vector<Data>& temps,
                       std::vector<VertexId>& temp_free, const Put& put, const AddBelow& add_below) {
  const Fold f(m);
  // Leaf v (a new rank of the fold): inputs real(v) - 1 and real(v) for v < rem, else real(v).
  const auto over = [&](const auto& self, int lo, int hi, const Data& into, int level, VertexId free) -> VertexId {
    if (hi - lo == 1) {
      const VertexId upper = put(f.real(lo), into, free);
      return lo < f.rem ? add_below(f.real(lo) - 1, into, upper) : upper;
    }
    const int mid = lo + (hi - lo) / 2;
    const VertexId upper = self(self, mid, hi, into, level, free);
    if (mid - lo == 1 && lo >= f.rem) return add_below(f.real(lo), into, upper);  // one input: no lower half
    const Data below = elements(temps[level], 0, into.count);
    const VertexId lower = self(self, lo, mid, below, level + 1, temp_free[level]);
    return temp_free[level] = c.reduce(below, into, {upper, lower});
  };
  return over(over, 0, f.pof2, dest, 0, kNoVertex);
}

void node_memory_reduce(const Ctx& c, const NodeFold& fold) {
  const std::size_t n = c.a.recvcount, chunk = node_chunk(c.a, *c.type);
  const int r = c.rank(), p = c.size(), top = fold.last(r);
  if (n == 0) return;
  std::vector<std::vector<int>> readers(static_cast<std::size_t>(p));
  for (int q = 0; q <= top; ++q) readers[q] = fold.readers(q);
  readers[r] = fold.readers(r);
  // A writer's chunks go out in order: a chunk 8 (4 with a payload) ahead shares its area, and must not take it
  // first, since a reader folds the chunks in order.
  VertexId published = kNoVertex;
  auto publish = [&](const Data& input, std::size_t first, int tag, VertexId after) {
    if (!readers[r].empty())
      published = c.publish(elements(input, first, std::min(chunk, n - first)), readers[r], tag, {after, published});
  };
  if (top < 0) {
    for (std::size_t first = 0, tag = 0; first < n; first += chunk, ++tag)
      publish(c.input(n), first, static_cast<int>(tag), kNoVertex);
    return;
  }
  // In place, recvbuf is the input that the others read through the area and the fold overwrites: keep it aside.
  const Data out = c.output(n);
  Data own = c.input(n);
  VertexId kept = kNoVertex;
  if (c.a.in_place && p > 1) {
    own = c.temp(n);
    kept = c.copy(c.input(n), own, {});
  }
  const bool fused = datatype::contiguous(*c.type, n);
  const std::size_t most = std::min(chunk, n);
  const Data others = fused || top == 0 ? Data{} : c.temp(most * static_cast<std::size_t>(p - 1));
  std::vector<VertexId> free(static_cast<std::size_t>(p), kNoVertex);  // the last reduce out of q's scratch
  std::vector<Data> temps;
  for (int level = 0; level < fold_levels(top + 1); ++level) temps.push_back(c.temp(most));
  std::vector<VertexId> temp_free(temps.size(), kNoVertex);
  for (std::size_t first = 0, t = 0; first < n; first += chunk, ++t) {
    const int tag = static_cast<int>(t);
    const std::size_t len = std::min(chunk, n - first);
    const Data mine = elements(own, first, len), result = elements(out, first, len);
    publish(own, first, tag, kept);
    const auto put = [&](int q, const Data& to, VertexId after) {
      if (q != r) return c.read(to, q, readers[q], tag, {kept, after});
      return same(mine, to) ? kept : c.copy(mine, to, {kept, after});
    };
    const auto add_below = [&](int q, const Data& to, VertexId after) {
      if (q == r) return c.reduce(mine, to, {after, kept});
      if (fused) return c.read_reduce(to, q, readers[q], tag, {after});
      const Data theirs = elements(others, most * static_cast<std::size_t>(q < r ? q : q - 1), len);
      const VertexId got = c.read(theirs, q, readers[q], tag, {free[q]});
      return free[q] = c.reduce(theirs, to, {after, got});
    };
    fold_in_order(c, top + 1, result, temps, temp_free, put, add_below);
  }
}

void reduce_shared_memory(const Args& a, Schedule& s) {
  node_memory_reduce(Ctx(a, s), {NodeFold::kReduce, a.root, a.size});
}

// ---- Allreduce ----------------------------------------------------------------------------------------------------

// Rank-ordered binomial reduce to rank 0, then binomial broadcast.
void allreduce_reduce_bcast(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  if (n == 0) return;
  const Data out = c.output(n);
  binomial_bcast(c, out, 0, binomial_reduce(c, c.input(n), out, 0));
}

// The allreduces over a power of two p' <= p: the extra ranks fold their input in, `among_pof2(c, f, out, v, ready)`
// runs on the p' ranks (v: new rank) from `ready` and returns its last vertex, and the result is passed back out.
template <class AmongPof2>
void folded_allreduce(const Args& a, Schedule& s, AmongPof2 among_pof2) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  if (n == 0) return;
  const Data out = c.output(n);
  const Fold f(c.size());
  const int v = f.vrank(c.rank());
  VertexId ready = fold_in(c, f, c.input(n), out);
  if (v >= 0) ready = among_pof2(c, f, out, v, ready);
  fold_out(c, f, out, ready);
}

// Fold, then at step i exchange the whole vector with new rank v ^ 2^i: both end with the same run's reduction.
void allreduce_recursive_doubling(const Args& a, Schedule& s) {
  folded_allreduce(a, s, [](const Ctx& c, const Fold& f, const Data& out, int v, VertexId ready) {
    if (f.steps == 0) return ready;
    const Data theirs = c.temp(out.count);
    for (int i = 0; i < f.steps; ++i) {
      const int partner = v ^ (1 << i);
      const VertexId sent = c.send(out, f.real(partner), kTagExchange, {ready});
      const VertexId got = c.recv(theirs, f.real(partner), kTagExchange, {ready});
      ready = c.combine(out, theirs, partner < v, {sent, got});
    }
    return ready;
  });
}

// Ring reduce-scatter over p blocks, then a ring allgather passing each finished block on to the right.
void allreduce_ring(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  if (n == 0) return;
  const int r = c.rank(), p = c.size(), right = mod(r + 1, p), left = mod(r - 1, p);
  const Data out = c.output(n);
  const Blocks b = Blocks::even(n, p);
  const RingResult rs = ring_reduce_scatter(c, b, c.input(n), b.of(out, r));
  VertexId have = rs.done;
  VertexId got[2] = {kNoVertex, kNoVertex};
  for (int step = 0; step < p - 1; ++step) {
    c.send(b.of(out, mod(r - step, p)), right, kTagRingGather + step % 2, {have});
    // After the reduce-scatter: so that this rank's sends with one tag go out in step order, and because in place
    // the block arriving is someone's input until the reduce-scatter has read it.
    have = got[step % 2] = c.recv(b.of(out, mod(r - step - 1, p)), left, kTagRingGather + step % 2,
                                  {rs.done, rs.input_read, got[step % 2]});
  }
}

// The ring on chunks of the vector whose ring messages are about segment_bytes (64 KiB by default), each chunk a
// ring of its own, so that one chunk's reductions overlap the transfers of others. At most kWindow chunks run at a
// time: a chunk starts once the chunk kWindow before it has completed on this rank, and reuses its tags (its
// messages follow the earlier chunk's on each link, and this rank has already received all of those).
void allreduce_segmented_ring(const Args& a, Schedule& s) {
  constexpr std::size_t kWindow = 4;
  const std::size_t n = a.recvcount, element = a.recvtype->size;
  if (n == 0) return;
  const std::size_t segment = a.segment_bytes > 0 ? a.segment_bytes : 64 * 1024;
  const std::size_t ring_bytes = segment * static_cast<std::size_t>(a.size);
  const std::size_t chunk = element == 0 ? n : std::max<std::size_t>(1, ring_bytes / element);
  // Integer addresses: a buffer may be MPI_BOTTOM with absolute displacements in the type.
  auto shifted = [&](const void* p, std::size_t first) {
    const std::ptrdiff_t bytes = static_cast<std::ptrdiff_t>(first) * a.recvtype->extent();
    return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(p) + static_cast<std::uintptr_t>(bytes));
  };
  // Each ring is built into `s` itself (not appended), since the buffers may be scratch of `s` already.
  std::vector<int> ranks(static_cast<std::size_t>(a.size));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::vector<VertexId> done;
  for (std::size_t first = 0; first < n; first += chunk) {
    Args part = a;
    part.recvbuf = shifted(a.recvbuf, first);
    if (!a.in_place) part.sendbuf = shifted(a.sendbuf, first);
    part.recvcount = part.sendcount = std::min(chunk, n - first);
    const auto start = static_cast<VertexId>(s.vertices().size());
    allreduce_ring(part, s);
    const std::size_t k = done.size();
    const int tags = static_cast<int>(k % kWindow) * kTagsPerRing;
    const VertexId after[] = {k < kWindow ? kNoVertex : done[k - kWindow]};
    done.push_back(s.embed(start, ranks, tags, after));
  }
}

// Rabenseifner: fold, reduce-scatter by recursive halving, allgather by recursive doubling, unfold.
void allreduce_rabenseifner(const Args& a, Schedule& s) {
  folded_allreduce(a, s, [](const Ctx& c, const Fold& f, const Data& out, int v, VertexId ready) {
    const Blocks b = Blocks::even(out.count, f.pof2);
    return halving_allgather(c, f, b, out, v, recursive_halving(c, f, b, out, v, ready));
  });
}

void allreduce_shared_memory(const Args& a, Schedule& s) {
  node_memory_reduce(Ctx(a, s), {NodeFold::kAllreduce, -1, a.size});
}

// The node-memory slices (Rabenseifner's structure on one node): slices of the vector laid out by `b`, each cut in
// area-sized pieces, each piece with a tag of its own.
struct Slices {
  Blocks b;
  std::size_t chunk, pieces;  // elements per piece; pieces of the largest slice

  Slices(const Args& a, const datatype::Datatype& type, Blocks blocks)
      : b(std::move(blocks)), chunk(node_chunk(a, type)), pieces(coll::pieces(b.largest(), chunk)) {}
  int tag(int slice, std::size_t k) const { return static_cast<int>(slice * pieces + k); }
  Data piece(const Data& slice, std::size_t k) const { return coll::piece(slice, chunk, k); }
  std::size_t pieces_of(const Data& slice) const { return coll::pieces(slice.count, chunk); }
};

struct SlicesFolded {
  std::vector<VertexId> pieces;  // each piece of the result reduced
  VertexId published;            // this writer's last publish: its publishes go out in order
};

// The reduce-scatter half: rank i leaves slice i of its input for rank i alone; rank r folds slice r of every input
// into `into` (fold_in_order), reducing straight from the writers' areas. Every rank reduces (p-1) n/p elements.
// Deadlock-free with a writer's few areas: each writer publishes in one order (slices ascending, pieces ascending)
// and each reader takes its pieces in ascending order, so a block waits only for blocks of lower slices or of its
// own reader's earlier pieces, and the reader of slice 0 never waits for another reader.
SlicesFolded fold_slices(const Ctx& c, const Slices& sl, const Data& in, const Data& into) {
  const int r = c.rank(), p = c.size();
  const Data mine = sl.b.of(in, r);
  // In place, this rank's slice of the result may overwrite its input, which the fold still reads: keep it aside.
  const Data own = same(mine, into) && p > 1 ? c.temp(mine.count) : mine;
  const VertexId kept = c.init(mine, own);
  SlicesFolded out{{}, kNoVertex};
  for (int i = 0; i < p; ++i) {
    if (i == r) continue;
    const Data theirs = sl.b.of(in, i);
    for (std::size_t k = 0; k < sl.pieces_of(theirs); ++k)
      out.published = c.publish(sl.piece(theirs, k), {i}, sl.tag(i, k), {out.published});
  }
  std::vector<Data> temps;
  for (int level = 0; level < fold_levels(p); ++level) temps.push_back(c.temp(std::min(sl.chunk, into.count)));
  std::vector<VertexId> temp_free(temps.size(), kNoVertex);
  for (std::size_t k = 0; k < sl.pieces_of(into); ++k) {
    const Data to = sl.piece(into, k), from_own = sl.piece(own, k);
    const auto put = [&](int q, const Data& dest, VertexId after) {
      return q == r ? c.copy(from_own, dest, {kept, after}) : c.read(dest, q, {r}, sl.tag(r, k), {kept, after});
    };
    const auto add_below = [&](int q, const Data& dest, VertexId after) {
      return q == r ? c.reduce(from_own, dest, {after, kept}) : c.read_reduce(dest, q, {r}, sl.tag(r, k), {after});
    };
    out.pieces.push_back(fold_in_order(c, p, to, temps, temp_free, put, add_below));
  }
  return out;
}

// Through the node's shared memory by slices, for long vectors: the reduce-scatter half (fold_slices), then each
// rank leaves its reduced slice for all and reads the others'. Every rank reduces (p-1) n/p elements where
// shared_memory has each reduce (p-1) n.
void allreduce_shared_memory_slices(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  const int r = c.rank(), p = c.size();
  if (n == 0) return;
  const Slices sl(a, *c.type, Blocks::even(n, p));
  const Data out = c.output(n), result = sl.b.of(out, r);
  const SlicesFolded folded = fold_slices(c, sl, c.input(n), result);
  // The reduced slices: out's other slices are written only once this rank's inputs there have gone out (in place).
  const VertexId inputs_out = folded.published;
  VertexId published = folded.published;
  const std::vector<int> everyone_else = all_ranks_but(r, p);
  for (std::size_t k = 0; p > 1 && k < sl.pieces_of(result); ++k)
    published = c.publish(sl.piece(result, k), everyone_else, sl.tag(p, k), {published, folded.pieces[k]});
  for (int q = 0; q < p; ++q) {
    if (q == r) continue;
    const Data theirs = sl.b.of(out, q);
    for (std::size_t k = 0; k < sl.pieces_of(theirs); ++k)
      c.read(sl.piece(theirs, k), q, all_ranks_but(q, p), sl.tag(p, k), {inputs_out});
  }
}

// ---- Reduce_scatter and Reduce_scatter_block ----------------------------------------------------------------------

// The blocks of the input: recvcount each (block), or recvcounts (v).
Blocks block_layout(const Args& a) { return Blocks::even(a.recvcount * static_cast<std::size_t>(a.size), a.size); }
Blocks v_layout(const Args& a) { return Blocks::sized(a.recvcounts); }

template <Blocks (*kLayout)(const Args&)>
void reduce_scatter_ring(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const Blocks b = kLayout(a);
  if (b.total() == 0) return;
  const Data in = c.input(b.total());
  const Placement place = place_result(c, b, in);
  const RingResult rs = ring_reduce_scatter(c, b, in, place.build);
  place.finish(c, {rs.done, rs.input_read});
}

// At step k every rank sends r + k the input block it needs and adds in its own block from r - k.
template <Blocks (*kLayout)(const Args&)>
void reduce_scatter_pairwise(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const Blocks b = kLayout(a);
  if (b.total() == 0) return;
  const int r = c.rank(), p = c.size();
  const Data in = c.input(b.total());
  const Placement place = place_result(c, b, in);
  VertexId acc = c.init(b.of(in, r), place.build);
  std::vector<VertexId> reads{acc};
  Data theirs[2];
  VertexId free[2] = {kNoVertex, kNoVertex};
  for (int k = 1; k < p; ++k) {
    const int to = mod(r + k, p), from = mod(r - k, p);
    reads.push_back(c.send(b.of(in, to), to, kTagExchange, {}));
    if (k <= 2) theirs[k % 2] = c.temp(b.count(r));
    const VertexId got = c.recv(theirs[k % 2], from, kTagExchange, {free[k % 2]});
    acc = free[k % 2] = c.reduce(theirs[k % 2], place.build, {got, acc});
  }
  place.finish(c, {acc, c.join(reads)});
}

// Through the node's shared memory: fold_slices with the call's blocks as the slices, any operator. The result is
// written only once this rank's inputs have gone out (in place they may sit where it goes).
template <Blocks (*kLayout)(const Args&)>
void reduce_scatter_shared_memory(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const Slices sl(a, *c.type, kLayout(a));
  if (sl.b.total() == 0) return;
  const Data in = c.input(sl.b.total());
  const Placement place = place_result(c, sl.b, in);
  const SlicesFolded folded = fold_slices(c, sl, in, place.build);
  std::vector<VertexId> done = folded.pieces;
  done.push_back(folded.published);
  place.finish(c, {c.join(done)});
}

// Any operator: the whole vector reduced to rank 0 along the rank-ordered binomial tree, then each rank's block
// sent to it.
template <Blocks (*kLayout)(const Args&)>
void reduce_scatter_reduce_scatterv(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const Blocks b = kLayout(a);
  if (b.total() == 0) return;
  const int r = c.rank(), p = c.size();
  const Data in = c.input(b.total());
  const Data out = c.output(b.count(r));
  // In place, rank 0's recvbuf is big enough for the whole vector, and its block already sits at the start.
  const Data whole = r != 0 ? Data{} : a.in_place ? in : c.temp(b.total());
  const VertexId reduced = binomial_reduce(c, in, whole, 0);
  if (r != 0) {
    c.recv(out, 0, kTagDown, {reduced});
    return;
  }
  for (int i = 1; i < p; ++i) c.send(b.of(whole, i), i, kTagDown, {reduced});
  if (!same(whole, out)) c.copy(b.of(whole, 0), out, {reduced});
}

// ---- Scan and Exscan ----------------------------------------------------------------------------------------------

// A chain: rank r receives x0 op .. op x(r-1) from r - 1, adds its own on the right, passes the result on.
void scan_linear(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  if (n == 0) return;
  const int r = c.rank(), p = c.size();
  const Data out = c.output(n);
  VertexId ready = c.init(c.input(n), out);
  if (r > 0) {
    const Data lower = c.temp(n);
    const VertexId got = c.recv(lower, r - 1, kTagUp, {});
    ready = c.reduce(lower, out, {got, ready});
  }
  if (r + 1 < p) c.send(out, r + 1, kTagUp, {ready});
}

void exscan_linear(const Args& a, Schedule& s) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  const int r = c.rank(), p = c.size();
  if (n == 0 || p == 1) return;
  const Data in = c.input(n), out = c.output(n);
  if (r == 0) {
    c.send(in, 1, kTagUp, {});
    return;
  }
  if (r == p - 1) {
    c.recv(out, r - 1, kTagUp, {});
    return;
  }
  // x(r) goes aside first: in place, x0 op .. op x(r-1) arrives on top of it.
  const Data mine = c.temp(n);
  const VertexId kept = c.copy(in, mine, {});
  const VertexId got = c.recv(out, r - 1, kTagUp, {kept});
  const VertexId added = c.reduce(out, mine, {got, kept});
  c.send(mine, r + 1, kTagUp, {added});
}

// MPICH's recursive doubling: `partial` holds the reduction over the aligned run of 2^i ranks around r (clipped at
// p); at step i, r ^ 2^i holds the neighbouring run. Both add it to `partial` on its side; a lower run also goes into
// the result (as the whole result the first time, for exscan, which starts without one).
void prefix_recursive_doubling(const Args& a, Schedule& s, bool exclusive) {
  const Ctx c(a, s);
  const std::size_t n = a.recvcount;
  const int r = c.rank(), p = c.size();
  if (n == 0) return;
  const Data in = c.input(n), out = c.output(n);
  if (p == 1) {
    if (!exclusive) c.init(in, out);
    return;
  }
  const Data partial = c.temp(n), theirs = c.temp(n);
  VertexId partial_ready = c.copy(in, partial, {});
  // In place, the result overwrites the input: only after it has been copied into `partial`.
  VertexId out_ready = exclusive ? partial_ready : c.init(in, out);
  bool have_result = !exclusive;
  VertexId theirs_free = kNoVertex;
  for (int mask = 1; mask < p; mask <<= 1) {
    const int partner = r ^ mask;
    if (partner >= p) continue;
    const VertexId sent = c.send(partial, partner, kTagExchange, {partial_ready});
    const VertexId got = c.recv(theirs, partner, kTagExchange, {theirs_free});
    if (partner > r) {
      partial_ready = theirs_free = c.combine(partial, theirs, false, {got, sent});
      continue;
    }
    out_ready = have_result ? c.reduce(theirs, out, {got, out_ready}) : c.copy(theirs, out, {got, out_ready});
    have_result = true;
    partial_ready = c.reduce(theirs, partial, {got, sent});
    theirs_free = c.join({out_ready, partial_ready});
  }
}

void scan_recursive_doubling(const Args& a, Schedule& s) { prefix_recursive_doubling(a, s, false); }
void exscan_recursive_doubling(const Args& a, Schedule& s) { prefix_recursive_doubling(a, s, true); }

void scan_shared_memory(const Args& a, Schedule& s) {
  node_memory_reduce(Ctx(a, s), {NodeFold::kScan, -1, a.size});
}
void exscan_shared_memory(const Args& a, Schedule& s) {
  node_memory_reduce(Ctx(a, s), {NodeFold::kExscan, -1, a.size});
}

// ---- The table ----------------------------------------------------------------------------------------------------

bool commutative(const Args& a) { return a.op->commutative; }

// The call's type where the node's memory can take it (shared, and an element fits an area), else null.
const datatype::Datatype* node_memory_type(const Args& a) {
  const datatype::TypeRef& type = a.recvtype ? a.recvtype : a.sendtype;
  return shares_node_memory(a) && type && type->size <= NodeSegment::kBlockBytes ? type.get() : nullptr;
}

// The node's memory takes the type, and each chunk gets a tag.
bool node_memory_fits(const Args& a) {
  const datatype::Datatype* type = node_memory_type(a);
  return type && pieces(a.recvcount, node_chunk(a, *type)) <= static_cast<std::size_t>(tag_limit(a));
}

// The same for every slice's pieces (and the results' where `results`), and a contiguous layout: the fold reduces
// from the areas.
bool slices_fit(const Args& a, const Blocks& blocks, bool results) {
  const datatype::Datatype* type = node_memory_type(a);
  if (!type || !datatype::contiguous(*type, blocks.total())) return false;
  const Slices sl(a, *type, blocks);
  return (static_cast<std::size_t>(a.size) + (results ? 1 : 0)) * sl.pieces <= static_cast<std::size_t>(tag_limit(a));
}
bool node_memory_slices_fit(const Args& a) { return slices_fit(a, Blocks::even(a.recvcount, a.size), true); }
template <Blocks (*kLayout)(const Args&)>
bool reduce_scatter_node_memory_fits(const Args& a) { return slices_fit(a, kLayout(a), false); }

constexpr Algorithm kAlgorithms[] = {
    {Operation::kReduce, "linear", reduce_linear, nullptr},
    {Operation::kReduce, "binomial", reduce_binomial, nullptr},
    {Operation::kReduce, "pipeline", reduce_pipeline, nullptr},
    {Operation::kReduce, "reduce_scatter_gather", reduce_reduce_scatter_gather, nullptr},
    {Operation::kReduce, "shared_memory", reduce_shared_memory, node_memory_fits},
    {Operation::kAllreduce, "reduce_bcast", allreduce_reduce_bcast, nullptr},
    {Operation::kAllreduce, "recursive_doubling", allreduce_recursive_doubling, nullptr},
    {Operation::kAllreduce, "ring", allreduce_ring, commutative},
    {Operation::kAllreduce, "rabenseifner", allreduce_rabenseifner, nullptr},
    {Operation::kAllreduce, "segmented_ring", allreduce_segmented_ring, commutative},
    {Operation::kAllreduce, "shared_memory", allreduce_shared_memory, node_memory_fits},
    {Operation::kAllreduce, "shared_memory_slices", allreduce_shared_memory_slices, node_memory_slices_fit},
    {Operation::kReduceScatterBlock, "ring", reduce_scatter_ring<block_layout>, commutative},
    {Operation::kReduceScatterBlock, "pairwise", reduce_scatter_pairwise<block_layout>, commutative},
    {Operation::kReduceScatterBlock, "reduce_scatterv", reduce_scatter_reduce_scatterv<block_layout>, nullptr},
    {Operation::kReduceScatterBlock, "shared_memory", reduce_scatter_shared_memory<block_layout>,
     reduce_scatter_node_memory_fits<block_layout>},
    {Operation::kReduceScatter, "ring", reduce_scatter_ring<v_layout>, commutative},
    {Operation::kReduceScatter, "pairwise", reduce_scatter_pairwise<v_layout>, commutative},
    {Operation::kReduceScatter, "reduce_scatterv", reduce_scatter_reduce_scatterv<v_layout>, nullptr},
    {Operation::kReduceScatter, "shared_memory", reduce_scatter_shared_memory<v_layout>,
     reduce_scatter_node_memory_fits<v_layout>},
    {Operation::kScan, "linear", scan_linear, nullptr},
    {Operation::kScan, "recursive_doubling", scan_recursive_doubling, nullptr},
    {Operation::kScan, "shared_memory", scan_shared_memory, node_memory_fits},
    {Operation::kExscan, "linear", exscan_linear, nullptr},
    {Operation::kExscan, "recursive_doubling", exscan_recursive_doubling, nullptr},
    {Operation::kExscan, "shared_memory", exscan_shared_memory, node_memory_fits},
};

}  // namespace

std::span<const Algorithm> reduction_algorithms() { return kAlgorithms; }

}  // namespace strata::coll
