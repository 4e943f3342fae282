#include "datatype/external32.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include "datatype/predefined.hpp"

namespace strata::datatype {
namespace {

enum class Kind : std::uint8_t { kBytes, kSigned, kUnsigned, kFloat, kLongDouble };

struct Scalar {  // one basic value: how it converts, its native and external sizes
  Kind kind;
  std::uint8_t native, external;
};

struct Parts {  // a predefined type's values in stream order: 1, or 2 for complexes and MAXLOC/MINLOC pairs
  Scalar scalars[2];
  int count;
};

constexpr Scalar S(Kind k, std::size_t native, std::size_t external) {
  return {k, static_cast<std::uint8_t>(native), static_cast<std::uint8_t>(external)};
}
template <class T>
constexpr Scalar same(Kind k) {
  return S(k, sizeof(T), sizeof(T));
}
constexpr Scalar kIntScalar = same<int>(Kind::kSigned);
constexpr Scalar kLongDoubleScalar = S(Kind::kLongDouble, sizeof(long double), 16);

// The standard's external32 table (MPI-4.0 Table 13.2), by predefined type.
Parts parts_of(int element) {
  switch (element) {
    case kChar: case kSignedChar: case kUnsignedChar: case kByte: case kPacked: case kCBool: case kCxxBool:
    case kInt8: case kUint8: case kCharacter: case kInteger1:
      return {{S(Kind::kBytes, 1, 1)}, 1};
    case kWchar: return {{S(Kind::kUnsigned, sizeof(wchar_t), 2)}, 1};
    case kShort: case kInt16: case kInteger2: return {{same<short>(Kind::kSigned)}, 1};
    case kUnsignedShort: case kUint16: return {{same<unsigned short>(Kind::kUnsigned)}, 1};
    case kInt: case kInt32: case kLogical: case kInteger: case kInteger4: return {{kIntScalar}, 1};
    case kUnsigned: case kUint32: return {{same<unsigned>(Kind::kUnsigned)}, 1};
    case kLong: return {{S(Kind::kSigned, sizeof(long), 4)}, 1};
    case kUnsignedLong: return {{S(Kind::kUnsigned, sizeof(unsigned long), 4)}, 1};
    case kLongLong: case kInt64: case kAint: case kOffset: case kCount: case kInteger8:
      return {{same<long long>(Kind::kSigned)}, 1};
    case kUnsignedLongLong: case kUint64: return {{same<unsigned long long>(Kind::kUnsigned)}, 1};
    case kFloat: case kReal: case kReal4: return {{same<float>(Kind::kFloat)}, 1};
    case kDouble: case kDoublePrecision: case kReal8: return {{same<double>(Kind::kFloat)}, 1};
    case kLongDouble: return {{kLongDoubleScalar}, 1};
    case kCFloatComplex: case kCxxFloatComplex: case kComplex: case kComplex8:
      return {{same<float>(Kind::kFloat), same<float>(Kind::kFloat)}, 2};
    case kCDoubleComplex: case kCxxDoubleComplex: case kDoubleComplex: case kComplex16:
      return {{same<double>(Kind::kFloat), same<double>(Kind::kFloat)}, 2};
    case kCLongDoubleComplex: case kCxxLongDoubleComplex: return {{kLongDoubleScalar, kLongDoubleScalar}, 2};
    case kFloatInt: return {{same<float>(Kind::kFloat), kIntScalar}, 2};
    case kDoubleInt: return {{same<double>(Kind::kFloat), kIntScalar}, 2};
    case kLongInt: return {{S(Kind::kSigned, sizeof(long), 4), kIntScalar}, 2};
    case k2Int: case k2Integer: return {{kIntScalar, kIntScalar}, 2};
    case k2Real: return {{same<float>(Kind::kFloat), same<float>(Kind::kFloat)}, 2};
    case k2DoublePrecision: return {{same<double>(Kind::kFloat), same<double>(Kind::kFloat)}, 2};
    case kShortInt: return {{same<short>(Kind::kSigned), kIntScalar}, 2};
    case kLongDoubleInt: return {{kLongDoubleScalar, kIntScalar}, 2};
  }
  return {{}, 0};
}

// Calls f(scalar) for every basic value of one element of t, in stream order.
template <class F>
void for_each_scalar(const Datatype& t, F& f) {
  if (t.predefined) {
    const Parts p = parts_of(t.element);
    for (int i = 0; i < p.count; ++i) f(p.scalars[i]);
    return;
  }
  for (const SignaturePart& part : t.signature)
    for (std::size_t r = 0; r < part.repeat; ++r) for_each_scalar(*part.type, f);
}

// Integers: the native value (little-endian, n bytes) as 64 bits, sign- or zero-extended.
std::uint64_t load(const char* p, std::size_t n, bool is_signed) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, n);  // little-endian host
  if (is_signed && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~std::uint64_t{0} << (8 * n);
  return v;
}

bool fits(std::uint64_t v, std::size_t n, bool is_signed) {
  if (n >= 8) return true;
  const int bits = static_cast<int>(8 * n);
  if (!is_signed) return v >> bits == 0;
  const auto s = static_cast<std::int64_t>(v);
  return s >= -(std::int64_t{1} << (bits - 1)) && s < (std::int64_t{1} << (bits - 1));
}

void store_big_endian(std::uint64_t v, std::size_t n, char* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>(v >> (8 * (n - 1 - i)));
}

std::uint64_t load_big_endian(const char* in, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = v << 8 | static_cast<unsigned char>(in[i]);
  return v;
}

void reverse_copy(const char* in, std::size_t n, char* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = in[n - 1 - i];
}

static_assert(sizeof(__float128) == 16, "external32's long double is IEEE binary128");

}  // namespace

std::size_t external32_bytes(const Datatype& t, std::size_t count) {
  std::size_t bytes = 0;
  auto add = [&](const Scalar& s) { bytes += s.external; };
  for_each_scalar(t, add);
  return bytes * count;
}

Status to_external32(const Datatype& t, std::size_t count, const char* native, char* out) {
  Status status;
  auto convert = [&](const Scalar& s) {
    switch (s.kind) {
      case Kind::kBytes: std::memcpy(out, native, s.native); break;
      case Kind::kFloat: reverse_copy(native, s.native, out); break;
      case Kind::kLongDouble: {
        long double x;
        std::memcpy(&x, native, sizeof x);
        const __float128 q = static_cast<__float128>(x);
        reverse_copy(reinterpret_cast<const char*>(&q), 16, out);
        break;
      }
      case Kind::kSigned: case Kind::kUnsigned: {
        const bool is_signed = s.kind == Kind::kSigned;
        const std::uint64_t v = load(native, s.native, is_signed);
        if (!fits(v, s.external, is_signed) && status.ok())
          status = error(kErrConversion, "the value " + (is_signed ? std::to_string(static_cast<std::int64_t>(v))
                                                                   : std::to_string(v)) +
                                             " does not fit external32's " + std::to_string(s.external) + " bytes");
        store_big_endian(v, s.external, out);
        break;
      }
    }
    native += s.native;
    out += s.external;
  };
  for (std::size_t i = 0; i < count; ++i) for_each_scalar(t, convert);
  return status;
}

void from_external32(const Datatype& t, std::size_t count, const char* external, char* native) {
  auto convert = [&](const Scalar& s) {
    switch (s.kind) {
      case Kind::kBytes: std::memcpy(native, external, s.native); break;
      case Kind::kFloat: reverse_copy(external, s.native, native); break;
      case Kind::kLongDouble: {
        __float128 q;
        reverse_copy(external, 16, reinterpret_cast<char*>(&q));
        const long double x = static_cast<long double>(q);
        std::memcpy(native, &x, sizeof x);
        break;
      }
      case Kind::kSigned: case Kind::kUnsigned: {
        std::uint64_t v = load_big_endian(external, s.external);
        const std::size_t bits = 8 * s.external;
        if (s.kind == Kind::kSigned && bits < 64 && (v >> (bits - 1)) & 1) v |= ~std::uint64_t{0} << bits;
        std::memcpy(native, &v, s.native);  // little-endian host: the low bytes
        break;
      }
    }
    native += s.native;
    external += s.external;
  };
  for (std::size_t i = 0; i < count; ++i) for_each_scalar(t, convert);
}

}  // namespace strata::datatype
