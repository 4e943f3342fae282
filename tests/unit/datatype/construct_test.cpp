// Derived datatype constructors (MPI-4.0 5.1.2 - 5.1.7) and MPI_Get_elements (5.1.11) against a reference written
// here from the standard's type maps: every constructor is expanded literally into an explicit list of basic
// entries {displacement, size, predefined type} with explicit bounds, and pack, unpack, pack_range, unpack_range,
// basic_elements and every Datatype field are compared with what that list says. Hand-written cases (counts 0, 1,
// several; negative displacements and strides; zero blocklengths; three-deep nesting; MAXLOC pairs; absolute
// addresses) and random nested types with a fixed seed; layout size of huge types; error classes and overflow.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "datatype/construct.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"

using namespace strata::datatype;
namespace dt = strata::datatype;
using strata::Status;
using strata::kErrArg, strata::kErrCount, strata::kErrType;

namespace {

// ---- Reference: explicit type maps ---------------------------------------------------------------------------------

// A basic element; `kind` is the predefined type it comes from (both halves of a MAXLOC pair carry the pair's).
struct Entry { std::ptrdiff_t disp; std::size_t size; int kind; };

struct Ref {
  std::vector<Entry> entries;  // type-map order, which is the packed order
  std::ptrdiff_t lb = 0, ub = 0;
  bool marked = false;         // lb and ub are MPI_Type_create_resized markers, sticky in later constructors
  std::size_t align = 1;       // largest alignof of the basic types

  std::ptrdiff_t extent() const { return ub - lb; }
  std::size_t size() const {
    std::size_t s = 0;
    for (const Entry& e : entries) s += e.size;
    return s;
  }
  std::ptrdiff_t true_lb() const {
    std::ptrdiff_t v = entries.empty() ? 0 : PTRDIFF_MAX;
    for (const Entry& e : entries) v = std::min(v, e.disp);
    return v;
  }
  std::ptrdiff_t true_ub() const {
    std::ptrdiff_t v = entries.empty() ? 0 : PTRDIFF_MIN;
    for (const Entry& e : entries) v = std::max(v, e.disp + std::ptrdiff_t(e.size));
    return v;
  }
};

template <class T>
Ref r_scalar(int kind) {
  return {{{0, sizeof(T), kind}}, 0, std::ptrdiff_t(sizeof(T)), false, alignof(T)};
}
// The MAXLOC/MINLOC pairs are the C struct {value; int}: two basic elements, extent with the struct's padding.
template <class V>
Ref r_pair(int kind) {
  struct P { V value; int index; };
  return {{{0, sizeof(V), kind}, {std::ptrdiff_t(offsetof(P, index)), sizeof(int), kind}},
          0, std::ptrdiff_t(sizeof(P)), false, alignof(P)};
}

Ref r_predefined(int k) {
  switch (k) {
    case kChar: return r_scalar<char>(k);
    case kShort: return r_scalar<short>(k);
    case kInt: return r_scalar<int>(k);
    case kFloat: return r_scalar<float>(k);
    case kDouble: return r_scalar<double>(k);
    case kLongDouble: return r_scalar<long double>(k);  // opaque: all sizeof bytes travel
    case kInt64: return r_scalar<std::int64_t>(k);
    case kCDoubleComplex: return r_scalar<std::complex<double>>(k);  // one basic element
    case kFloatInt: return r_pair<float>(k);
    case kDoubleInt: return r_pair<double>(k);
    case kLongInt: return r_pair<long>(k);
    case k2Int: return r_pair<int>(k);
    case kShortInt: return r_pair<short>(k);
    case kLongDoubleInt: return r_pair<long double>(k);
    default: ADD_FAILURE() << "no reference for predefined type " << k; return {};
  }
}

// Lays copies of old types into a new type map. Each copy brings its bounds along (MPI-4.0 5.1.6: the markers of
// the old type are in its type map; MPICH's MPII_DATATYPE_BLOCK_LB_UB does the same with the plain bounds). For a
// type without padding the plain bounds are exactly min displacement / max displacement + size of the entries;
// with padding (MPI_DOUBLE_INT, a padded struct) each copy keeps its padding, so contiguous(2, MPI_DOUBLE_INT)
// spans 32 bytes as the C array does, not 28. When some copies carry markers, only the markers count.
class Placer {
 public:
  void copy(const Ref& old, std::ptrdiff_t at) {
    for (const Entry& e : old.entries) out_.entries.push_back({at + e.disp, e.size, e.kind});
    if (!old.marked && old.entries.empty()) return;  // no data, no markers: nothing in the type map
    Bounds& b = old.marked ? marked_ : plain_;
    b.lb = b.any ? std::min(b.lb, at + old.lb) : at + old.lb;
    b.ub = b.any ? std::max(b.ub, at + old.ub) : at + old.ub;
    b.any = true;
    out_.align = std::max(out_.align, old.align);
  }
  // A struct's extent (not its ub) is rounded up to its alignment unless markers fix it (5.1.6's epsilon; MPICH
  // pads structs only). A type with neither data nor markers has all bounds 0, as MPICH's zero-length types.
  Ref finish(bool pad) {
    const Bounds& b = marked_.any ? marked_ : plain_;
    out_.marked = marked_.any;
    out_.lb = b.lb;
    out_.ub = b.ub;
    const auto a = std::ptrdiff_t(out_.align);
    if (pad && b.any && !out_.marked && out_.extent() % a != 0) out_.ub += a - out_.extent() % a;
    return std::move(out_);
  }

 private:
  struct Bounds { std::ptrdiff_t lb = 0, ub = 0; bool any = false; };
  Ref out_;
  Bounds plain_, marked_;
};

// 5.1.2: count blocks of blocklength copies, the blocks stride bytes apart, the copies within a block one extent.
Ref r_hvector(int count, int bl, std::ptrdiff_t stride, const Ref& old) {
  Placer p;
  for (int i = 0; i < count; ++i)
    for (int j = 0; j < bl; ++j) p.copy(old, i * stride + j * old.extent());
  return p.finish(false);
}
Ref r_contiguous(int count, const Ref& old) { return r_hvector(1, count, 0, old); }  // count copies, one extent apart
Ref r_vector(int count, int bl, int stride, const Ref& old) { return r_hvector(count, bl, stride * old.extent(), old); }
// 5.1.2, hindexed and struct: block i is bls[i] copies of olds[i] from disps[i] bytes, one extent apart.
Ref r_blocks(const std::vector<int>& bls, const std::vector<std::ptrdiff_t>& disps, const std::vector<Ref>& olds,
             bool is_struct) {
  Placer p;
  for (std::size_t i = 0; i < bls.size(); ++i)
    for (int j = 0; j < bls[i]; ++j) p.copy(olds[i], disps[i] + j * olds[i].extent());
  return p.finish(is_struct);
}
Ref r_hindexed(const std::vector<int>& bls, const std::vector<std::ptrdiff_t>& disps, const Ref& old) {
  return r_blocks(bls, disps, std::vector<Ref>(bls.size(), old), false);
}
Ref r_indexed(const std::vector<int>& bls, const std::vector<int>& disps, const Ref& old) {
  std::vector<std::ptrdiff_t> bytes;
  for (int d : disps) bytes.push_back(d * old.extent());
  return r_hindexed(bls, bytes, old);
}
Ref r_resized(const Ref& old, std::ptrdiff_t lb, std::ptrdiff_t extent) {
  Ref r = old;  // 5.1.7: the old markers are erased, new ones put at lb and lb + extent
  r.lb = lb, r.ub = lb + extent, r.marked = true;
  return r;
}
// 5.1.3: the subarray's elements in array storage order (last index fastest in C, first in Fortran), within a
// type whose lb is 0 and whose ub is the end of the whole array.
Ref r_subarray(const std::vector<int>& sizes, const std::vector<int>& subsizes, const std::vector<int>& starts,
               int order, const Ref& old) {
  const int n = int(sizes.size());
  std::vector<int> dims(n);  // slowest to fastest in memory
  for (int k = 0; k < n; ++k) dims[k] = order == kOrderC ? k : n - 1 - k;
  std::vector<std::ptrdiff_t> stride(n);
  std::ptrdiff_t whole = 1;
  for (int k = n - 1; k >= 0; --k) stride[dims[k]] = whole, whole *= sizes[dims[k]];
  Placer p;
  std::vector<int> idx(n, 0);
  for (int k = 0; k >= 0;) {
    std::ptrdiff_t off = 0;
    for (int d = 0; d < n; ++d) off += (starts[d] + idx[d]) * stride[d];
    p.copy(old, off * old.extent());
    for (k = n - 1; k >= 0 && ++idx[dims[k]] == subsizes[dims[k]]; --k) idx[dims[k]] = 0;
  }
  return r_resized(p.finish(false), 0, whole * old.extent());
}

int r_element(const Ref& r) {
  for (const Entry& e : r.entries)
    if (e.kind != r.entries[0].kind) return 0;
  return r.entries[0].kind;
}
bool r_one_run(const Ref& r) {  // one element's entries are one gapless ascending run
  for (std::size_t i = 1; i < r.entries.size(); ++i)
    if (r.entries[i].disp != r.entries[i - 1].disp + std::ptrdiff_t(r.entries[i - 1].size)) return false;
  return !r.entries.empty();
}
// 5.1.11: the basic elements wholly inside the stream's first `bytes`, -1 if it ends inside one.
std::ptrdiff_t r_basic_elements(const Ref& r, std::size_t bytes) {
  const std::size_t size = r.size();
  if (size == 0) return 0;
  std::ptrdiff_t n = std::ptrdiff_t(bytes / size * r.entries.size());
  std::size_t pos = 0;
  for (const Entry& e : r.entries) {
    if (pos == bytes % size) return n;
    if (pos + e.size > bytes % size) return -1;
    pos += e.size, ++n;
  }
  return n;
}

// Where each basic element of `count` elements lands, in stream order: {offset from buf, size}.
using Places = std::vector<std::pair<std::ptrdiff_t, std::size_t>>;
Places placed(const Ref& r, std::size_t count) {
  Places v;
  for (std::size_t i = 0; i < count; ++i)
    for (const Entry& e : r.entries) v.push_back({std::ptrdiff_t(i) * r.extent() + e.disp, e.size});
  return v;
}

// Memory for `count` elements: the bytes they touch and a margin each side; buf() is the buffer argument.
struct Memory {
  std::vector<unsigned char> bytes;
  std::ptrdiff_t origin;
  unsigned char* buf() { return bytes.data() + origin; }
};
constexpr std::ptrdiff_t kMargin = 32;
constexpr unsigned char kSentinel = 0xA5;

Memory memory_for(const Places& places, bool pattern) {
  std::ptrdiff_t lo = 0, hi = 0;
  for (auto [at, n] : places) lo = std::min(lo, at), hi = std::max(hi, at + std::ptrdiff_t(n));
  Memory m{std::vector<unsigned char>(hi - lo + 2 * kMargin, kSentinel), kMargin - lo};
  if (pattern)
    for (std::size_t i = 0; i < m.bytes.size(); ++i) m.bytes[i] = static_cast<unsigned char>(i * 37 + 11);
  return m;
}

std::vector<unsigned char> r_pack(const Places& places, const unsigned char* buf) {
  std::vector<unsigned char> s;
  for (auto [at, n] : places) s.insert(s.end(), buf + at, buf + at + n);
  return s;
}
// Unpacks the stream's first `bytes`; returns the basic element the prefix cuts (offset from buf, length), whose
// bytes the caller does not compare.
std::pair<std::ptrdiff_t, std::size_t> r_unpack(const Places& places, const unsigned char* in, std::size_t bytes,
                                                 unsigned char* buf) {
  std::size_t pos = 0;
  for (auto [at, n] : places) {
    if (pos + n > bytes) return {at, pos < bytes ? n : 0};
    std::memcpy(buf + at, in + pos, n);
    pos += n;
  }
  return {0, 0};
}
bool overlaps(Places v) {  // receiving into overlapping entries is erroneous
  std::sort(v.begin(), v.end());
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i].first < v[i - 1].first + std::ptrdiff_t(v[i - 1].second)) return true;
  return false;
}

// ---- Engine and reference side by side -----------------------------------------------------------------------------

struct Type { TypeRef t; Ref r; std::string what; };

TypeRef build(const std::function<Status(TypeRef&)>& make) {
  TypeRef out;
  Status s = make(out);
  EXPECT_TRUE(s.ok()) << s.message;
  return s.ok() ? out : nullptr;
}
template <class V>
std::string str(const std::vector<V>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}
template <class... A>
std::string call(const std::string& name, const A&... args) {
  std::string s;
  ((s += (s.empty() ? "" : ",") + args), ...);
  return name + "(" + s + ")";
}
using std::to_string;
using Ints = std::vector<int>;
using Aints = std::vector<std::ptrdiff_t>;

Type predef(int k) { return {predefined(k), r_predefined(k), "T" + to_string(k)}; }
Type contiguous_of(int n, const Type& o) {
  return {build([&](TypeRef& out) { return dt::contiguous(n, o.t, out); }), r_contiguous(n, o.r),
          call("contiguous", to_string(n), o.what)};
}
Type vector_of(int n, int bl, int stride, const Type& o) {
  return {build([&](TypeRef& out) { return dt::vector(n, bl, stride, o.t, out); }), r_vector(n, bl, stride, o.r),
          call("vector", to_string(n), to_string(bl), to_string(stride), o.what)};
}
Type hvector_of(int n, int bl, std::ptrdiff_t stride, const Type& o) {
  return {build([&](TypeRef& out) { return dt::hvector(n, bl, stride, o.t, out); }), r_hvector(n, bl, stride, o.r),
          call("hvector", to_string(n), to_string(bl), to_string(stride), o.what)};
}
Type indexed_of(const Ints& bls, const Ints& disps, const Type& o) {
  return {build([&](TypeRef& out) { return dt::indexed(bls, disps, o.t, out); }), r_indexed(bls, disps, o.r),
          call("indexed", str(bls), str(disps), o.what)};
}
Type hindexed_of(const Ints& bls, const Aints& disps, const Type& o) {
  return {build([&](TypeRef& out) { return dt::hindexed(bls, disps, o.t, out); }), r_hindexed(bls, disps, o.r),
          call("hindexed", str(bls), str(disps), o.what)};
}
Type indexed_block_of(int bl, const Ints& disps, const Type& o) {
  return {build([&](TypeRef& out) { return dt::indexed_block(bl, disps, o.t, out); }),
          r_indexed(Ints(disps.size(), bl), disps, o.r), call("indexed_block", to_string(bl), str(disps), o.what)};
}
Type hindexed_block_of(int bl, const Aints& disps, const Type& o) {
  return {build([&](TypeRef& out) { return dt::hindexed_block(bl, disps, o.t, out); }),
          r_hindexed(Ints(disps.size(), bl), disps, o.r), call("hindexed_block", to_string(bl), str(disps), o.what)};
}
Type struct_of(const Ints& bls, const Aints& disps, const std::vector<Type>& os) {
  std::vector<TypeRef> ts;
  std::vector<Ref> rs;
  std::string w;
  for (const Type& o : os) ts.push_back(o.t), rs.push_back(o.r), w += "," + o.what;
  return {build([&](TypeRef& out) { return dt::structure(bls, disps, ts, out); }), r_blocks(bls, disps, rs, true),
          call("struct", str(bls), str(disps) + w)};
}
Type subarray_of(const Ints& sizes, const Ints& subsizes, const Ints& starts, int order, const Type& o) {
  return {build([&](TypeRef& out) { return dt::subarray(sizes, subsizes, starts, order, o.t, out); }),
          r_subarray(sizes, subsizes, starts, order, o.r),
          call("subarray", str(sizes), str(subsizes), str(starts), std::string(order == kOrderC ? "C" : "F"), o.what)};
}
// 5.1.4 read element by element: global index i of a dimension belongs to grid coordinate i / block (BLOCK),
// (i / darg) % psize (CYCLIC) or 0 (NONE); the process keeps, in array storage order, the elements whose every
// index it owns, within the whole array's extent.
Ref r_darray(int rank, const Ints& gsizes, const Ints& distribs, const Ints& dargs, const Ints& psizes, int order,
             const Ref& old) {
  const int n = int(gsizes.size());
  Ints coord(n);
  for (int d = n - 1, r = rank; d >= 0; r /= psizes[d], --d) coord[d] = r % psizes[d];  // row-major grid
  auto owner = [&](int d, int i) {
    const int darg = dargs[d], p = psizes[d], g = gsizes[d];
    if (distribs[d] == dt::kDistributeNone) return 0;
    if (distribs[d] == dt::kDistributeBlock) return i / (darg == dt::kDistributeDfltDarg ? (g + p - 1) / p : darg);
    return i / (darg == dt::kDistributeDfltDarg ? 1 : darg) % p;
  };
  Ints dims(n);  // slowest to fastest in memory
  for (int k = 0; k < n; ++k) dims[k] = order == kOrderC ? k : n - 1 - k;
  std::ptrdiff_t whole = 1;
  for (int g : gsizes) whole *= g;
  Placer p;
  Ints idx(n, 0);
  for (std::ptrdiff_t linear = 0; linear < whole; ++linear) {  // idx is the multi-index at storage offset `linear`
    bool mine = true;
    for (int d = 0; d < n; ++d) mine = mine && owner(d, idx[d]) == coord[d];
    if (mine) p.copy(old, linear * old.extent());
    for (int k = n - 1; k >= 0 && ++idx[dims[k]] == gsizes[dims[k]]; --k) idx[dims[k]] = 0;
  }
  return r_resized(p.finish(false), 0, whole * old.extent());
}
Type darray_of(int size, int rank, const Ints& gsizes, const Ints& distribs, const Ints& dargs, const Ints& psizes,
               int order, const Type& o) {
  return {build([&](TypeRef& out) { return dt::darray(size, rank, gsizes, distribs, dargs, psizes, order, o.t, out); }),
          r_darray(rank, gsizes, distribs, dargs, psizes, order, o.r),
          call("darray", to_string(rank), str(gsizes), str(distribs), str(dargs), str(psizes),
               std::string(order == kOrderC ? "C" : "F"), o.what)};
}
Type resized_of(const Type& o, std::ptrdiff_t lb, std::ptrdiff_t extent) {
  return {build([&](TypeRef& out) { return dt::resized(o.t, lb, extent, out); }), r_resized(o.r, lb, extent),
          call("resized", o.what, to_string(lb), to_string(extent))};
}
Type dup_of(const Type& o) {
  return {build([&](TypeRef& out) { return dt::dup(o.t, out); }), o.r, call("dup", o.what)};
}

// ---- Checks --------------------------------------------------------------------------------------------------------

void check_fields(const Datatype& t, const Ref& r) {
  EXPECT_EQ(t.size, r.size());
  EXPECT_EQ(t.layout.size, r.size());
  EXPECT_EQ(t.lb, r.lb);
  EXPECT_EQ(t.ub, r.ub);
  EXPECT_EQ(t.extent(), r.extent());
  EXPECT_EQ(t.true_lb, r.true_lb());
  EXPECT_EQ(t.true_ub, r.true_ub());
  EXPECT_EQ(t.lb_marker, r.marked);
  EXPECT_EQ(t.ub_marker, r.marked);
  EXPECT_EQ(t.elements, r.entries.size());
  if (r.entries.empty()) return;  // an empty type's element and alignment mean nothing
  EXPECT_EQ(t.element, r_element(r));
  EXPECT_EQ(t.alignment, r.align);
  EXPECT_EQ(t.contiguous, r_one_run(r) && r.extent() == std::ptrdiff_t(r.size())) << "contiguous";
  EXPECT_EQ(contiguous(t, 1), r_one_run(r)) << "contiguous(t, 1)";
}

// The inverse (MPI_Status_set_elements): the bytes of the stream's first n basic elements.
std::size_t r_bytes_of_elements(const Ref& r, std::size_t n) {
  if (r.entries.empty()) return 0;
  std::size_t bytes = n / r.entries.size() * r.size();
  for (std::size_t i = 0; i < n % r.entries.size(); ++i) bytes += r.entries[i].size;
  return bytes;
}

void check_basic_elements(const Datatype& t, const Ref& r, std::mt19937& rng) {
  for (std::size_t n = 0; n <= 2 * r.entries.size() + 1 && n <= 4096; ++n)
    if (bytes_of_elements(t, n) != r_bytes_of_elements(r, n)) {
      ADD_FAILURE() << "bytes_of_elements(" << n << "): expected " << r_bytes_of_elements(r, n) << ", got "
                    << bytes_of_elements(t, n);
      return;
    }
  const std::size_t size = r.size();
  for (std::size_t i = 0, n = size <= 4096 ? 2 * size + 1 : 200; i < n; ++i) {
    const std::size_t b = size <= 4096 ? i : rng() % (2 * size + 1);  // every byte count, or a sample
    if (basic_elements(t, b) != r_basic_elements(r, b)) {
      ADD_FAILURE() << "basic_elements(" << b << "): expected " << r_basic_elements(r, b) << ", got "
                    << basic_elements(t, b);
      return;
    }
  }
}

::testing::AssertionResult same(const unsigned char* got, const unsigned char* want, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != want[i])
      return ::testing::AssertionFailure() << "byte " << i << " of " << n << ": expected " << int(want[i])
                                           << ", got " << int(got[i]);
  return ::testing::AssertionSuccess();
}
bool untouched(const unsigned char* p, std::size_t n) {
  return std::all_of(p, p + n, [](unsigned char c) { return c == kSentinel; });
}

// Split points of the stream: all of them for small streams, a random sample for large ones.
std::vector<std::size_t> cut_points(std::size_t total, std::mt19937& rng) {
  std::vector<std::size_t> v = {0, total};
  for (std::size_t k = 1; k < total; ++k)
    if (total <= 256 || rng() % total < 40) v.push_back(k);
  return v;
}

void check_pack(const Datatype& t, const Ref& r, std::size_t count, std::mt19937& rng) {
  SCOPED_TRACE("count " + to_string(count));
  const Places places = placed(r, count);
  Memory src = memory_for(places, true);
  const std::vector<unsigned char> stream = r_pack(places, src.buf());
  const std::size_t total = stream.size();
  ASSERT_EQ(wire_bytes(t, count), total);
  constexpr std::size_t kGuard = 16;

  std::vector<unsigned char> out(total + kGuard, kSentinel);
  pack(src.buf(), count, t, out.data());
  EXPECT_TRUE(same(out.data(), stream.data(), total)) << "pack";
  EXPECT_TRUE(untouched(out.data() + total, kGuard)) << "pack wrote past the stream";

  for (std::size_t k : cut_points(total, rng)) {  // [0, k), [k, total), and a random range
    const std::size_t from = rng() % (total + 1), len = rng() % (total - from + 1);
    for (auto [a, n] : {std::pair{std::size_t{0}, k}, std::pair{k, total - k}, std::pair{from, len}}) {
      std::vector<unsigned char> part(n + kGuard, kSentinel);
      pack_range(src.buf(), count, t, a, n, part.data());
      auto ok = same(part.data(), stream.data() + a, n);
      if (!ok || !untouched(part.data() + n, kGuard)) {
        ADD_FAILURE() << "pack_range(" << a << ", " << n << "): " << ok.message();
        return;
      }
    }
  }

  if (overlaps(places)) return;
  const Memory blank = memory_for(places, false);
  Memory want = blank, got = blank;
  r_unpack(places, stream.data(), total, want.buf());
  unpack(stream.data(), total, count, t, got.buf());
  EXPECT_TRUE(same(got.bytes.data(), want.bytes.data(), want.bytes.size())) << "unpack";

  for (std::size_t k : cut_points(total, rng)) {
    // A truncated message: the prefix lands, all else keeps the sentinel (the cut basic element is not compared).
    Memory w = blank, g = blank, h = blank;
    auto [cut, cut_len] = r_unpack(places, stream.data(), k, w.buf());
    unpack(stream.data(), k, count, t, g.buf());
    std::memcpy(g.buf() + cut, w.buf() + cut, cut_len);
    if (auto ok = same(g.bytes.data(), w.bytes.data(), w.bytes.size()); !ok) {
      ADD_FAILURE() << "unpack of the first " << k << " bytes: " << ok.message();
      return;
    }
    // unpack_range of [0, k) then [k, total) restores everything.
    unpack_range(stream.data(), count, t, 0, k, h.buf());
    unpack_range(stream.data() + k, count, t, k, total - k, h.buf());
    if (auto ok = same(h.bytes.data(), want.bytes.data(), want.bytes.size()); !ok) {
      ADD_FAILURE() << "unpack_range split at " << k << ": " << ok.message();
      return;
    }
  }
}

void check(const Type& x, std::initializer_list<std::size_t> counts = {0, 1, 3}) {
  SCOPED_TRACE(x.what);
  ASSERT_NE(x.t, nullptr);
  check_fields(*x.t, x.r);
  std::mt19937 rng(12345);
  check_basic_elements(*x.t, x.r, rng);
  for (std::size_t c : counts) check_pack(*x.t, x.r, c, rng);
}

// ---- Each constructor over predefined types ------------------------------------------------------------------------

const int kOlds[] = {kChar, kInt, kDouble, kLongDouble, kDoubleInt, kShortInt, kCDoubleComplex};

TEST(Construct, Predefined) {
  for (int k : kOlds) check(predef(k), {0, 1, 4});
}

TEST(Construct, Contiguous) {
  for (int k : kOlds)
    for (int n : {0, 1, 5}) check(contiguous_of(n, predef(k)));
}

TEST(Construct, VectorAndHvector) {
  struct V { int count, bl, stride; };
  for (int k : kOlds)
    for (V v : {V{0, 2, 3}, V{1, 1, 1}, V{4, 2, 3}, V{3, 2, -3}, V{3, 0, 2}, V{2, 3, 2}, V{5, 1, 0}, V{3, 2, 2}}) {
      check(vector_of(v.count, v.bl, v.stride, predef(k)));
      check(hvector_of(v.count, v.bl, v.stride * 5 - 1, predef(k)));  // strides of odd bytes, negative ones too
    }
}

TEST(Construct, IndexedFamily) {
  for (int k : kOlds) {
    check(indexed_of({2, 0, 3, 1}, {5, -3, 0, 10}, predef(k)));
    check(indexed_of({0, 0}, {1, 2}, predef(k)));
    check(indexed_of({}, {}, predef(k)));
    check(indexed_of({1, 1, 1}, {2, 1, 0}, predef(k)));  // descending: stream order is not memory order
    check(hindexed_of({1, 0, 2}, {-16, 100, 3}, predef(k)));
    check(hindexed_of({3}, {-7}, predef(k)));
    check(indexed_block_of(2, {4, -2, 0}, predef(k)));
    check(indexed_block_of(0, {1, 2}, predef(k)));
    check(indexed_block_of(1, {}, predef(k)));
    check(hindexed_block_of(3, {-40, 0, 13}, predef(k)));
    check(hindexed_block_of(1, {-1}, predef(k)));
  }
}

TEST(Construct, Struct) {
  const Type c = predef(kChar), i = predef(kInt), d = predef(kDouble), di = predef(kDoubleInt);
  check(struct_of({1, 2, 3}, {0, 8, 24}, {i, d, c}));  // padded to 32
  check(struct_of({1, 1}, {-1, 0}, {c, d}));            // lb -1: the extent, not ub, is rounded
  check(struct_of({1, 0, 2}, {4, -100, 0}, {i, d, c}));
  check(struct_of({1, 1}, {0, -6}, {di, predef(kShort)}));
  check(struct_of({2, 1}, {0, 40}, {predef(kLongDouble), c}));
  check(struct_of({}, {}, {}));
  check(struct_of({0}, {8}, {d}));
  check(struct_of({1, 2}, {0, 100}, {i, contiguous_of(0, d)}));  // an empty block adds nothing...
  check(struct_of({1, 1}, {0, 16}, {i, resized_of(contiguous_of(0, d), -4, 8)}));  // ...but its markers
  check(struct_of({1, 0}, {0, 8}, {c, d}));  // a zero blocklength adds no alignment either
}

TEST(Construct, Subarray) {
  for (int k : {kChar, kInt, kDoubleInt})
    for (int order : {kOrderC, kOrderFortran}) {
      check(subarray_of({4, 5}, {2, 3}, {1, 2}, order, predef(k)));
      check(subarray_of({3, 4, 2}, {2, 2, 1}, {1, 0, 1}, order, predef(k)));
      check(subarray_of({6}, {6}, {0}, order, predef(k)));  // the whole array: contiguous
      check(subarray_of({2, 3}, {2, 3}, {0, 0}, order, predef(k)));
      check(subarray_of({5, 1, 3}, {1, 1, 3}, {4, 0, 0}, order, predef(k)));
    }
}

// Every rank of several grids, each distribution, default and explicit dargs, both orders, sizes that do not
// divide evenly (so some ranks get short or empty shares).
TEST(Construct, Darray) {
  const int B = dt::kDistributeBlock, C = dt::kDistributeCyclic, N = dt::kDistributeNone;
  const int D = dt::kDistributeDfltDarg;
  struct Case {
    Ints gsizes, distribs, dargs, psizes;
  };
  const Case cases[] = {
      {{10}, {B}, {D}, {3}},            {{10}, {C}, {D}, {3}},          {{11}, {C}, {2}, {3}},
      {{7}, {B}, {4}, {2}},             {{6, 8}, {B, C}, {D, 2}, {2, 2}}, {{5, 3}, {N, C}, {D, D}, {1, 2}},
      {{4, 5, 3}, {C, B, C}, {1, D, 2}, {2, 3, 1}}, {{9, 4}, {C, N}, {4, D}, {3, 1}},
  };
  for (const Case& c : cases) {
    int size = 1;
    for (int p : c.psizes) size *= p;
    for (int order : {kOrderC, kOrderFortran})
      for (int rank = 0; rank < size; ++rank)
        for (int k : {kInt, kDoubleInt}) check(darray_of(size, rank, c.gsizes, c.distribs, c.dargs, c.psizes, order,
                                                         predef(k)));
  }
}

TEST(ConstructErrors, BadDarrays) {
  const int B = dt::kDistributeBlock, N = dt::kDistributeNone, D = dt::kDistributeDfltDarg;
  TypeRef t;
  const TypeRef i = predefined(kInt);
  EXPECT_EQ(dt::darray(3, 0, Ints{4, 4}, Ints{B, B}, Ints{D, D}, Ints{2, 2}, kOrderC, i, t).error_class, 13);
  EXPECT_EQ(dt::darray(4, 4, Ints{4, 4}, Ints{B, B}, Ints{D, D}, Ints{2, 2}, kOrderC, i, t).error_class, 13);
  EXPECT_EQ(dt::darray(2, 0, Ints{5}, Ints{B}, Ints{2}, Ints{2}, kOrderC, i, t).error_class, 13);  // 2 x 2 < 5
  EXPECT_EQ(dt::darray(2, 0, Ints{5}, Ints{N}, Ints{D}, Ints{2}, kOrderC, i, t).error_class, 13);  // NONE on 2
  EXPECT_EQ(dt::darray(1, 0, Ints{5}, Ints{99}, Ints{D}, Ints{1}, kOrderC, i, t).error_class, 13);
  EXPECT_EQ(dt::darray(1, 0, Ints{5}, Ints{B}, Ints{0}, Ints{1}, kOrderC, i, t).error_class, 13);
  EXPECT_EQ(dt::darray(1, 0, Ints{5}, Ints{B}, Ints{D}, Ints{1}, 7, i, t).error_class, 13);
}

TEST(Construct, ResizedAndDup) {
  for (int k : kOlds) {
    check(resized_of(predef(k), -4, 12));
    check(resized_of(predef(k), 0, 2));  // smaller than the data: elements overlap
    check(resized_of(predef(k), 3, 40));
    check(resized_of(resized_of(predef(k), 8, 64), -2, 16));  // new markers replace the old
    check(resized_of(predef(k), 4, -24));                      // negative extent: elements run backwards
    check(resized_of(predef(k), 0, 0));                        // zero extent: every element at buf
    check(dup_of(predef(k)));
    check(dup_of(resized_of(vector_of(2, 1, 3, predef(k)), -8, 48)));
  }
}

// The fast path: count elements are one run exactly when the reference's entries are (checked in check_fields).
TEST(Construct, Contiguity) {
  const Type i = predef(kInt), f = predef(kFloat), d = predef(kDouble);
  check(indexed_of({1, 2}, {0, 1}, i));
  check(indexed_of({1, 1}, {1, 0}, i));  // the same bytes, packed in the other order
  check(hindexed_of({2, 1}, {-8, 0}, i));
  check(struct_of({1, 1}, {0, 4}, {i, f}));
  check(struct_of({1, 1}, {0, 8}, {d, i}));  // padded to 16: one run for count 1 only
  check(resized_of(i, -4, 4));
  check(vector_of(3, 2, 2, i));
  check(vector_of(1, 2, 7, i));
  check(hvector_of(3, 1, 4, contiguous_of(1, i)));
  check(contiguous_of(4, struct_of({1, 1}, {0, 8}, {d, d})));
  check(subarray_of({2, 3}, {1, 3}, {1, 0}, kOrderC, i));  // one row: one run, but extent is the whole array
  check(resized_of(subarray_of({2, 3}, {2, 1}, {0, 0}, kOrderFortran, i), 0, 8));
}

// ---- Nesting -------------------------------------------------------------------------------------------------------

TEST(Construct, NestedThreeDeep) {
  const Type c = predef(kChar), s = predef(kShort), i = predef(kInt), d = predef(kDouble), di = predef(kDoubleInt);
  const Type padded = struct_of({1, 1, 1}, {0, 8, 12}, {d, c, i});  // 16 data bytes, extent 16
  const Type di8 = struct_of({1, 1}, {0, 8}, {d, i});
  // resized larger than the data, indexed with a negative displacement, vector with a negative stride
  check(vector_of(3, 2, -2, indexed_of({2, 0, 1}, {1, 5, -2}, resized_of(padded, -4, 24))), {0, 1, 2, 5});
  // resized smaller than the data, placed apart so that nothing overlaps; then overlapping (packing only)
  check(vector_of(3, 1, 5, indexed_of({1, 1}, {0, 3}, resized_of(di8, 0, 4))), {0, 1, 2, 5});
  check(contiguous_of(3, indexed_of({1, 2}, {0, 3}, resized_of(di8, 0, 4))));
  // struct of subarrays (C and Fortran) of hvectors
  const Type hv = hvector_of(2, 1, 12, s);
  check(struct_of({1, 1, 2}, {0, -8, 200},
                  {subarray_of({4, 6}, {2, 3}, {1, 2}, kOrderC, hv), i,
                   subarray_of({3, 3}, {2, 1}, {0, 2}, kOrderFortran, hv)}),
        {0, 1, 2, 5});
  // markers inside a struct next to plain blocks: only the markers bound it, no padding
  check(struct_of({1, 2}, {0, 16}, {resized_of(d, -8, 32), hindexed_block_of(2, {-50, 7}, c)}), {0, 1, 3});
  check(hindexed_block_of(2, {-100, 50}, contiguous_of(2, subarray_of({3, 3}, {1, 2}, {2, 0}, kOrderC, di))),
        {0, 1, 2});
  check(contiguous_of(3, struct_of({1, 1}, {0, 16}, {resized_of(vector_of(2, 1, 2, i), -8, 40), c})), {0, 1, 2});
  check(dup_of(vector_of(2, 1, 3, struct_of({1, 1}, {0, 8}, {di, c}))), {0, 1, 4});
}

// Random nested types, depth up to 3; each non-empty and small enough to pack by brute force.
Type random_type(std::mt19937& g, int depth) {
  static const int kLeaves[] = {kChar, kShort, kInt, kDouble, kLongDouble, kInt64, kFloat, kCDoubleComplex,
                                kDoubleInt, kShortInt, k2Int, kLongInt};
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g); };
  if (depth == 0 || pick(0, 5) == 0) return predef(kLeaves[pick(0, std::size(kLeaves) - 1)]);
  for (;;) {
    const Type o = random_type(g, depth - 1);
    const int n = pick(1, 4);
    Ints bls, disps, sizes, subs, starts;
    Aints hdisps;
    std::vector<Type> os;
    for (int b = 0; b < n; ++b) {
      bls.push_back(pick(0, 3)), disps.push_back(pick(-6, 6)), hdisps.push_back(pick(-80, 80));
      os.push_back(b == 0 ? o : random_type(g, depth - 1));
    }
    for (int d = pick(1, 3); d > 0; --d) {
      sizes.push_back(pick(1, 4));
      subs.push_back(pick(1, sizes.back()));
      starts.push_back(pick(0, sizes.back() - subs.back()));
    }
    Type t;
    switch (pick(0, 10)) {
      case 0: t = contiguous_of(pick(1, 4), o); break;
      case 1: t = vector_of(pick(1, 4), pick(0, 3), pick(-4, 4), o); break;
      case 2: t = hvector_of(pick(1, 4), pick(0, 3), pick(-64, 64), o); break;
      case 3: t = indexed_of(bls, disps, o); break;
      case 4: t = hindexed_of(bls, hdisps, o); break;
      case 5: t = indexed_block_of(pick(0, 3), disps, o); break;
      case 6: t = hindexed_block_of(pick(0, 3), hdisps, o); break;
      case 7: t = struct_of(bls, hdisps, os); break;
      case 8: t = subarray_of(sizes, subs, starts, pick(0, 1) ? kOrderC : kOrderFortran, o); break;
      case 9: t = resized_of(o, pick(-16, 16), pick(1, 48)); break;
      default: t = dup_of(o); break;
    }
    const std::ptrdiff_t span = std::max(std::abs(t.r.extent()), t.r.true_ub() - t.r.true_lb());
    if (!t.r.entries.empty() && t.r.entries.size() <= 2000 && span <= (1 << 16) && std::abs(t.r.lb) <= (1 << 16))
      return t;
  }
}

TEST(Construct, RandomNested) {
  std::mt19937 g(20240607);
  for (int n = 0; n < 300 && !HasFailure(); ++n) check(random_type(g, 3), {0, 1, 3, 7});
}

// ---- MAXLOC pairs, MPI_BOTTOM --------------------------------------------------------------------------------------

TEST(Construct, MaxlocPairs) {
  struct DoubleInt { double v; int i; };
  struct ShortInt { short v; int i; };
  const Datatype& di = *predefined(kDoubleInt);
  EXPECT_EQ(di.size, sizeof(double) + sizeof(int));
  EXPECT_EQ(di.extent(), std::ptrdiff_t(sizeof(DoubleInt)));
  EXPECT_EQ(di.elements, 2u);
  const Datatype& si = *predefined(kShortInt);
  EXPECT_EQ(si.size, sizeof(short) + sizeof(int));
  EXPECT_EQ(si.extent(), std::ptrdiff_t(sizeof(ShortInt)));
  EXPECT_EQ(basic_elements(si, sizeof(short)), 1);
  EXPECT_EQ(basic_elements(si, sizeof(short) + 1), -1);
  for (int k : {kFloatInt, kDoubleInt, kLongInt, k2Int, kShortInt, kLongDoubleInt}) {
    check(predef(k), {0, 1, 4});
    check(contiguous_of(3, predef(k)));  // keeps each pair's padding
    check(vector_of(2, 2, 3, predef(k)));
    check(struct_of({1, 1}, {0, 64}, {predef(k), predef(kChar)}));
  }
  const Type hand = struct_of({1, 1}, {0, offsetof(DoubleInt, i)}, {predef(kDouble), predef(kInt)});
  check(hand);
  ASSERT_NE(hand.t, nullptr);
  EXPECT_EQ(hand.t->element, 0);  // the bytes of MPI_DOUBLE_INT, but mixed basic types
  EXPECT_EQ(hand.t->extent(), di.extent());
}

TEST(Construct, AbsoluteAddressesFromBottom) {
  double d[6] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
  int k[3] = {7, 8, 9};
  auto addr = [](const void* p) { return reinterpret_cast<std::ptrdiff_t>(p); };
  const Type hi = hindexed_of({2, 1}, {addr(&d[4]), addr(&d[1])}, predef(kDouble));
  const Type st = struct_of({3, 1}, {addr(&k[0]), addr(&d[2])}, {predef(kInt), predef(kDouble)});
  for (const Type* x : {&hi, &st}) {
    SCOPED_TRACE(x->what);
    ASSERT_NE(x->t, nullptr);
    check_fields(*x->t, x->r);
    std::vector<unsigned char> want;
    for (const Entry& e : x->r.entries) {
      const auto* p = reinterpret_cast<const unsigned char*>(e.disp);
      want.insert(want.end(), p, p + e.size);
    }
    std::vector<unsigned char> out(want.size());
    pack(nullptr, 1, *x->t, out.data());
    EXPECT_TRUE(same(out.data(), want.data(), want.size()));
    for (std::size_t from = 0; from <= want.size(); from += 3) {
      std::vector<unsigned char> part(want.size() - from);
      pack_range(nullptr, 1, *x->t, from, part.size(), part.data());
      EXPECT_TRUE(same(part.data(), want.data() + from, part.size())) << "from " << from;
    }
    std::fill(std::begin(d), std::end(d), 0.0);
    std::fill(std::begin(k), std::end(k), 0);
    unpack(want.data(), want.size(), 1, *x->t, nullptr);
    std::size_t pos = 0;
    for (const Entry& e : x->r.entries) {
      EXPECT_TRUE(same(reinterpret_cast<const unsigned char*>(e.disp), want.data() + pos, e.size)) << "unpack";
      pos += e.size;
    }
  }
}

// ---- Size of the representation -----------------------------------------------------------------------------------

TEST(Construct, HugeVectorIsOnePiece) {
  constexpr int kN = 10'000'000;
  const TypeRef v = build([](TypeRef& out) { return dt::vector(kN, 1, 2, predefined(kDouble), out); });
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->size, std::size_t(kN) * sizeof(double));
  EXPECT_EQ(v->extent(), std::ptrdiff_t(kN - 1) * 16 + 8);
  EXPECT_EQ(v->elements, std::size_t(kN));
  EXPECT_LE(v->layout.pieces.size(), 2u);
  EXPECT_EQ(basic_elements(*v, v->size), kN);
  EXPECT_EQ(basic_elements(*v, 8 * 12345 + 3), -1);
  // The last three doubles, through a window: only the bytes the range needs are read.
  double window[6] = {0, 10.25, 0, 11.25, 0, 12.25};  // at memory offsets (kN - 3) * 16 - 8 ...
  const std::ptrdiff_t first = std::ptrdiff_t(kN - 3) * 16;
  const void* buf = reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(&window[1]) - first);
  double got[3] = {};
  pack_range(buf, 1, *v, std::size_t(kN - 3) * 8, 24, got);
  EXPECT_EQ(got[0], 10.25);
  EXPECT_EQ(got[1], 11.25);
  EXPECT_EQ(got[2], 12.25);

  const TypeRef c = build([](TypeRef& out) { return dt::contiguous(kN, predefined(kDouble), out); });
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->layout.pieces.size(), 1u);
  EXPECT_TRUE(c->contiguous);
}

TEST(Construct, ManyBlockIndexedIsOnePiecePerBlock) {
  constexpr int kBlocks = 100'000;
  Ints bls(kBlocks), gaps(kBlocks), touching(kBlocks);
  for (int b = 0; b < kBlocks; ++b) bls[b] = 1 + b % 3, gaps[b] = 5 * b, touching[b] = 3 * b;
  const Type sparse = indexed_of(bls, gaps, predef(kInt));
  ASSERT_NE(sparse.t, nullptr);
  EXPECT_LE(sparse.t->layout.pieces.size(), std::size_t(kBlocks));
  check(sparse, {1, 2});
  const Type dense = indexed_of(Ints(kBlocks, 3), touching, predef(kInt));
  ASSERT_NE(dense.t, nullptr);
  EXPECT_LE(dense.t->layout.pieces.size(), 2u);  // blocks that touch merge
  check(dense, {1, 2});
}

// ---- Errors --------------------------------------------------------------------------------------------------------

::testing::AssertionResult fails_with(const Status& s, std::initializer_list<int> classes) {
  if (s.ok()) return ::testing::AssertionFailure() << "succeeded";
  if (s.message.empty()) return ::testing::AssertionFailure() << "no message";
  for (int c : classes)
    if (s.error_class == c) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "error class " << s.error_class << ": " << s.message;
}

TEST(ConstructErrors, NegativeCountsAndBlocklengths) {
  const TypeRef i = predefined(kInt);
  TypeRef out;
  const Ints one = {1}, neg = {1, -1}, two = {0, 4};
  const Aints hone = {0}, htwo = {0, 16};
  EXPECT_TRUE(fails_with(dt::contiguous(-1, i, out), {kErrCount}));
  EXPECT_TRUE(fails_with(dt::vector(-1, 1, 1, i, out), {kErrCount}));
  EXPECT_TRUE(fails_with(dt::hvector(-2, 1, 4, i, out), {kErrCount}));
  // The header does not say which class a negative blocklength gets: MPICH and Open MPI use MPI_ERR_ARG.
  EXPECT_TRUE(fails_with(dt::vector(2, -1, 1, i, out), {kErrArg, kErrCount}));
  EXPECT_TRUE(fails_with(dt::hvector(2, -1, 4, i, out), {kErrArg, kErrCount}));
  EXPECT_TRUE(fails_with(dt::indexed(neg, two, i, out), {kErrArg, kErrCount}));
  EXPECT_TRUE(fails_with(dt::hindexed(neg, htwo, i, out), {kErrArg, kErrCount}));
  EXPECT_TRUE(fails_with(dt::indexed_block(-1, one, i, out), {kErrArg, kErrCount}));
  EXPECT_TRUE(fails_with(dt::hindexed_block(-1, hone, i, out), {kErrArg, kErrCount}));
  EXPECT_TRUE(fails_with(dt::structure(neg, htwo, std::vector<TypeRef>{i, i}, out), {kErrArg, kErrCount}));
}

TEST(ConstructErrors, BadSubarrays) {
  const TypeRef i = predefined(kInt);
  TypeRef out;
  EXPECT_TRUE(fails_with(dt::subarray(Ints{4, 4}, Ints{5, 1}, Ints{0, 0}, kOrderC, i, out), {kErrArg}));  // > size
  EXPECT_TRUE(fails_with(dt::subarray(Ints{4, 4}, Ints{2, 2}, Ints{3, 0}, kOrderC, i, out), {kErrArg}));  // past end
  EXPECT_TRUE(fails_with(dt::subarray(Ints{4, 4}, Ints{2, 2}, Ints{0, 3}, kOrderFortran, i, out), {kErrArg}));
  EXPECT_TRUE(fails_with(dt::subarray(Ints{4, 4}, Ints{2, 2}, Ints{-1, 0}, kOrderC, i, out), {kErrArg}));
  EXPECT_TRUE(fails_with(dt::subarray(Ints{0, 4}, Ints{0, 2}, Ints{0, 0}, kOrderC, i, out), {kErrArg}));
  EXPECT_TRUE(fails_with(dt::subarray(Ints{4}, Ints{2}, Ints{0}, 0, i, out), {kErrArg}));  // neither C nor Fortran
  EXPECT_TRUE(fails_with(dt::subarray(Ints{4}, Ints{2}, Ints{0}, 58, i, out), {kErrArg}));
  EXPECT_FALSE(dt::subarray(Ints{}, Ints{}, Ints{}, kOrderC, i, out).ok());  // ndims 0
}

TEST(ConstructErrors, NullOldType) {
  const TypeRef null, i = predefined(kInt);
  TypeRef out;
  const Ints one = {1};
  const Aints hone = {0};
  EXPECT_TRUE(fails_with(dt::contiguous(1, null, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::vector(1, 1, 1, null, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::hvector(1, 1, 1, null, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::indexed(one, one, null, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::hindexed(one, hone, null, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::indexed_block(1, one, null, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::hindexed_block(1, hone, null, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::structure(Ints{1, 1}, Aints{0, 8}, std::vector<TypeRef>{i, null}, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::subarray(one, one, Ints{0}, kOrderC, null, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::resized(null, 0, 4, out), {kErrType}));
  EXPECT_TRUE(fails_with(dt::dup(null, out), {kErrType}));
}

TEST(ConstructErrors, OverflowIsRefusedNotWrapped) {
  const TypeRef c1 = build([](TypeRef& out) { return dt::contiguous(INT_MAX, predefined(kDouble), out); });
  ASSERT_NE(c1, nullptr);
  EXPECT_EQ(c1->size, std::size_t(INT_MAX) * sizeof(double));
  TypeRef c2, c3;
  const Status s2 = dt::contiguous(INT_MAX, c1, c2);  // 8 * (2^31 - 1)^2 > 2^63
  EXPECT_FALSE(s2.ok()) << "size " << (c2 ? c2->size : 0);
  if (s2.ok()) {
    EXPECT_FALSE(dt::contiguous(INT_MAX, c2, c3).ok());
  }
  // (2^31 - 1)^2 bytes fit; a third level does not.
  const TypeRef b2 = build([](TypeRef& out) {
    TypeRef b1;
    Status s = dt::contiguous(INT_MAX, predefined(kByte), b1);
    return s.ok() ? dt::contiguous(INT_MAX, b1, out) : s;
  });
  ASSERT_NE(b2, nullptr);
  EXPECT_EQ(b2->size, std::size_t(INT_MAX) * std::size_t(INT_MAX));
  EXPECT_EQ(basic_elements(*b2, b2->size), std::ptrdiff_t(b2->size));
  EXPECT_FALSE(dt::contiguous(INT_MAX, b2, c3).ok());
  EXPECT_FALSE(dt::vector(INT_MAX, 1, INT_MAX, b2, c3).ok());
  EXPECT_FALSE(dt::hvector(2, INT_MAX, 1, b2, c3).ok());
  EXPECT_FALSE(dt::indexed(Ints{1}, Ints{INT_MAX}, b2, c3).ok());
  // Bounds past PTRDIFF_MAX: a stride, a resized ub, a displacement, a struct's span, a subarray's whole array.
  const TypeRef i = predefined(kInt);
  EXPECT_FALSE(dt::hvector(3, 1, PTRDIFF_MAX / 2 + 1, predefined(kByte), c3).ok());
  EXPECT_FALSE(dt::resized(i, PTRDIFF_MAX - 2, 8, c3).ok());
  EXPECT_FALSE(dt::hindexed(Ints{1}, Aints{PTRDIFF_MAX - 2}, i, c3).ok());
  EXPECT_FALSE(dt::structure(Ints{1, 1}, Aints{-(PTRDIFF_MAX / 2) - 8, PTRDIFF_MAX / 2}, std::vector{i, i}, c3).ok());
  EXPECT_FALSE(
      dt::subarray(Ints{INT_MAX, INT_MAX, INT_MAX}, Ints{1, 1, 1}, Ints{0, 0, 0}, kOrderC, predefined(kDouble), c3)
          .ok());
}

}  // namespace
