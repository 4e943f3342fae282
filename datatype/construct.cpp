#include "datatype/construct.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strata::datatype {
namespace {

// Overflow-checked arithmetic: the first overflow is remembered and turns the whole construction into an error.
struct Checked {
  bool overflow = false;
  template <class T>
  T add(T a, T b) {
    T r;
    overflow |= __builtin_add_overflow(a, b, &r);
    return r;
  }
  template <class T>
  T sub(T a, T b) {
    T r;
    overflow |= __builtin_sub_overflow(a, b, &r);
    return r;
  }
  template <class T>
  T mul(T a, T b) {
    T r;
    overflow |= __builtin_mul_overflow(a, b, &r);
    return r;
  }
};

// The smallest and largest of the values it has seen, if any.
struct Range {
  std::optional<std::ptrdiff_t> low, high;
  void take(std::ptrdiff_t lo, std::ptrdiff_t hi) {
    low = low ? std::min(*low, lo) : lo;
    high = high ? std::max(*high, hi) : hi;
  }
};

// A new type assembled from blocks of old types. MPI-4.0 5.1.7 defines the bounds on the full type map, in which
// MPI_Type_create_resized's bounds are markers that travel with the type: a new lb is the least lb marker when any
// block carries one, else the least lb of the data; likewise ub. A struct's extent is then padded to its
// alignment (the standard's epsilon; MPICH and Open MPI pad structs only, and so does Strata).
class Builder {
 public:
  // `blocklength` copies of `old`, one extent apart, starting `displacement` bytes from the origin.
  void add(const TypeRef& old, std::size_t blocklength, std::ptrdiff_t displacement) {
    const Datatype& t = *old;
    if (blocklength == 0) return;
    const std::ptrdiff_t span = math_.mul(static_cast<std::ptrdiff_t>(blocklength) - 1, t.extent());
    const std::ptrdiff_t below = std::min<std::ptrdiff_t>(span, 0), above = std::max<std::ptrdiff_t>(span, 0);
    auto lo = [&](std::ptrdiff_t v) { return math_.add(math_.add(displacement, v), below); };
    auto hi = [&](std::ptrdiff_t v) { return math_.add(math_.add(displacement, v), above); };
    if (t.lb_marker) marked_lb_.take(lo(t.lb), lo(t.lb));
    if (t.ub_marker) marked_ub_.take(hi(t.ub), hi(t.ub));
    if (t.size > 0) {
      natural_.take(lo(t.lb), hi(t.ub));
      data_.take(lo(t.true_lb), hi(t.true_ub));
      layout_.append(repeat(std::shared_ptr<const Layout>(old, &t.layout), blocklength, t.extent()), displacement);
      element_ = element_ < 0 || element_ == t.element ? t.element : 0;
    }
    size_ = math_.add(size_, math_.mul(blocklength, t.size));
    elements_ = math_.add(elements_, math_.mul(blocklength, t.elements));
    alignment_ = std::max(alignment_, t.alignment);
    if (!signature_.empty() && signature_.back().type == old)
      signature_.back().repeat += blocklength;
    else
      signature_.push_back({old, blocklength});
  }

  // Everything added so far, `count` times, `stride` bytes apart (vectors, subarrays). One type's blocks only.
  void repeat_all(std::size_t count, std::ptrdiff_t stride) {
    if (count == 0) {
      *this = Builder();
      return;
    }
    const std::ptrdiff_t span = math_.mul(static_cast<std::ptrdiff_t>(count) - 1, stride);
    for (Range* r : {&natural_, &data_, &marked_lb_, &marked_ub_}) {
      if (!r->low) continue;
      r->low = math_.add(*r->low, std::min<std::ptrdiff_t>(span, 0));
      r->high = math_.add(*r->high, std::max<std::ptrdiff_t>(span, 0));
    }
    layout_ = datatype::repeat(std::make_shared<const Layout>(std::move(layout_)), count, stride);
    size_ = math_.mul(size_, count);
    elements_ = math_.mul(elements_, count);
    for (SignaturePart& part : signature_) part.repeat = math_.mul(part.repeat, count);
  }

  void shift(std::ptrdiff_t offset) {
    for (Range* r : {&natural_, &data_, &marked_lb_, &marked_ub_}) {
      if (!r->low) continue;
      r->low = math_.add(*r->low, offset);
      r->high = math_.add(*r->high, offset);
    }
    Layout shifted;
    shifted.append(layout_, offset);
    layout_ = std::move(shifted);
  }

  // The finished type; an error when a size or bound overflowed. `bounds` replaces the computed bounds
  // (resized, subarray) and makes them markers.
  Status finish(Contents contents, bool pad_to_alignment, TypeRef& out,
                std::optional<std::pair<std::ptrdiff_t, std::ptrdiff_t>> bounds = std::nullopt) {
    auto t = std::make_shared<Datatype>();
    t->lb_marker = marked_lb_.low.has_value();
    t->ub_marker = marked_ub_.high.has_value();
    t->lb = marked_lb_.low.value_or(natural_.low.value_or(0));
    t->ub = marked_ub_.high.value_or(natural_.high.value_or(0));
    if (pad_to_alignment && !t->ub_marker) {
      const auto align = static_cast<std::ptrdiff_t>(alignment_);
      const std::ptrdiff_t extent = math_.add(math_.sub(t->ub, t->lb), align - 1);
      if (!math_.overflow) t->ub = math_.add(t->lb, extent - ((extent % align) + align) % align);
    }
    if (bounds) {
      t->lb = bounds->first;
      t->ub = math_.add(bounds->first, bounds->second);
      t->lb_marker = t->ub_marker = true;
    }
    math_.sub(t->ub, t->lb);  // the extent must be representable too
    if (math_.overflow || size_ > static_cast<std::size_t>(PTRDIFF_MAX))
      return error(kErrValueTooLarge, "the new datatype's size or extent does not fit MPI_Count / MPI_Aint");
    t->true_lb = data_.low.value_or(0);
    t->true_ub = data_.high.value_or(0);
    t->size = size_;
    t->elements = elements_;
    t->element = std::max(element_, 0);
    t->alignment = alignment_;
    t->layout = std::move(layout_);
    t->signature = std::move(signature_);
    t->contiguous = size_ == 0 || (t->layout.is_one_block() && static_cast<std::ptrdiff_t>(size_) == t->extent());
    t->contents = std::move(contents);
    out = std::move(t);
    return Status::success();
  }

 private:
  Checked math_;
  Range natural_, data_, marked_lb_, marked_ub_;
  Layout layout_;
  std::vector<SignaturePart> signature_;
  std::size_t size_ = 0, elements_ = 0, alignment_ = 1;
  int element_ = -1;  // -1 until a block with data is added
};

Status null_type(const char* what) { return error(kErrType, std::string(what) + " is MPI_DATATYPE_NULL"); }

Status negative(int error_class, const char* what, long long value) {
  return error(error_class, std::string("negative ") + what + " " + std::to_string(value));
}

Status check_old(const TypeRef& old) { return old ? Status::success() : null_type("oldtype"); }

Contents contents_of(Combiner combiner, std::vector<int> ints, std::vector<std::ptrdiff_t> addresses,
                     std::vector<TypeRef> types) {
  return {combiner, std::move(ints), std::move(addresses), {}, std::move(types)};
}

// A constructor's arguments in MPI_Type_get_contents' order. The int constructors' counts go with the integers and
// their byte displacements with the addresses; the large-count ones' both go with the large counts (MPI-4.0 5.1.13).
// Ranks, orders and distributions are integers in both.
template <class I>
class Recorder {
 public:
  explicit Recorder(Combiner combiner, std::vector<TypeRef> types) {
    contents_.combiner = combiner;
    contents_.types = std::move(types);
  }
  Recorder& integer(int v) {
    contents_.ints.push_back(v);
    return *this;
  }
  Recorder& count(long long v) {
    if constexpr (kLarge) contents_.large_counts.push_back(v);
    else contents_.ints.push_back(static_cast<int>(v));
    return *this;
  }
  Recorder& address(long long v) {
    if constexpr (kLarge) contents_.large_counts.push_back(v);
    else contents_.addresses.push_back(static_cast<std::ptrdiff_t>(v));
    return *this;
  }
  template <class T>
  Recorder& counts(std::span<const T> vs) {
    for (T v : vs) count(v);
    return *this;
  }
  template <class T>
  Recorder& addresses(std::span<const T> vs) {
    for (T v : vs) address(v);
    return *this;
  }
  Recorder& integers(std::span<const int> vs) {
    contents_.ints.insert(contents_.ints.end(), vs.begin(), vs.end());
    return *this;
  }
  Contents done() { return std::move(contents_); }

 private:
  static constexpr bool kLarge = std::is_same_v<I, Count>;
  Contents contents_;
};

// Indexed and hindexed types, with displacements already in bytes.
template <class I, class D>
Status blocks(std::span<const I> blocklengths, std::span<const D> byte_displacements,
              const TypeRef& old, Contents contents, TypeRef& out) {
  if (Status s = check_old(old); !s.ok()) return s;
  Builder b;
  for (std::size_t i = 0; i < blocklengths.size(); ++i) {
    if (blocklengths[i] < 0)
      return error(kErrArg, "negative blocklength " + std::to_string(blocklengths[i]) + " at index " +
                                std::to_string(i));
    b.add(old, static_cast<std::size_t>(blocklengths[i]), byte_displacements[i]);
  }
  return b.finish(std::move(contents), false, out);
}

// Displacements in multiples of the old type's extent, in bytes (an overflow error when they do not fit).
template <class I>
Status scaled(std::span<const I> displacements, const TypeRef& old, std::vector<std::ptrdiff_t>& bytes) {
  if (Status s = check_old(old); !s.ok()) return s;
  Checked math;
  bytes.resize(displacements.size());
  for (std::size_t i = 0; i < displacements.size(); ++i) bytes[i] = math.mul<std::ptrdiff_t>(displacements[i], old->extent());
  if (math.overflow) return error(kErrValueTooLarge, "a displacement times the old type's extent overflows MPI_Aint");
  return Status::success();
}

}  // namespace

template <class I>
Status contiguous(I count, const TypeRef& old, TypeRef& out) {
  if (count < 0) return negative(kErrCount, "count", count);
  if (Status s = check_old(old); !s.ok()) return s;
  Builder b;
  b.add(old, static_cast<std::size_t>(count), 0);
  return b.finish(Recorder<I>(Combiner::kContiguous, {old}).count(count).done(), false, out);
}

namespace {
Status strided(long long count, long long blocklength, std::ptrdiff_t stride, const TypeRef& old, Contents contents,
               TypeRef& out) {
  if (count < 0) return negative(kErrCount, "count", count);
  if (blocklength < 0) return negative(kErrArg, "blocklength", blocklength);
  Builder b;
  b.add(old, static_cast<std::size_t>(blocklength), 0);
  b.repeat_all(static_cast<std::size_t>(count), stride);
  return b.finish(std::move(contents), false, out);
}
}  // namespace

template <class I>
Status vector(I count, I blocklength, I stride, const TypeRef& old, TypeRef& out) {
  if (Status s = check_old(old); !s.ok()) return s;
  std::ptrdiff_t bytes;
  if (__builtin_mul_overflow(static_cast<std::ptrdiff_t>(stride), old->extent(), &bytes))
    return error(kErrValueTooLarge, "stride " + std::to_string(stride) + " times the old type's extent overflows");
  return strided(count, blocklength, bytes, old,
                 Recorder<I>(Combiner::kVector, {old}).count(count).count(blocklength).count(stride).done(), out);
}

template <class I>
Status hvector(I count, I blocklength, Address<I> stride, const TypeRef& old, TypeRef& out) {
  if (Status s = check_old(old); !s.ok()) return s;
  return strided(count, blocklength, static_cast<std::ptrdiff_t>(stride), old,
                 Recorder<I>(Combiner::kHvector, {old}).count(count).count(blocklength).address(stride).done(), out);
}

template <class I>
Status indexed(std::span<const I> blocklengths, std::span<const I> displacements, const TypeRef& old, TypeRef& out) {
  std::vector<std::ptrdiff_t> bytes;
  if (Status s = scaled(displacements, old, bytes); !s.ok()) return s;
  Recorder<I> contents(Combiner::kIndexed, {old});
  contents.count(static_cast<long long>(blocklengths.size())).counts(blocklengths).counts(displacements);
  return blocks(blocklengths, std::span<const std::ptrdiff_t>(bytes), old, contents.done(), out);
}

template <class I>
Status hindexed(std::span<const I> blocklengths, std::span<const Address<I>> displacements, const TypeRef& old,
                TypeRef& out) {
  Recorder<I> contents(Combiner::kHindexed, {old});
  contents.count(static_cast<long long>(blocklengths.size())).counts(blocklengths).addresses(displacements);
  return blocks(blocklengths, displacements, old, contents.done(), out);
}

template <class I>
Status indexed_block(I blocklength, std::span<const I> displacements, const TypeRef& old, TypeRef& out) {
  if (blocklength < 0) return negative(kErrArg, "blocklength", blocklength);
  std::vector<std::ptrdiff_t> bytes;
  if (Status s = scaled(displacements, old, bytes); !s.ok()) return s;
  const std::vector<I> lengths(displacements.size(), blocklength);
  Recorder<I> contents(Combiner::kIndexedBlock, {old});
  contents.count(static_cast<long long>(displacements.size())).count(blocklength).counts(displacements);
  return blocks(std::span<const I>(lengths), std::span<const std::ptrdiff_t>(bytes), old, contents.done(), out);
}

template <class I>
Status hindexed_block(I blocklength, std::span<const Address<I>> displacements, const TypeRef& old, TypeRef& out) {
  if (blocklength < 0) return negative(kErrArg, "blocklength", blocklength);
  const std::vector<I> lengths(displacements.size(), blocklength);
  Recorder<I> contents(Combiner::kHindexedBlock, {old});
  contents.count(static_cast<long long>(displacements.size())).count(blocklength).addresses(displacements);
  return blocks(std::span<const I>(lengths), displacements, old, contents.done(), out);
}

template <class I>
Status structure(std::span<const I> blocklengths, std::span<const Address<I>> displacements,
                 std::span<const TypeRef> types, TypeRef& out) {
  Builder b;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (!types[i]) return null_type(("array_of_types[" + std::to_string(i) + "]").c_str());
    if (blocklengths[i] < 0)
      return error(kErrArg, "negative blocklength " + std::to_string(blocklengths[i]) + " at index " +
                                std::to_string(i));
    b.add(types[i], static_cast<std::size_t>(blocklengths[i]), displacements[i]);
  }
  Recorder<I> contents(Combiner::kStruct, {types.begin(), types.end()});
  contents.count(static_cast<long long>(types.size())).counts(blocklengths).addresses(displacements);
  return b.finish(contents.done(), true, out);
}

// MPI-4.0 5.1.3: the subarray of `subsizes` at `starts` in an array of `sizes` elements of `old`, in C (last
// index fastest) or Fortran order, with lb 0 and the whole array's extent.
template <class I>
Status subarray(std::span<const I> sizes, std::span<const I> subsizes, std::span<const I> starts, int order,
                const TypeRef& old, TypeRef& out) {
  if (Status s = check_old(old); !s.ok()) return s;
  if (sizes.empty()) return error(kErrArg, "ndims is 0: a subarray needs at least one dimension");
  if (order != kOrderC && order != kOrderFortran)
    return error(kErrArg, "order " + std::to_string(order) + " is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
  const std::size_t n = sizes.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string dim = " in dimension " + std::to_string(i);
    if (sizes[i] < 1) return error(kErrArg, "size " + std::to_string(sizes[i]) + dim + " is not positive");
    if (subsizes[i] < 1 || subsizes[i] > sizes[i])
      return error(kErrArg, "subsize " + std::to_string(subsizes[i]) + dim + " is not in 1.." + std::to_string(sizes[i]));
    if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
      return error(kErrArg, "start " + std::to_string(starts[i]) + dim + " is not in 0.." +
                                std::to_string(sizes[i] - subsizes[i]) + " (size " + std::to_string(sizes[i]) +
                                ", subsize " + std::to_string(subsizes[i]) + ")");
  }
  // Dimensions from the fastest-varying one outwards; `stride` is one step in the current dimension, in bytes.
  Checked math;
  Builder b;
  std::ptrdiff_t stride = old->extent(), offset = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t d = order == kOrderC ? n - 1 - k : k;
    if (k == 0)
      b.add(old, static_cast<std::size_t>(subsizes[d]), 0);
    else
      b.repeat_all(static_cast<std::size_t>(subsizes[d]), stride);
    offset = math.add(offset, math.mul<std::ptrdiff_t>(starts[d], stride));
    stride = math.mul<std::ptrdiff_t>(stride, sizes[d]);
  }
  if (math.overflow) return error(kErrValueTooLarge, "the array's extent overflows MPI_Aint");
  b.shift(offset);
  Recorder<I> contents(Combiner::kSubarray, {old});
  contents.integer(static_cast<int>(n)).counts(sizes).counts(subsizes).counts(starts).integer(order);
  return b.finish(contents.done(), false, out,
                  std::pair<std::ptrdiff_t, std::ptrdiff_t>{0, stride});
}

namespace {

// One dimension of a darray: this process's indices are `full` blocks of `block`, `cycle` apart, from `first`,
// then one block of `rest` (MPI-4.0 5.1.4's BLOCK, CYCLIC and NONE are all this shape).
struct Share {
  std::size_t first, block, full, cycle, rest;
};

Status share_of(long long g, int distrib, int darg, int p, int coord, int dim, Share& out) {
  const std::string where = " in dimension " + std::to_string(dim);
  const auto G = static_cast<std::size_t>(g), P = static_cast<std::size_t>(p), c = static_cast<std::size_t>(coord);
  if (darg != kDistributeDfltDarg && darg < 1)
    return error(kErrArg, "darg " + std::to_string(darg) + where + " is neither positive nor MPI_DISTRIBUTE_DFLT_DARG");
  switch (distrib) {
    case kDistributeNone:
      if (p != 1) return error(kErrArg, "MPI_DISTRIBUTE_NONE" + where + " needs psize 1, not " + std::to_string(p));
      out = {0, G, 0, G, G};
      return Status::success();
    case kDistributeBlock: {
      const std::size_t block = darg == kDistributeDfltDarg ? (G + P - 1) / P : static_cast<std::size_t>(darg);
      if (block * P < G)
        return error(kErrArg, "MPI_DISTRIBUTE_BLOCK" + where + ": darg " + std::to_string(darg) + " times psize " +
                                  std::to_string(p) + " does not cover gsize " + std::to_string(g));
      const std::size_t first = std::min(c * block, G);
      out = {first, block, 0, block, std::min(block, G - first)};
      return Status::success();
    }
    case kDistributeCyclic: {
      const std::size_t block = darg == kDistributeDfltDarg ? 1 : static_cast<std::size_t>(darg);
      const std::size_t first = std::min(c * block, G), cycle = block * P;
      const std::size_t full = (G - first) / cycle;
      out = {first, block, full, cycle, std::min(block, G - first - full * cycle)};
      return Status::success();
    }
  }
  return error(kErrArg, "distribution " + std::to_string(distrib) + where +
                            " is not MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC or MPI_DISTRIBUTE_NONE");
}

}  // namespace

// Built one dimension at a time from the fastest-varying: each step is a type of the whole dimension's extent
// holding this process's share of it, so the layout stays a few strided pieces per dimension.
template <class I>
Status darray(int size, int rank, std::span<const I> gsizes, std::span<const int> distribs,
              std::span<const int> dargs, std::span<const int> psizes, int order, const TypeRef& old, TypeRef& out) {
  if (Status s = check_old(old); !s.ok()) return s;
  const std::size_t n = gsizes.size();
  if (size < 1) return error(kErrArg, "size " + std::to_string(size) + " is not positive");
  if (rank < 0 || rank >= size) return error(kErrArg, "rank " + std::to_string(rank) + " is not in 0.." + std::to_string(size - 1));
  if (n == 0) return error(kErrArg, "ndims is 0: a darray needs at least one dimension");
  if (order != kOrderC && order != kOrderFortran)
    return error(kErrArg, "order " + std::to_string(order) + " is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN");
  long long processes = 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (gsizes[i] < 1 || psizes[i] < 1)
      return error(kErrArg, "gsize " + std::to_string(gsizes[i]) + " and psize " + std::to_string(psizes[i]) +
                                " in dimension " + std::to_string(i) + " must be positive");
    processes *= psizes[i];
    if (processes > size) break;
  }
  if (processes != size)
    return error(kErrArg, "the process grid (psizes) does not have size " + std::to_string(size) + " processes");
  std::vector<int> coords(n);  // the grid is row-major whatever the array's order
  for (std::size_t i = n, r = static_cast<std::size_t>(rank); i-- > 0; r /= static_cast<std::size_t>(psizes[i]))
    coords[i] = static_cast<int>(r % static_cast<std::size_t>(psizes[i]));

  Recorder<I> record(Combiner::kDarray, {old});
  record.integer(size).integer(rank).integer(static_cast<int>(n)).counts(gsizes).integers(distribs).integers(dargs);
  const Contents contents = record.integers(psizes).integer(order).done();
  Checked math;
  TypeRef step = old;
  std::ptrdiff_t stride = old->extent();  // one index step in the current dimension, in bytes
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t d = order == kOrderC ? n - 1 - k : k;
    Share share;
    if (Status s = share_of(gsizes[d], distribs[d], dargs[d], psizes[d], coords[d], static_cast<int>(d), share); !s.ok())
      return s;
    Builder b;
    if (share.full > 0) {
      b.add(step, share.block, 0);
      b.repeat_all(share.full, math.mul(static_cast<std::ptrdiff_t>(share.cycle), stride));
    }
    b.add(step, share.rest, math.mul(static_cast<std::ptrdiff_t>(share.full * share.cycle), stride));
    b.shift(math.mul(static_cast<std::ptrdiff_t>(share.first), stride));
    const std::ptrdiff_t extent = math.mul<std::ptrdiff_t>(gsizes[d], stride);
    if (math.overflow) return error(kErrValueTooLarge, "the array's extent overflows MPI_Aint");
    if (Status s = b.finish(k + 1 == n ? contents : Contents{}, false, step,
                            std::pair<std::ptrdiff_t, std::ptrdiff_t>{0, extent});
        !s.ok())
      return s;
    stride = extent;
  }
  out = std::move(step);
  return Status::success();
}

template <class I>
Status resized(const TypeRef& old, Address<I> lb, Address<I> extent, TypeRef& out) {
  if (Status s = check_old(old); !s.ok()) return s;
  Builder b;
  b.add(old, 1, 0);
  return b.finish(Recorder<I>(Combiner::kResized, {old}).address(lb).address(extent).done(), false, out,
                  std::pair<std::ptrdiff_t, std::ptrdiff_t>{lb, extent});
}

Status dup(const TypeRef& old, TypeRef& out) {
  if (Status s = check_old(old); !s.ok()) return s;
  Builder b;
  b.add(old, 1, 0);
  Status s = b.finish(contents_of(Combiner::kDup, {}, {}, {old}), false, out);
  if (s.ok()) std::const_pointer_cast<Datatype>(out)->committed = old->committed;
  return s;
}

// Both widths of every constructor (construct.hpp).
#define STRATA_CONSTRUCTORS(I)                                                                                     \
  template Status contiguous<I>(I, const TypeRef&, TypeRef&);                                                      \
  template Status vector<I>(I, I, I, const TypeRef&, TypeRef&);                                                    \
  template Status hvector<I>(I, I, Address<I>, const TypeRef&, TypeRef&);                                          \
  template Status indexed<I>(std::span<const I>, std::span<const I>, const TypeRef&, TypeRef&);                    \
  template Status hindexed<I>(std::span<const I>, std::span<const Address<I>>, const TypeRef&, TypeRef&);          \
  template Status indexed_block<I>(I, std::span<const I>, const TypeRef&, TypeRef&);                               \
  template Status hindexed_block<I>(I, std::span<const Address<I>>, const TypeRef&, TypeRef&);                     \
  template Status structure<I>(std::span<const I>, std::span<const Address<I>>, std::span<const TypeRef>,          \
                               TypeRef&);                                                                          \
  template Status subarray<I>(std::span<const I>, std::span<const I>, std::span<const I>, int, const TypeRef&,     \
                              TypeRef&);                                                                           \
  template Status darray<I>(int, int, std::span<const I>, std::span<const int>, std::span<const int>,              \
                            std::span<const int>, int, const TypeRef&, TypeRef&);                                  \
  template Status resized<I>(const TypeRef&, Address<I>, Address<I>, TypeRef&);
STRATA_CONSTRUCTORS(int)
STRATA_CONSTRUCTORS(Count)
#undef STRATA_CONSTRUCTORS

}  // namespace strata::datatype
