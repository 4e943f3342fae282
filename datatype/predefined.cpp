#include "datatype/predefined.hpp"

#include <array>
#include <complex.h>
#include <cstddef>
#include <cstdint>
#include <cwchar>

#include "runtime/lasting.hpp"

namespace strata::datatype {
namespace {

// The pair types of MAXLOC/MINLOC are C structs {value; int} (Fortran's: {value; value}); their extent includes the
// padding.
template <class V, class Index = int>
struct Pair {
  V value;
  Index index;
};

struct Entry {
  Datatype type;
  BasicParts parts;
};

Entry base(const char* name, int index, std::size_t extent, std::size_t alignment) {
  Entry e;
  Datatype& t = e.type;
  t.name = name;
  t.ub = static_cast<std::ptrdiff_t>(extent);
  t.alignment = alignment;
  t.predefined = t.committed = true;
  t.element = index;
  return e;
}

template <class T>
Entry simple(const char* name, int index) {
  Entry e = base(name, index, sizeof(T), alignof(T));
  e.type.size = sizeof(T);
  e.type.true_ub = sizeof(T);
  e.type.contiguous = true;
  e.type.elements = 1;
  e.type.layout.append(Piece{0, 1, 0, sizeof(T), nullptr});
  e.parts = {{sizeof(T), 0}, 1};
  return e;
}

// A pair's size is its data (value + index) and its extent the struct's: contiguous only without padding.
template <class V, class Index = int>
Entry pair(const char* name, int index) {
  using P = Pair<V, Index>;
  Entry e = base(name, index, sizeof(P), alignof(P));
  e.type.size = sizeof(V) + sizeof(Index);
  e.type.true_ub = offsetof(P, index) + sizeof(Index);
  e.type.elements = 2;
  e.type.layout.append(Piece{0, 1, 0, sizeof(V), nullptr});
  e.type.layout.append(Piece{offsetof(P, index), 1, 0, sizeof(Index), nullptr});
  e.type.contiguous = e.type.layout.is_one_block() && e.type.size == sizeof(P);
  e.parts = {{sizeof(V), sizeof(Index)}, 2};
  return e;
}

// long double has 10 data bytes in 16 on x86-64, but MPI treats it as an opaque 16-byte element. Mutable: MPI lets
// a program rename predefined types (MPI_Type_set_name).
std::array<Entry, kPredefinedEnd>& table() {
  static auto& t = runtime::lasting<std::array<Entry, kPredefinedEnd>>(std::array<Entry, kPredefinedEnd>{
      Entry{},
      simple<char>("MPI_CHAR", kChar),
      simple<signed char>("MPI_SIGNED_CHAR", kSignedChar),
      simple<unsigned char>("MPI_UNSIGNED_CHAR", kUnsignedChar),
      simple<unsigned char>("MPI_BYTE", kByte),
      simple<wchar_t>("MPI_WCHAR", kWchar),
      simple<short>("MPI_SHORT", kShort),
      simple<unsigned short>("MPI_UNSIGNED_SHORT", kUnsignedShort),
      simple<int>("MPI_INT", kInt),
      simple<unsigned>("MPI_UNSIGNED", kUnsigned),
      simple<long>("MPI_LONG", kLong),
      simple<unsigned long>("MPI_UNSIGNED_LONG", kUnsignedLong),
      simple<long long>("MPI_LONG_LONG_INT", kLongLong),
      simple<unsigned long long>("MPI_UNSIGNED_LONG_LONG", kUnsignedLongLong),
      simple<float>("MPI_FLOAT", kFloat),
      simple<double>("MPI_DOUBLE", kDouble),
      simple<long double>("MPI_LONG_DOUBLE", kLongDouble),
      simple<bool>("MPI_C_BOOL", kCBool),
      simple<int8_t>("MPI_INT8_T", kInt8),
      simple<int16_t>("MPI_INT16_T", kInt16),
      simple<int32_t>("MPI_INT32_T", kInt32),
      simple<int64_t>("MPI_INT64_T", kInt64),
      simple<uint8_t>("MPI_UINT8_T", kUint8),
      simple<uint16_t>("MPI_UINT16_T", kUint16),
      simple<uint32_t>("MPI_UINT32_T", kUint32),
      simple<uint64_t>("MPI_UINT64_T", kUint64),
      simple<float _Complex>("MPI_C_COMPLEX", kCFloatComplex),  // MPI_C_FLOAT_COMPLEX is its synonym
      simple<double _Complex>("MPI_C_DOUBLE_COMPLEX", kCDoubleComplex),
      simple<long double _Complex>("MPI_C_LONG_DOUBLE_COMPLEX", kCLongDoubleComplex),
      simple<intptr_t>("MPI_AINT", kAint),
      simple<long long>("MPI_OFFSET", kOffset),
      simple<long long>("MPI_COUNT", kCount),
      simple<unsigned char>("MPI_PACKED", kPacked),
      pair<float>("MPI_FLOAT_INT", kFloatInt),
      pair<double>("MPI_DOUBLE_INT", kDoubleInt),
      pair<long>("MPI_LONG_INT", kLongInt),
      pair<int>("MPI_2INT", k2Int),
      pair<short>("MPI_SHORT_INT", kShortInt),
      pair<long double>("MPI_LONG_DOUBLE_INT", kLongDoubleInt),
      simple<bool>("MPI_CXX_BOOL", kCxxBool),
      simple<float _Complex>("MPI_CXX_FLOAT_COMPLEX", kCxxFloatComplex),
      simple<double _Complex>("MPI_CXX_DOUBLE_COMPLEX", kCxxDoubleComplex),
      simple<long double _Complex>("MPI_CXX_LONG_DOUBLE_COMPLEX", kCxxLongDoubleComplex),
      simple<char>("MPI_CHARACTER", kCharacter),
      simple<int32_t>("MPI_LOGICAL", kLogical),
      simple<int32_t>("MPI_INTEGER", kInteger),
      simple<float>("MPI_REAL", kReal),
      simple<double>("MPI_DOUBLE_PRECISION", kDoublePrecision),
      simple<float _Complex>("MPI_COMPLEX", kComplex),
      simple<double _Complex>("MPI_DOUBLE_COMPLEX", kDoubleComplex),
      pair<int32_t, int32_t>("MPI_2INTEGER", k2Integer),
      pair<float, float>("MPI_2REAL", k2Real),
      pair<double, double>("MPI_2DOUBLE_PRECISION", k2DoublePrecision),
      simple<int8_t>("MPI_INTEGER1", kInteger1),
      simple<int16_t>("MPI_INTEGER2", kInteger2),
      simple<int32_t>("MPI_INTEGER4", kInteger4),
      simple<int64_t>("MPI_INTEGER8", kInteger8),
      simple<float>("MPI_REAL4", kReal4),
      simple<double>("MPI_REAL8", kReal8),
      simple<float _Complex>("MPI_COMPLEX8", kComplex8),
      simple<double _Complex>("MPI_COMPLEX16", kComplex16),
  });
  return t;
}

}  // namespace

TypeRef predefined(int index) {
  if (index <= 0 || index >= kPredefinedEnd) return nullptr;
  return TypeRef(TypeRef(), &table()[index].type);  // aliasing an empty owner: no reference count
}

BasicParts basic_parts(int index) { return table()[index].parts; }

}  // namespace strata::datatype
