#include "datatype/predefined.hpp"

#include <complex.h>
#include <cstddef>
#include <cstdint>
#include <cwchar>

namespace strata::datatype {
namespace {

// The pair types of MAXLOC/MINLOC are C structs {value; int}; their extent includes the padding.
template <class V>
struct Pair {
  V value;
  int index;
};

template <class T>
constexpr Datatype simple(const char* name) {
  return {name, sizeof(T), 0, sizeof(T), true, true, {}, 0};
}

// A pair's size is its data (value + int) and its extent the struct's: contiguous only without padding.
template <class V>
constexpr Datatype pair(const char* name) {
  return {name,
          sizeof(V) + sizeof(int),
          0,
          sizeof(Pair<V>),
          sizeof(V) + sizeof(int) == sizeof(Pair<V>),
          true,
          {{0, sizeof(V)}, {offsetof(Pair<V>, index), sizeof(int)}},
          2};
}

// long double has 10 data bytes in 16 on x86-64, but MPI treats it as an opaque 16-byte element.
const Datatype kTable[kPredefinedEnd] = {
    {"MPI_DATATYPE_NULL", 0, 0, 0, true, true, {}, 0},
    simple<char>("MPI_CHAR"),
    simple<signed char>("MPI_SIGNED_CHAR"),
    simple<unsigned char>("MPI_UNSIGNED_CHAR"),
    simple<unsigned char>("MPI_BYTE"),
    simple<wchar_t>("MPI_WCHAR"),
    simple<short>("MPI_SHORT"),
    simple<unsigned short>("MPI_UNSIGNED_SHORT"),
    simple<int>("MPI_INT"),
    simple<unsigned>("MPI_UNSIGNED"),
    simple<long>("MPI_LONG"),
    simple<unsigned long>("MPI_UNSIGNED_LONG"),
    simple<long long>("MPI_LONG_LONG_INT"),
    simple<unsigned long long>("MPI_UNSIGNED_LONG_LONG"),
    simple<float>("MPI_FLOAT"),
    simple<double>("MPI_DOUBLE"),
    simple<long double>("MPI_LONG_DOUBLE"),
    simple<bool>("MPI_C_BOOL"),
    simple<int8_t>("MPI_INT8_T"),
    simple<int16_t>("MPI_INT16_T"),
    simple<int32_t>("MPI_INT32_T"),
    simple<int64_t>("MPI_INT64_T"),
    simple<uint8_t>("MPI_UINT8_T"),
    simple<uint16_t>("MPI_UINT16_T"),
    simple<uint32_t>("MPI_UINT32_T"),
    simple<uint64_t>("MPI_UINT64_T"),
    simple<float _Complex>("MPI_C_FLOAT_COMPLEX"),
    simple<double _Complex>("MPI_C_DOUBLE_COMPLEX"),
    simple<long double _Complex>("MPI_C_LONG_DOUBLE_COMPLEX"),
    simple<intptr_t>("MPI_AINT"),
    simple<long long>("MPI_OFFSET"),
    simple<long long>("MPI_COUNT"),
    simple<unsigned char>("MPI_PACKED"),
    pair<float>("MPI_FLOAT_INT"),
    pair<double>("MPI_DOUBLE_INT"),
    pair<long>("MPI_LONG_INT"),
    pair<int>("MPI_2INT"),
    pair<short>("MPI_SHORT_INT"),
    pair<long double>("MPI_LONG_DOUBLE_INT"),
    simple<bool>("MPI_CXX_BOOL"),
    simple<float _Complex>("MPI_CXX_FLOAT_COMPLEX"),
    simple<double _Complex>("MPI_CXX_DOUBLE_COMPLEX"),
    simple<long double _Complex>("MPI_CXX_LONG_DOUBLE_COMPLEX"),
};

}  // namespace

const Datatype* predefined(int index) {
  if (index <= 0 || index >= kPredefinedEnd) return nullptr;
  return &kTable[index];
}

}  // namespace strata::datatype
