// The external32 representation against bytes written out by hand from MPI-4.0 13.5.2: big-endian, the standard's
// sizes (long and unsigned long 4, wchar 2, long double 16 as IEEE binary128), pairs and complexes value by value,
// derived types through their signature; round trips; a long beyond 32 bits refused.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <vector>

#include "datatype/construct.hpp"
#include "datatype/external32.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"

using namespace strata::datatype;

namespace {

using Bytes = std::vector<unsigned char>;

// `count` values at `native` (a packed stream) converted to external32.
template <class T>
Bytes external(int type, const T* native, std::size_t count) {
  const Datatype& t = *predefined(type);
  Bytes out(external32_bytes(t, count));
  EXPECT_TRUE(to_external32(t, count, reinterpret_cast<const char*>(native), reinterpret_cast<char*>(out.data())).ok());
  return out;
}

template <class T>
std::vector<T> native(int type, const Bytes& in, std::size_t count) {
  std::vector<T> out(count);
  from_external32(*predefined(type), count, reinterpret_cast<const char*>(in.data()),
                  reinterpret_cast<char*>(out.data()));
  return out;
}

}  // namespace

TEST(External32, SizesFollowTheStandardsTable) {
  const std::pair<int, std::size_t> sizes[] = {
      {kChar, 1}, {kWchar, 2}, {kShort, 2}, {kInt, 4}, {kLong, 4}, {kUnsignedLong, 4}, {kLongLong, 8},
      {kFloat, 4}, {kDouble, 8}, {kLongDouble, 16}, {kCBool, 1}, {kAint, 8}, {kOffset, 8}, {kCount, 8},
      {kInt64, 8}, {kCFloatComplex, 8}, {kCLongDoubleComplex, 32}, {kDoubleInt, 12}, {kLongInt, 8},
      {kShortInt, 6}, {kLongDoubleInt, 20}, {k2Int, 8}, {kPacked, 1}, {kByte, 1}};
  for (const auto& [type, size] : sizes) EXPECT_EQ(external32_bytes(*predefined(type), 3), 3 * size) << type;
}

TEST(External32, IntegersAreBigEndianAtTheirExternalSize) {
  const int ints[2] = {0x01020304, -2};
  EXPECT_EQ(external(kInt, ints, 2), (Bytes{1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe}));
  const long longs[2] = {0x0a0b0c0d, -3};
  EXPECT_EQ(external(kLong, longs, 2), (Bytes{0x0a, 0x0b, 0x0c, 0x0d, 0xff, 0xff, 0xff, 0xfd}));
  const unsigned long ulongs[1] = {0xfffffffful};
  EXPECT_EQ(external(kUnsignedLong, ulongs, 1), (Bytes{0xff, 0xff, 0xff, 0xff}));
  const wchar_t w[1] = {L'\x263a'};
  EXPECT_EQ(external(kWchar, w, 1), (Bytes{0x26, 0x3a}));
  const short s[1] = {-0x1234};
  EXPECT_EQ(external(kShort, s, 1), (Bytes{0xed, 0xcc}));
  const long long ll[1] = {0x0102030405060708LL};
  EXPECT_EQ(external(kLongLong, ll, 1), (Bytes{1, 2, 3, 4, 5, 6, 7, 8}));
  // Widened back by sign (long) or zeros (unsigned long).
  EXPECT_EQ(native<long>(kLong, external(kLong, longs, 2), 2), (std::vector<long>{0x0a0b0c0d, -3}));
  EXPECT_EQ(native<unsigned long>(kUnsignedLong, external(kUnsignedLong, ulongs, 1), 1),
            (std::vector<unsigned long>{0xfffffffful}));
}

TEST(External32, FloatingPointIsIeeeBigEndian) {
  const double d[1] = {1.5};  // 0x3ff8000000000000
  EXPECT_EQ(external(kDouble, d, 1), (Bytes{0x3f, 0xf8, 0, 0, 0, 0, 0, 0}));
  const float f[1] = {-2.0f};  // 0xc0000000
  EXPECT_EQ(external(kFloat, f, 1), (Bytes{0xc0, 0, 0, 0}));
  const long double ld[1] = {1.5L};  // binary128: sign 0, exponent 0x3fff, fraction 1000...
  Bytes want(16, 0);
  want[0] = 0x3f, want[1] = 0xff, want[2] = 0x80;
  EXPECT_EQ(external(kLongDouble, ld, 1), want);
  EXPECT_EQ(native<long double>(kLongDouble, want, 1)[0], 1.5L);
  const float c[2] = {1.0f, -1.0f};  // a float complex: real, then imaginary, each swapped
  EXPECT_EQ(external(kCFloatComplex, c, 1), (Bytes{0x3f, 0x80, 0, 0, 0xbf, 0x80, 0, 0}));
}

TEST(External32, PairsConvertValueByValue) {
  // MPI_DOUBLE_INT's packed stream is the double then the int, no padding (pack.hpp).
  unsigned char packed[12];
  const double v = 2.0;  // 0x4000000000000000
  const int index = 7;
  std::memcpy(packed, &v, 8);
  std::memcpy(packed + 8, &index, 4);
  EXPECT_EQ(external(kDoubleInt, packed, 1), (Bytes{0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7}));
}

TEST(External32, DerivedTypesRoundTrip) {
  // {long, double, short} x 2 in a vector, through the signature tree.
  const TypeRef types[3] = {predefined(kLong), predefined(kDouble), predefined(kShort)};
  const int lengths[3] = {1, 1, 1};
  const std::ptrdiff_t disps[3] = {0, 8, 16};
  TypeRef record, vec;
  ASSERT_TRUE(structure(lengths, disps, types, record).ok());
  ASSERT_TRUE(vector(2, 1, 1, record, vec).ok());
  EXPECT_EQ(external32_bytes(*vec, 1), 2 * (4 + 8 + 2));
  std::vector<char> stream(wire_bytes(*vec, 1));
  const long l[2] = {-5, 1 << 30};
  const double d[2] = {0.25, -8.0};
  const short s[2] = {300, -300};
  for (int i = 0; i < 2; ++i) {
    char* p = stream.data() + i * 18;
    std::memcpy(p, &l[i], 8);
    std::memcpy(p + 8, &d[i], 8);
    std::memcpy(p + 16, &s[i], 2);
  }
  Bytes ext(external32_bytes(*vec, 1));
  ASSERT_TRUE(to_external32(*vec, 1, stream.data(), reinterpret_cast<char*>(ext.data())).ok());
  EXPECT_EQ(Bytes(ext.begin(), ext.begin() + 4), (Bytes{0xff, 0xff, 0xff, 0xfb}));  // -5 in 4 bytes
  EXPECT_EQ(Bytes(ext.begin() + 14, ext.begin() + 18), (Bytes{0x40, 0, 0, 0}));    // 1 << 30
  std::vector<char> back(stream.size());
  from_external32(*vec, 1, reinterpret_cast<const char*>(ext.data()), back.data());
  EXPECT_EQ(back, stream);
}

TEST(External32, ALongBeyond32BitsIsAConversionError) {
  const long big[2] = {1, 1L << 40};
  const Datatype& t = *predefined(kLong);
  Bytes out(external32_bytes(t, 2));
  const auto s = to_external32(t, 2, reinterpret_cast<const char*>(big), reinterpret_cast<char*>(out.data()));
  EXPECT_EQ(s.error_class, 25);  // MPI_ERR_CONVERSION
  EXPECT_NE(s.message.find("1099511627776"), std::string::npos) << s.message;
  const long smallest[1] = {INT_MIN};
  EXPECT_TRUE(to_external32(t, 1, reinterpret_cast<const char*>(smallest), reinterpret_cast<char*>(out.data())).ok());
}
