#include "datatype/op.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <climits>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "datatype/op_kernels.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"

namespace strata::datatype {
namespace {

// ---- The standard's groups of basic types (MPI-4.0 6.9.2) and the pairs of MAXLOC/MINLOC (6.9.4) ---------------

enum class Group {
  kInvalid,        // index 0, MPI_DATATYPE_NULL
  kNone,           // in no group: MPI_WCHAR, MPI_PACKED, MPI_CHARACTER take only MPI_REPLACE and MPI_NO_OP
  kCInteger,       // char (see below), signed/unsigned char, short, int, long, long long, the fixed-width integers
  kFortranInteger, // MPI_INTEGER, MPI_INTEGER1 ... 8: as C's, but no logical operators
  kFloating,       // float, double, long double
  kLogical,        // MPI_C_BOOL, MPI_CXX_BOOL, MPI_LOGICAL
  kComplex,        // the C, C++ and Fortran complex types
  kByte,           // MPI_BYTE
  kMultiLanguage,  // MPI_AINT, MPI_OFFSET, MPI_COUNT
  kPair,           // MPI_FLOAT_INT, ..., MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_2INTEGER, MPI_2REAL, ...
};

constexpr const char* group_name(Group g) {
  switch (g) {
    case Group::kInvalid: return "invalid";
    case Group::kNone: return "no reduction";
    case Group::kCInteger: return "C integer";
    case Group::kFortranInteger: return "Fortran integer";
    case Group::kFloating: return "floating point";
    case Group::kLogical: return "logical";
    case Group::kComplex: return "complex";
    case Group::kByte: return "byte";
    case Group::kMultiLanguage: return "multi-language (MPI_AINT, MPI_OFFSET, MPI_COUNT)";
    case Group::kPair: return "MAXLOC/MINLOC pair";
  }
  return "?";
}

// The table of MPI-4.0 6.9.2: which groups each predefined operator is defined on. MPI_REPLACE and MPI_NO_OP (for
// accumulate, 12.3.4) take any predefined type.
constexpr bool allowed(int op, Group g) {
  if (g == Group::kInvalid) return false;
  switch (op) {
    case kOpMax: case kOpMin:
      return g == Group::kCInteger || g == Group::kFortranInteger || g == Group::kFloating ||
             g == Group::kMultiLanguage;
    case kOpSum: case kOpProd:
      return g == Group::kCInteger || g == Group::kFortranInteger || g == Group::kFloating ||
             g == Group::kComplex || g == Group::kMultiLanguage;
    case kOpLand: case kOpLor: case kOpLxor:
      return g == Group::kCInteger || g == Group::kLogical;
    case kOpBand: case kOpBor: case kOpBxor:
      return g == Group::kCInteger || g == Group::kFortranInteger || g == Group::kByte ||
             g == Group::kMultiLanguage;
    case kOpMaxloc: case kOpMinloc:
      return g == Group::kPair;
    case kOpReplace: case kOpNoOp:
      return true;
  }
  return false;
}

// The C type the kernels use for each predefined type, and its group. The booleans are reduced as unsigned char
// (the same byte), so that any nonzero byte is true instead of an invalid bool.
template <class T, Group G>
struct Element {
  using type = T;
  static constexpr Group group = G;
};
template <int Type> struct ElementOf;
template <> struct ElementOf<0> : Element<unsigned char, Group::kInvalid> {};
// MPI_CHAR is text for the standard, in no group of 6.9.2, so a reduction on it is erroneous; MPICH and Open MPI
// both reduce it as C's char with every integer operator, and programs rely on that (the OSU benchmarks' default
// reduction type, MPICH's test suite unless built strict). Strata does the same rather than abort them.
template <> struct ElementOf<kChar> : Element<char, Group::kCInteger> {};
template <> struct ElementOf<kSignedChar> : Element<signed char, Group::kCInteger> {};
template <> struct ElementOf<kUnsignedChar> : Element<unsigned char, Group::kCInteger> {};
template <> struct ElementOf<kByte> : Element<unsigned char, Group::kByte> {};
template <> struct ElementOf<kWchar> : Element<wchar_t, Group::kNone> {};
template <> struct ElementOf<kShort> : Element<short, Group::kCInteger> {};
template <> struct ElementOf<kUnsignedShort> : Element<unsigned short, Group::kCInteger> {};
template <> struct ElementOf<kInt> : Element<int, Group::kCInteger> {};
template <> struct ElementOf<kUnsigned> : Element<unsigned, Group::kCInteger> {};
template <> struct ElementOf<kLong> : Element<long, Group::kCInteger> {};
template <> struct ElementOf<kUnsignedLong> : Element<unsigned long, Group::kCInteger> {};
template <> struct ElementOf<kLongLong> : Element<long long, Group::kCInteger> {};
template <> struct ElementOf<kUnsignedLongLong> : Element<unsigned long long, Group::kCInteger> {};
template <> struct ElementOf<kFloat> : Element<float, Group::kFloating> {};
template <> struct ElementOf<kDouble> : Element<double, Group::kFloating> {};
template <> struct ElementOf<kLongDouble> : Element<long double, Group::kFloating> {};
template <> struct ElementOf<kCBool> : Element<unsigned char, Group::kLogical> {};
template <> struct ElementOf<kInt8> : Element<int8_t, Group::kCInteger> {};
template <> struct ElementOf<kInt16> : Element<int16_t, Group::kCInteger> {};
template <> struct ElementOf<kInt32> : Element<int32_t, Group::kCInteger> {};
template <> struct ElementOf<kInt64> : Element<int64_t, Group::kCInteger> {};
template <> struct ElementOf<kUint8> : Element<uint8_t, Group::kCInteger> {};
template <> struct ElementOf<kUint16> : Element<uint16_t, Group::kCInteger> {};
template <> struct ElementOf<kUint32> : Element<uint32_t, Group::kCInteger> {};
template <> struct ElementOf<kUint64> : Element<uint64_t, Group::kCInteger> {};
template <> struct ElementOf<kCFloatComplex> : Element<std::complex<float>, Group::kComplex> {};
template <> struct ElementOf<kCDoubleComplex> : Element<std::complex<double>, Group::kComplex> {};
template <> struct ElementOf<kCLongDoubleComplex> : Element<std::complex<long double>, Group::kComplex> {};
template <> struct ElementOf<kAint> : Element<intptr_t, Group::kMultiLanguage> {};
template <> struct ElementOf<kOffset> : Element<long long, Group::kMultiLanguage> {};
template <> struct ElementOf<kCount> : Element<long long, Group::kMultiLanguage> {};
template <> struct ElementOf<kPacked> : Element<unsigned char, Group::kNone> {};
template <> struct ElementOf<kFloatInt> : Element<kernels::Pair<float>, Group::kPair> {};
template <> struct ElementOf<kDoubleInt> : Element<kernels::Pair<double>, Group::kPair> {};
template <> struct ElementOf<kLongInt> : Element<kernels::Pair<long>, Group::kPair> {};
template <> struct ElementOf<k2Int> : Element<kernels::Pair<int>, Group::kPair> {};
template <> struct ElementOf<kShortInt> : Element<kernels::Pair<short>, Group::kPair> {};
template <> struct ElementOf<kLongDoubleInt> : Element<kernels::Pair<long double>, Group::kPair> {};
template <> struct ElementOf<kCxxBool> : Element<unsigned char, Group::kLogical> {};
template <> struct ElementOf<kCxxFloatComplex> : Element<std::complex<float>, Group::kComplex> {};
template <> struct ElementOf<kCxxDoubleComplex> : Element<std::complex<double>, Group::kComplex> {};
template <> struct ElementOf<kCxxLongDoubleComplex> : Element<std::complex<long double>, Group::kComplex> {};
template <> struct ElementOf<kCharacter> : Element<char, Group::kNone> {};
template <> struct ElementOf<kLogical> : Element<int32_t, Group::kLogical> {};  // any nonzero value is .TRUE.
template <> struct ElementOf<kInteger> : Element<int32_t, Group::kFortranInteger> {};
template <> struct ElementOf<kReal> : Element<float, Group::kFloating> {};
template <> struct ElementOf<kDoublePrecision> : Element<double, Group::kFloating> {};
template <> struct ElementOf<kComplex> : Element<std::complex<float>, Group::kComplex> {};
template <> struct ElementOf<kDoubleComplex> : Element<std::complex<double>, Group::kComplex> {};
template <> struct ElementOf<k2Integer> : Element<kernels::Pair<int32_t, int32_t>, Group::kPair> {};
template <> struct ElementOf<k2Real> : Element<kernels::Pair<float, float>, Group::kPair> {};
template <> struct ElementOf<k2DoublePrecision> : Element<kernels::Pair<double, double>, Group::kPair> {};
template <> struct ElementOf<kInteger1> : Element<int8_t, Group::kFortranInteger> {};
template <> struct ElementOf<kInteger2> : Element<int16_t, Group::kFortranInteger> {};
template <> struct ElementOf<kInteger4> : Element<int32_t, Group::kFortranInteger> {};
template <> struct ElementOf<kInteger8> : Element<int64_t, Group::kFortranInteger> {};
template <> struct ElementOf<kReal4> : Element<float, Group::kFloating> {};
template <> struct ElementOf<kReal8> : Element<double, Group::kFloating> {};
template <> struct ElementOf<kComplex8> : Element<std::complex<float>, Group::kComplex> {};
template <> struct ElementOf<kComplex16> : Element<std::complex<double>, Group::kComplex> {};
static_assert(sizeof(bool) == 1, "MPI_C_BOOL and MPI_CXX_BOOL are reduced as single bytes");

template <int Op> struct OperatorOf;
template <> struct OperatorOf<kOpMax> { using type = kernels::Max; };
template <> struct OperatorOf<kOpMin> { using type = kernels::Min; };
template <> struct OperatorOf<kOpSum> { using type = kernels::Sum; };
template <> struct OperatorOf<kOpProd> { using type = kernels::Prod; };
template <> struct OperatorOf<kOpLand> { using type = kernels::Land; };
template <> struct OperatorOf<kOpBand> { using type = kernels::Band; };
template <> struct OperatorOf<kOpLor> { using type = kernels::Lor; };
template <> struct OperatorOf<kOpBor> { using type = kernels::Bor; };
template <> struct OperatorOf<kOpLxor> { using type = kernels::Lxor; };
template <> struct OperatorOf<kOpBxor> { using type = kernels::Bxor; };
template <> struct OperatorOf<kOpMaxloc> { using type = kernels::Maxloc; };
template <> struct OperatorOf<kOpMinloc> { using type = kernels::Minloc; };
template <> struct OperatorOf<kOpReplace> { using type = kernels::Replace; };
template <> struct OperatorOf<kOpNoOp> { using type = kernels::NoOp; };

// ---- The [operator][type] table of loops, nullptr where the standard defines no such reduction ------------------

using Kernel = void (*)(const void* in, void* inout, std::size_t n);

template <int Op, int Type>
constexpr Kernel kernel_for() {
  using E = ElementOf<Type>;
  if constexpr (allowed(Op, E::group))
    return &kernels::loop<typename OperatorOf<Op>::type, typename E::type>;
  else
    return nullptr;
}

template <int Op, int... Types>
constexpr std::array<Kernel, kPredefinedEnd> kernel_row(std::integer_sequence<int, Types...>) {
  return {kernel_for<Op, Types>()...};
}

template <int... Ops>
constexpr auto kernel_table(std::integer_sequence<int, Ops...>) {
  return std::array<std::array<Kernel, kPredefinedEnd>, kPredefinedOpEnd>{
      kernel_row<Ops>(std::make_integer_sequence<int, kPredefinedEnd>())...};
}

constexpr auto kKernels = kernel_table(std::make_integer_sequence<int, kPredefinedOpEnd>());

// Per type: its group, and the size and alignment of its C type.
struct ElementInfo {
  Group group;
  std::size_t size;
  std::size_t alignment;
};

template <int... Types>
constexpr std::array<ElementInfo, kPredefinedEnd> element_table(std::integer_sequence<int, Types...>) {
  return {ElementInfo{ElementOf<Types>::group, sizeof(typename ElementOf<Types>::type),
                      alignof(typename ElementOf<Types>::type)}...};
}

constexpr auto kElements = element_table(std::make_integer_sequence<int, kPredefinedEnd>());

// ---- The predefined operators ------------------------------------------------------------------------------------

// All predefined reductions are commutative (MPI-4.0 6.9.2); MPI_REPLACE and MPI_NO_OP are not (f(a, b) = b and
// f(a, b) = a), and MPICH says so too.
constexpr Op kPredefinedOps[kPredefinedOpEnd] = {
    {kOpNull, false, true, nullptr},   {kOpMax, true, true, nullptr},     {kOpMin, true, true, nullptr},
    {kOpSum, true, true, nullptr},     {kOpProd, true, true, nullptr},    {kOpLand, true, true, nullptr},
    {kOpBand, true, true, nullptr},    {kOpLor, true, true, nullptr},     {kOpBor, true, true, nullptr},
    {kOpLxor, true, true, nullptr},    {kOpBxor, true, true, nullptr},    {kOpMaxloc, true, true, nullptr},
    {kOpMinloc, true, true, nullptr},  {kOpReplace, false, true, nullptr}, {kOpNoOp, false, true, nullptr},
};

constexpr const char* kOpNames[kPredefinedOpEnd] = {
    "MPI_OP_NULL", "MPI_MAX",  "MPI_MIN",    "MPI_SUM",    "MPI_PROD",    "MPI_LAND",  "MPI_BAND", "MPI_LOR",
    "MPI_BOR",     "MPI_LXOR", "MPI_BXOR",   "MPI_MAXLOC", "MPI_MINLOC",  "MPI_REPLACE", "MPI_NO_OP",
};

// "C integer, floating point and complex types": the groups an operator is defined on, for messages.
std::string allowed_groups(int op) {
  std::string out;
  const Group groups[] = {Group::kCInteger, Group::kFortranInteger, Group::kFloating,      Group::kLogical,
                          Group::kComplex,   Group::kByte,           Group::kMultiLanguage, Group::kPair};
  int n = 0, total = 0;
  for (Group g : groups) total += allowed(op, g);
  for (Group g : groups) {
    if (!allowed(op, g)) continue;
    if (n > 0) out += n + 1 == total ? " and " : ", ";
    out += group_name(g);
    ++n;
  }
  return out + " types";
}

// Buffers not aligned for their C type (legal in C for a char buffer passed as MPI_DOUBLE): the loops would read
// misaligned objects, so such calls reduce through aligned copies, one chunk at a time.
void reduce_misaligned(Kernel kernel, const void* in, void* inout, std::size_t count, std::size_t size) {
  constexpr std::size_t kChunkBytes = 4096;
  alignas(alignof(std::max_align_t)) unsigned char a[kChunkBytes], b[kChunkBytes];
  const std::size_t per_chunk = kChunkBytes / size;
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(inout);
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(per_chunk, count - done);
    std::memcpy(a, src + done * size, n * size);
    std::memcpy(b, dst + done * size, n * size);
    kernel(a, b, n);
    std::memcpy(dst + done * size, b, n * size);
    done += n;
  }
}

bool aligned(const void* p, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

// A user function takes an int count (MPI_User_function's len): larger counts go in several calls. A large-count
// one (MPI_Op_create_c) takes any count in one call.
void reduce_user(const Op& op, const void* in, void* inout, std::size_t count, const Datatype& t, int type_handle) {
  auto* a = static_cast<char*>(const_cast<void*>(in));  // invec is not const in MPI_User_function
  auto* b = static_cast<char*>(inout);
  if (op.user_large != nullptr) {
    long long len = static_cast<long long>(count);
    int handle = type_handle;
    if (count > 0) op.user_large(a, b, &len, &handle);
    return;
  }
  while (count > 0) {
    const int n = static_cast<int>(std::min<std::size_t>(count, INT_MAX));
    int len = n, handle = type_handle;
    op.user(a, b, &len, &handle);
    a += static_cast<std::ptrdiff_t>(n) * t.extent();
    b += static_cast<std::ptrdiff_t>(n) * t.extent();
    count -= static_cast<std::size_t>(n);
  }
}

void run(Kernel kernel, const void* in, void* inout, std::size_t n, const ElementInfo& e) {
  if (aligned(in, e.alignment) && aligned(inout, e.alignment))
    kernel(in, inout, n);
  else
    reduce_misaligned(kernel, in, inout, n, e.size);
}

char* data_start(const void* buf, const Datatype& t) {
  return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(buf) + t.true_lb);
}

// `count` elements of `t` as `n` elements of its basic type in that type's own layout (aligned scratch), and back.
std::vector<std::max_align_t> gather(const void* buf, std::size_t count, const Datatype& t, const Datatype& basic,
                                     std::size_t n) {
  std::vector<std::max_align_t> out((n * basic.extent() + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
  if (basic.contiguous) {
    pack(buf, count, t, out.data());
  } else {  // a padded pair: the packed stream has no padding
    std::vector<char> stream(wire_bytes(t, count));
    pack(buf, count, t, stream.data());
    unpack(stream.data(), stream.size(), n, basic, out.data());
  }
  return out;
}

void scatter(const std::vector<std::max_align_t>& in, std::size_t n, const Datatype& basic, std::size_t count,
             const Datatype& t, void* buf) {
  if (basic.contiguous) {
    unpack(in.data(), wire_bytes(t, count), count, t, buf);
  } else {
    std::vector<char> stream(wire_bytes(basic, n));
    pack(in.data(), n, basic, stream.data());
    unpack(stream.data(), stream.size(), count, t, buf);
  }
}

// A derived type with gaps: its basic elements are reduced in scratch copies, then put back in place.
void reduce_gathered(Kernel kernel, const void* in, void* inout, std::size_t count, const Datatype& t,
                     const Datatype& basic, std::size_t n) {
  const std::vector<std::max_align_t> a = gather(in, count, t, basic, n);
  std::vector<std::max_align_t> b = gather(inout, count, t, basic, n);
  kernel(a.data(), b.data(), n);
  scatter(b, n, basic, count, t, inout);
}

}  // namespace

const Op* predefined_op(int kind) {
  if (kind <= kOpNull || kind >= kPredefinedOpEnd) return nullptr;
  return &kPredefinedOps[kind];
}

const char* op_name(const Op& op) {
  return op.kind >= kOpNull && op.kind < kPredefinedOpEnd ? kOpNames[op.kind] : "a user-defined operator";
}

Status check(const Op& op, const Datatype& t, Use use) {
  if (op.kind == kOpUser) return Status::success();
  if (op.kind <= kOpNull || op.kind >= kPredefinedOpEnd) return error(kErrOp, "not a valid operator");
  if (use == Use::kReduction && (op.kind == kOpReplace || op.kind == kOpNoOp))
    return error(kErrOp, std::string(op_name(op)) + " is an accumulate operator (MPI-4.0 12.3.4), not a reduction");
  const std::string type_name = t.predefined ? t.name : "a derived datatype";
  if (use == Use::kReduction && !t.predefined)
    return error(kErrOp, std::string(op_name(op)) + " on " + type_name + ": predefined operators reduce predefined "
                             "datatypes only (MPI-4.0 6.9.2); use a user-defined operator");
  const int type = t.element;
  if (type == 0 && t.size == 0) return Status::success();  // an accumulate of no data (an empty derived type)
  if (type == 0)
    return error(kErrOp, std::string(op_name(op)) + " on " + type_name +
                             ", whose basic elements are not all of one predefined type");
  if (kKernels[op.kind][type] != nullptr) return Status::success();
  const Group g = kElements[type].group;
  std::string what = g == Group::kNone ? std::string(" (in none of the standard's groups of reduction types")
                                       : std::string(" (a ") + group_name(g) + " type";
  return error(kErrOp, std::string(op_name(op)) + " is not defined on " + type_name + what + "; " + op_name(op) +
                           " takes " + allowed_groups(op.kind) + ")");
}

void reduce(const Op& op, const void* in, void* inout, std::size_t count, const Datatype& t, int type_handle) {
  if (count == 0 || t.size == 0) return;
  if (op.kind == kOpUser) return reduce_user(op, in, inout, count, t, type_handle);
  const int type = t.element;
  const Kernel kernel = type > 0 ? kKernels[op.kind][type] : nullptr;
  assert(kernel != nullptr && "datatype::reduce without a successful datatype::check");
  if (kernel == nullptr) return;
  if (t.predefined) return run(kernel, in, inout, count, kElements[type]);
  const Datatype& basic = *predefined(type);
  const std::size_t n = count * t.size / basic.size;  // basic elements
  if (contiguous(t, count) && basic.contiguous)
    run(kernel, data_start(in, t), data_start(inout, t), n, kElements[type]);
  else
    reduce_gathered(kernel, in, inout, count, t, basic, n);
}

}  // namespace strata::datatype
