// Reduction operators: every predefined operator on every predefined type, against reference loops and a table of
// allowed pairs written here from the standard's text (MPI-4.0 6.9.2 groups, 6.9.4 MAXLOC/MINLOC), for counts 0, 1,
// 7 and 1000; MAXLOC/MINLOC ties; wrapping integer arithmetic; misaligned buffers; user operators, commutative
// or not.
#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "datatype/construct.hpp"
#include "datatype/op.hpp"
#include "datatype/predefined.hpp"

using namespace strata::datatype;
using strata::kErrOp;

namespace {

// ---- The standard's table, independently of op.cpp ----------------------------------------------------------------

enum class Group { kNone, kCInteger, kFortranInteger, kFloating, kLogical, kComplex, kByte, kMultiLanguage, kPair };

Group group_of(int type) {
  switch (type) {
    case kChar:  // not in 6.9.2, but reduced as C's char, as MPICH and Open MPI do (op.cpp)
    case kSignedChar: case kUnsignedChar: case kShort: case kUnsignedShort: case kInt: case kUnsigned: case kLong:
    case kUnsignedLong: case kLongLong: case kUnsignedLongLong: case kInt8: case kInt16: case kInt32: case kInt64:
    case kUint8: case kUint16: case kUint32: case kUint64:
      return Group::kCInteger;
    case kInteger: case kInteger1: case kInteger2: case kInteger4: case kInteger8:
      return Group::kFortranInteger;
    case kFloat: case kDouble: case kLongDouble: case kReal: case kDoublePrecision: case kReal4: case kReal8:
      return Group::kFloating;
    case kCBool: case kCxxBool: case kLogical:
      return Group::kLogical;
    case kCFloatComplex: case kCDoubleComplex: case kCLongDoubleComplex: case kCxxFloatComplex:
    case kCxxDoubleComplex: case kCxxLongDoubleComplex: case kComplex: case kDoubleComplex: case kComplex8:
    case kComplex16:
      return Group::kComplex;
    case kByte:
      return Group::kByte;
    case kAint: case kOffset: case kCount:
      return Group::kMultiLanguage;
    case kFloatInt: case kDoubleInt: case kLongInt: case k2Int: case kShortInt: case kLongDoubleInt:
    case k2Integer: case k2Real: case k2DoublePrecision:
      return Group::kPair;
    default:  // MPI_WCHAR, MPI_PACKED, MPI_CHARACTER
      return Group::kNone;
  }
}

bool standard_allows(int op, Group g) {
  using enum Group;
  switch (op) {
    case kOpMax: case kOpMin: return g == kCInteger || g == kFortranInteger || g == kFloating || g == kMultiLanguage;
    case kOpSum: case kOpProd:
      return g == kCInteger || g == kFortranInteger || g == kFloating || g == kComplex || g == kMultiLanguage;
    case kOpLand: case kOpLor: case kOpLxor: return g == kCInteger || g == kLogical;
    case kOpBand: case kOpBor: case kOpBxor:
      return g == kCInteger || g == kFortranInteger || g == kByte || g == kMultiLanguage;
    case kOpMaxloc: case kOpMinloc: return g == kPair;
    case kOpReplace: case kOpNoOp: return true;
    default: return false;
  }
}

// ---- C types of the predefined types -------------------------------------------------------------------------------

template <class V, class Index = int>
struct Pair {
  V value;
  Index index;
};
template <class T> constexpr bool kIsPair = false;
template <class V, class Index> constexpr bool kIsPair<Pair<V, Index>> = true;
template <class T> constexpr bool kIsComplex = false;
template <class V> constexpr bool kIsComplex<std::complex<V>> = true;

template <class T>
struct Tag {
  using type = T;
};

template <class F>
void with_c_type(int type, F&& f) {
  switch (type) {
    case kChar: case kCharacter: return f(Tag<char>{});
    case kSignedChar: return f(Tag<signed char>{});
    case kUnsignedChar: case kByte: case kPacked: return f(Tag<unsigned char>{});
    case kWchar: return f(Tag<wchar_t>{});
    case kShort: return f(Tag<short>{});
    case kUnsignedShort: return f(Tag<unsigned short>{});
    case kInt: return f(Tag<int>{});
    case kUnsigned: return f(Tag<unsigned>{});
    case kLong: return f(Tag<long>{});
    case kUnsignedLong: return f(Tag<unsigned long>{});
    case kLongLong: case kOffset: case kCount: return f(Tag<long long>{});
    case kUnsignedLongLong: return f(Tag<unsigned long long>{});
    case kFloat: case kReal: case kReal4: return f(Tag<float>{});
    case kDouble: case kDoublePrecision: case kReal8: return f(Tag<double>{});
    case kLongDouble: return f(Tag<long double>{});
    case kCBool: case kCxxBool: return f(Tag<bool>{});
    case kInt8: case kInteger1: return f(Tag<int8_t>{});
    case kInt16: case kInteger2: return f(Tag<int16_t>{});
    case kInt32: case kInteger: case kInteger4: case kLogical: return f(Tag<int32_t>{});
    case kInt64: case kInteger8: return f(Tag<int64_t>{});
    case kUint8: return f(Tag<uint8_t>{});
    case kUint16: return f(Tag<uint16_t>{});
    case kUint32: return f(Tag<uint32_t>{});
    case kUint64: return f(Tag<uint64_t>{});
    case kCFloatComplex: case kCxxFloatComplex: case kComplex: case kComplex8: return f(Tag<std::complex<float>>{});
    case kCDoubleComplex: case kCxxDoubleComplex: case kDoubleComplex: case kComplex16:
      return f(Tag<std::complex<double>>{});
    case kCLongDoubleComplex: case kCxxLongDoubleComplex: return f(Tag<std::complex<long double>>{});
    case kAint: return f(Tag<intptr_t>{});
    case kFloatInt: return f(Tag<Pair<float>>{});
    case kDoubleInt: return f(Tag<Pair<double>>{});
    case kLongInt: return f(Tag<Pair<long>>{});
    case k2Int: return f(Tag<Pair<int>>{});
    case kShortInt: return f(Tag<Pair<short>>{});
    case kLongDoubleInt: return f(Tag<Pair<long double>>{});
    case k2Integer: return f(Tag<Pair<int32_t, int32_t>>{});
    case k2Real: return f(Tag<Pair<float, float>>{});
    case k2DoublePrecision: return f(Tag<Pair<double, double>>{});
  }
  FAIL() << "no C type for predefined type " << type;
}

// ---- Values: integers over their whole range half the time (sums and products wrap), small otherwise (zeros and
//      ties are frequent); floating values k/4 (exact); pair values in -3..3 (many ties) ----------------------------

template <class T>
T random_value(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, bool>) {
    return rng() % 2 == 0;
  } else if constexpr (std::is_integral_v<T>) {
    const uint64_t r = rng();
    if (r % 2 == 0) return static_cast<T>(rng());
    if constexpr (std::is_signed_v<T>) return static_cast<T>(static_cast<int>(rng() % 13) - 6);
    return static_cast<T>(rng() % 13);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(static_cast<int>(rng() % 81) - 40) / 4;
  } else if constexpr (kIsComplex<T>) {
    using V = typename T::value_type;
    return T(static_cast<V>(static_cast<int>(rng() % 21) - 10), static_cast<V>(static_cast<int>(rng() % 21) - 10));
  } else {
    T p;
    std::memset(&p, 0, sizeof p);
    p.value = static_cast<decltype(p.value)>(static_cast<int>(rng() % 7) - 3);
    p.index = static_cast<decltype(p.index)>(rng() % 10);
    return p;
  }
}

// ---- The reference: the standard's definitions, element by element -------------------------------------------------

template <class T>
T reference(int op, const T& in, const T& io) {
  if (op == kOpReplace) return in;
  if (op == kOpNoOp) return io;
  if constexpr (kIsPair<T>) {
    // MPI-4.0 6.9.4: (u, i) o (v, j) = (w, k); w = max(u, v) (min for MINLOC); k = i if u wins, j if v wins,
    // min(i, j) if u == v.
    const bool in_wins = op == kOpMaxloc ? in.value > io.value : in.value < io.value;
    if (in_wins) return in;
    T out = io;
    if (in.value == io.value) out.index = std::min(in.index, io.index);
    return out;
  } else if constexpr (kIsComplex<T>) {
    if (op == kOpSum) return T(in.real() + io.real(), in.imag() + io.imag());
    return T(in.real() * io.real() - in.imag() * io.imag(), in.real() * io.imag() + in.imag() * io.real());
  } else if constexpr (std::is_same_v<T, bool>) {
    switch (op) {
      case kOpLand: return in && io;
      case kOpLor: return in || io;
      case kOpLxor: return in != io;
    }
  } else if constexpr (std::is_integral_v<T>) {
    const uint64_t a = static_cast<uint64_t>(in), b = static_cast<uint64_t>(io);  // modular
    switch (op) {
      case kOpMax: return std::max(io, in);
      case kOpMin: return std::min(io, in);
      case kOpSum: return static_cast<T>(a + b);
      case kOpProd: return static_cast<T>(a * b);
      case kOpLand: return static_cast<T>((in != 0 && io != 0) ? 1 : 0);
      case kOpLor: return static_cast<T>((in != 0 || io != 0) ? 1 : 0);
      case kOpLxor: return static_cast<T>(((in != 0) != (io != 0)) ? 1 : 0);
      case kOpBand: return static_cast<T>(a & b);
      case kOpBor: return static_cast<T>(a | b);
      case kOpBxor: return static_cast<T>(a ^ b);
    }
  } else {
    switch (op) {
      case kOpMax: return std::max(io, in);
      case kOpMin: return std::min(io, in);
      case kOpSum: return in + io;
      case kOpProd: return in * io;
    }
  }
  ADD_FAILURE() << "no reference for operator " << op;
  return io;
}

template <class T>
bool same(const T& a, const T& b) {
  if constexpr (kIsPair<T>)
    return a.value == b.value && a.index == b.index;
  else
    return a == b;
}

template <class T>
void print(std::ostream& out, const T& v) {
  if constexpr (kIsPair<T>) {
    out << '(';
    print(out, v.value);
    out << ", " << v.index << ')';
  } else if constexpr (std::is_floating_point_v<T> || kIsComplex<T>) {
    out << v;
  } else {
    out << static_cast<long long>(v);
  }
}

template <class T>
std::string show(const T& v) {
  std::ostringstream out;
  print(out, v);
  return out.str();
}

const int kCounts[] = {0, 1, 7, 1000};

template <class T>
void reduce_and_compare(const Op& op, int type) {
  const Datatype& t = *predefined(type);
  ASSERT_EQ(static_cast<std::size_t>(t.extent()), sizeof(T));
  std::mt19937_64 rng(1000 * op.kind + type);
  for (int count : kCounts) {
    // Arrays, not vectors: std::vector<bool> has no data().
    auto in = std::make_unique<T[]>(count), inout = std::make_unique<T[]>(count);
    auto want = std::make_unique<T[]>(count), in_before = std::make_unique<T[]>(count);
    for (int i = 0; i < count; ++i) {
      in[i] = in_before[i] = random_value<T>(rng);
      inout[i] = random_value<T>(rng);
      want[i] = reference(op.kind, in[i], inout[i]);
    }
    reduce(op, in.get(), inout.get(), count, t, 0);
    for (int i = 0; i < count; ++i) {
      ASSERT_TRUE(same(inout[i], want[i])) << op_name(op) << " on " << t.name << ", count " << count << ", element "
                                           << i << ": got " << show(inout[i]) << ", want " << show(want[i]);
      ASSERT_TRUE(same(in[i], in_before[i])) << "inbuf changed";
    }
  }
}

class EveryType : public testing::TestWithParam<int> {};

// For one operator: the allowed types reduce as the reference does, the others fail check() with MPI_ERR_OP and a
// message naming the operator and the type.
TEST_P(EveryType, MatchesTheStandard) {
  const Op& op = *predefined_op(GetParam());
  int allowed = 0;
  for (int type = 1; type < kPredefinedEnd; ++type) {
    const Datatype& t = *predefined(type);
    const bool accumulate_only = op.kind == kOpReplace || op.kind == kOpNoOp;
    const strata::Status s = check(op, t, accumulate_only ? Use::kAccumulate : Use::kReduction);
    if (standard_allows(op.kind, group_of(type))) {
      ++allowed;
      ASSERT_TRUE(s.ok()) << op_name(op) << " on " << t.name << ": " << s.message;
      with_c_type(type, [&](auto tag) { reduce_and_compare<typename decltype(tag)::type>(op, type); });
    } else {
      EXPECT_EQ(s.error_class, kErrOp) << op_name(op) << " on " << t.name;
      EXPECT_NE(s.message.find(std::string(op_name(op)) + " is not defined on " + t.name), std::string::npos)
          << s.message;
    }
  }
  EXPECT_GT(allowed, 0);
}

INSTANTIATE_TEST_SUITE_P(Op, EveryType, testing::Range(static_cast<int>(kOpMax), static_cast<int>(kPredefinedOpEnd)),
                         [](const testing::TestParamInfo<int>& info) {
                           return std::string(op_name(*predefined_op(info.param))).substr(4);  // "SUM"
                         });

// ---- Operators ---------------------------------------------------------------------------------------------------

TEST(PredefinedOps, TableAndFlags) {
  EXPECT_EQ(predefined_op(kOpNull), nullptr);
  EXPECT_EQ(predefined_op(kPredefinedOpEnd), nullptr);
  EXPECT_EQ(predefined_op(-1), nullptr);
  for (int kind = kOpMax; kind < kPredefinedOpEnd; ++kind) {
    const Op& op = *predefined_op(kind);
    EXPECT_EQ(op.kind, kind);
    EXPECT_TRUE(op.predefined);
    EXPECT_EQ(op.user, nullptr);
    // MPI_REPLACE (f(a, b) = b) and MPI_NO_OP (f(a, b) = a) are not commutative; the reductions are.
    EXPECT_EQ(op.commutative, kind != kOpReplace && kind != kOpNoOp) << op_name(op);
  }
  EXPECT_STREQ(op_name(*predefined_op(kOpBxor)), "MPI_BXOR");
  EXPECT_STREQ(op_name(*predefined_op(kOpNoOp)), "MPI_NO_OP");
}

TEST(Check, MessageNamesOperatorTypeAndWhatIsAllowed) {
  strata::Status s = check(*predefined_op(kOpBand), *predefined(kDouble));
  EXPECT_EQ(s.error_class, kErrOp);
  EXPECT_EQ(s.message, "MPI_BAND is not defined on MPI_DOUBLE (a floating point type; MPI_BAND takes C integer, "
                       "Fortran integer, byte and multi-language (MPI_AINT, MPI_OFFSET, MPI_COUNT) types)");
  s = check(*predefined_op(kOpSum), *predefined(kWchar));  // MPI_WCHAR is text, not a C integer (6.9.2)
  EXPECT_EQ(s.error_class, kErrOp);
  EXPECT_NE(s.message.find("MPI_SUM is not defined on MPI_WCHAR (in none of"), std::string::npos) << s.message;
  s = check(*predefined_op(kOpMaxloc), *predefined(kInt));
  EXPECT_NE(s.message.find("MPI_MAXLOC takes MAXLOC/MINLOC pair types"), std::string::npos) << s.message;
}

// MPI_REPLACE and MPI_NO_OP belong to accumulate (MPI-4.0 12.3.4): a reduction refuses them.
TEST(Check, AccumulateOperatorsAreNotReductions) {
  for (int kind : {kOpReplace, kOpNoOp}) {
    const strata::Status s = check(*predefined_op(kind), *predefined(kInt));
    EXPECT_EQ(s.error_class, kErrOp);
    EXPECT_NE(s.message.find("accumulate operator"), std::string::npos) << s.message;
  }
}

// Reductions take predefined types only (MPI-4.0 6.9.2); accumulate takes a derived type whose basic elements are
// all one predefined type (12.3.4).
TEST(DerivedTypes, ReduceInPlaceOrThroughScratch) {
  TypeRef pairs, gappy, mixed;
  const TypeRef members[] = {predefined(kInt), predefined(kDouble)};
  const int lengths[] = {1, 1};
  const std::ptrdiff_t displacements[] = {0, 8};
  ASSERT_TRUE(contiguous(2, predefined(kDoubleInt), pairs).ok());
  ASSERT_TRUE(vector(3, 1, 2, predefined(kDouble), gappy).ok());  // doubles 0, 2, 4 of each 5
  ASSERT_TRUE(structure(lengths, displacements, members, mixed).ok());

  strata::Status s = check(*predefined_op(kOpSum), *mixed, Use::kAccumulate);
  EXPECT_EQ(s.error_class, kErrOp);
  EXPECT_NE(s.message.find("not all of one predefined type"), std::string::npos) << s.message;
  s = check(*predefined_op(kOpSum), *gappy);
  EXPECT_EQ(s.error_class, kErrOp);
  EXPECT_NE(s.message.find("predefined datatypes only"), std::string::npos) << s.message;

  ASSERT_TRUE(check(*predefined_op(kOpSum), *gappy, Use::kAccumulate).ok());
  double a[10], b[10];
  for (int i = 0; i < 10; ++i) a[i] = i, b[i] = 100 * i;
  reduce(*predefined_op(kOpSum), a, b, 2, *gappy, 0);  // elements at 0 and 5 doubles (extent 5 doubles)
  for (int i = 0; i < 10; ++i) {
    const bool covered = i == 0 || i == 2 || i == 4 || i == 5 || i == 7 || i == 9;
    EXPECT_EQ(b[i], covered ? 101.0 * i : 100.0 * i) << "double " << i;
  }

  ASSERT_TRUE(check(*predefined_op(kOpMaxloc), *pairs, Use::kAccumulate).ok());
  Pair<double> in[4] = {{1, 1}, {9, 2}, {3, 3}, {5, 0}}, io[4] = {{2, 7}, {8, 8}, {3, 9}, {5, 4}};
  reduce(*predefined_op(kOpMaxloc), in, io, 2, *pairs, 0);
  EXPECT_TRUE(same(io[0], Pair<double>{2, 7}));
  EXPECT_TRUE(same(io[1], Pair<double>{9, 2}));
  EXPECT_TRUE(same(io[2], Pair<double>{3, 3}));  // tie: the smaller index
  EXPECT_TRUE(same(io[3], Pair<double>{5, 0}));
}

// ---- MAXLOC / MINLOC ties -----------------------------------------------------------------------------------------

TEST(Maxloc, EqualValuesKeepTheSmallerIndex) {
  const Datatype& t = *predefined(kDoubleInt);
  std::vector<Pair<double>> in = {{5, 3}, {5, 1}, {2, 0}, {7, 9}, {-1, 4}, {NAN, 0}};
  std::vector<Pair<double>> io = {{5, 1}, {5, 3}, {4, 2}, {7, 9}, {-1, 8}, {3, 5}};
  reduce(*predefined_op(kOpMaxloc), in.data(), io.data(), in.size(), t, 0);
  const std::vector<Pair<double>> want = {{5, 1}, {5, 1}, {4, 2}, {7, 9}, {-1, 4}, {3, 5}};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_TRUE(same(io[i], want[i])) << i << ": " << show(io[i]);
}

TEST(Minloc, EqualValuesKeepTheSmallerIndex) {
  const Datatype& t = *predefined(k2Int);
  std::vector<Pair<int>> in = {{5, 3}, {5, 1}, {2, 0}, {-7, 9}, {INT_MIN, 6}};
  std::vector<Pair<int>> io = {{5, 1}, {5, 3}, {4, 2}, {-7, 2}, {INT_MIN, 7}};
  reduce(*predefined_op(kOpMinloc), in.data(), io.data(), in.size(), t, 0);
  const std::vector<Pair<int>> want = {{5, 1}, {5, 1}, {2, 0}, {-7, 2}, {INT_MIN, 6}};
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_TRUE(same(io[i], want[i])) << i << ": " << show(io[i]);
}

// Folding the contributions of 6 "ranks" in any order gives the first rank holding the maximum (minimum).
TEST(Maxloc, FoldInAnyOrderGivesTheFirstRankOfTheExtremum) {
  const Datatype& t = *predefined(kShortInt);
  const short values[] = {3, 9, 1, 9, 1, 9};
  for (int kind : {kOpMaxloc, kOpMinloc}) {
    for (bool forward : {true, false}) {
      Pair<short> acc = {values[forward ? 0 : 5], forward ? 0 : 5};
      for (int step = 1; step < 6; ++step) {
        const int r = forward ? step : 5 - step;
        Pair<short> contribution = {values[r], r};
        reduce(*predefined_op(kind), &contribution, &acc, 1, t, 0);
      }
      EXPECT_EQ(acc.value, kind == kOpMaxloc ? 9 : 1);
      EXPECT_EQ(acc.index, kind == kOpMaxloc ? 1 : 2) << (forward ? "forward" : "backward");
    }
  }
}

// ---- Integer arithmetic wraps instead of overflowing (run under UBSan: no signed overflow) -------------------------

TEST(Sum, SignedIntegersWrapAround) {
  int in[] = {INT_MAX, INT_MIN, -1}, io[] = {1, -1, INT_MIN};
  reduce(*predefined_op(kOpSum), in, io, 3, *predefined(kInt), 0);
  EXPECT_EQ(io[0], INT_MIN);
  EXPECT_EQ(io[1], INT_MAX);
  EXPECT_EQ(io[2], INT_MAX);
}

TEST(Prod, ShortOperandsDoNotOverflowThroughIntPromotion) {
  unsigned short in[] = {65535}, io[] = {65535};  // 65535 * 65535 overflows int
  reduce(*predefined_op(kOpProd), in, io, 1, *predefined(kUnsignedShort), 0);
  EXPECT_EQ(io[0], 1);
  short sin[] = {300}, sio[] = {300};
  reduce(*predefined_op(kOpProd), sin, sio, 1, *predefined(kShort), 0);
  EXPECT_EQ(sio[0], static_cast<short>(90000 - 65536));
  int64_t lin[] = {INT64_MIN}, lio[] = {-1};
  reduce(*predefined_op(kOpProd), lin, lio, 1, *predefined(kInt64), 0);
  EXPECT_EQ(lio[0], INT64_MIN);
}

// ---- Buffers not aligned for their type --------------------------------------------------------------------------

TEST(Reduce, MisalignedBuffersGoThroughAlignedCopies) {
  const std::size_t n = 1000;  // several chunks of the aligned copy
  std::vector<unsigned char> a(n * sizeof(double) + 1), b(n * sizeof(double) + 3);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = static_cast<double>(i) / 4, y = 1000.0 - static_cast<double>(i);
    std::memcpy(a.data() + 1 + i * sizeof x, &x, sizeof x);
    std::memcpy(b.data() + 3 + i * sizeof y, &y, sizeof y);
  }
  reduce(*predefined_op(kOpSum), a.data() + 1, b.data() + 3, n, *predefined(kDouble), 0);
  for (std::size_t i = 0; i < n; ++i) {
    double got;
    std::memcpy(&got, b.data() + 3 + i * sizeof got, sizeof got);
    ASSERT_EQ(got, static_cast<double>(i) / 4 + 1000.0 - static_cast<double>(i)) << i;
  }
  // A padded pair (extent 16, 12 data bytes) at an odd address.
  std::vector<unsigned char> p(3 * sizeof(Pair<double>) + 1), q(3 * sizeof(Pair<double>) + 1);
  const Pair<double> pin[3] = {{1, 5}, {2, 2}, {3, 1}}, pio[3] = {{1, 4}, {3, 0}, {3, 2}};
  std::memcpy(p.data() + 1, pin, sizeof pin);
  std::memcpy(q.data() + 1, pio, sizeof pio);
  reduce(*predefined_op(kOpMaxloc), p.data() + 1, q.data() + 1, 3, *predefined(kDoubleInt), 0);
  Pair<double> got[3];
  std::memcpy(got, q.data() + 1, sizeof got);
  EXPECT_TRUE(same(got[0], Pair<double>{1, 4}));
  EXPECT_TRUE(same(got[1], Pair<double>{3, 0}));
  EXPECT_TRUE(same(got[2], Pair<double>{3, 1}));
}

TEST(Reduce, ZeroCountTouchesNothing) {
  for (int kind = kOpMax; kind < kPredefinedOpEnd; ++kind)
    reduce(*predefined_op(kind), nullptr, nullptr, 0, *predefined(k2Int), 0);
}

// ---- User operators ----------------------------------------------------------------------------------------------

struct UserCall {
  int calls = 0;
  int len = -1;
  int datatype = -1;
};
UserCall g_user;

// inout = in - inout: not commutative, so the order of the operands shows.
extern "C" void subtract(void* in, void* inout, int* len, int* datatype) {
  ++g_user.calls;
  g_user.len = *len;
  g_user.datatype = *datatype;
  const int* a = static_cast<const int*>(in);
  int* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = a[i] - b[i];
}

// MAXLOC by hand on padded pairs, to see the element stride (the extent) reach the user function.
extern "C" void pair_max(void* in, void* inout, int* len, int*) {
  auto* a = static_cast<Pair<double>*>(in);
  auto* b = static_cast<Pair<double>*>(inout);
  for (int i = 0; i < *len; ++i)
    if (a[i].value > b[i].value) b[i] = a[i];
}

TEST(UserOp, NonCommutativeOperandOrderIsInOpInout) {
  const Op op{kOpUser, false, false, subtract};
  g_user = {};
  std::vector<int> in = {10, 20, 30, 40, 50, 60, 70}, io = {1, 2, 3, 4, 5, 6, 7};
  ASSERT_TRUE(check(op, *predefined(kInt)).ok());
  reduce(op, in.data(), io.data(), in.size(), *predefined(kInt), 0x0c000008);
  EXPECT_EQ(io, (std::vector<int>{9, 18, 27, 36, 45, 54, 63}));
  EXPECT_EQ(g_user.calls, 1);
  EXPECT_EQ(g_user.len, 7);
  EXPECT_EQ(g_user.datatype, 0x0c000008);  // the handle, passed through
  EXPECT_STREQ(op_name(op), "a user-defined operator");
  g_user = {};
  reduce(op, in.data(), io.data(), 0, *predefined(kInt), 0);
  EXPECT_EQ(g_user.calls, 0);  // nothing to reduce: not called
}

TEST(UserOp, TakesAnyTypeAndSeesWholeElements) {
  const Op op{kOpUser, true, false, pair_max};
  for (int type = 1; type < kPredefinedEnd; ++type) EXPECT_TRUE(check(op, *predefined(type)).ok());
  TypeRef mixed;
  const TypeRef members[] = {predefined(kInt), predefined(kDouble)};
  const int lengths[] = {1, 1};
  const std::ptrdiff_t displacements[] = {0, 8};
  ASSERT_TRUE(structure(lengths, displacements, members, mixed).ok());
  EXPECT_TRUE(check(op, *mixed).ok());
  Pair<double> in[3] = {{1, 1}, {9, 2}, {3, 3}}, io[3] = {{2, 7}, {8, 8}, {3, 9}};
  reduce(op, in, io, 3, *predefined(kDoubleInt), 0);
  EXPECT_TRUE(same(io[0], Pair<double>{2, 7}));
  EXPECT_TRUE(same(io[1], Pair<double>{9, 2}));
  EXPECT_TRUE(same(io[2], Pair<double>{3, 9}));
}

}  // namespace
