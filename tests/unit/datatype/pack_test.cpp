// Pack/unpack of predefined types, including the padded MAXLOC/MINLOC pairs, whose wire form skips the padding.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"

using namespace strata::datatype;

namespace {
struct DoubleInt {
  double value;
  int index;
};
}  // namespace

TEST(Predefined, SizesMatchTheCTypes) {
  EXPECT_EQ(predefined(kInt)->size, sizeof(int));
  EXPECT_EQ(predefined(kLongDouble)->size, sizeof(long double));
  EXPECT_EQ(predefined(kDoubleInt)->size, sizeof(double) + sizeof(int));
  EXPECT_EQ(predefined(kDoubleInt)->extent(), static_cast<std::ptrdiff_t>(sizeof(DoubleInt)));
  EXPECT_TRUE(predefined(k2Int)->contiguous);
  EXPECT_FALSE(predefined(kDoubleInt)->contiguous);
  EXPECT_EQ(predefined(0), nullptr);
  EXPECT_EQ(predefined(kPredefinedEnd), nullptr);
}

TEST(Pack, PaddedPairsRoundTrip) {
  const Datatype& t = *predefined(kDoubleInt);
  std::vector<DoubleInt> in(5), out(5, {0, 0});
  for (int i = 0; i < 5; ++i) in[i] = {1.5 * i, 10 + i};
  std::vector<char> wire(wire_bytes(t, 5));
  pack(in.data(), 5, t, wire.data());
  for (int i = 0; i < 5; ++i) {  // the wire holds value then index, no padding
    double v;
    int idx;
    std::memcpy(&v, wire.data() + i * t.size, sizeof v);
    std::memcpy(&idx, wire.data() + i * t.size + sizeof v, sizeof idx);
    EXPECT_EQ(v, in[i].value);
    EXPECT_EQ(idx, in[i].index);
  }
  unpack(wire.data(), wire.size(), 5, t, out.data());
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(out[i].value, in[i].value);
    EXPECT_EQ(out[i].index, in[i].index);
  }
}

TEST(Pack, TruncatedUnpackWritesOnlyWhatArrived) {
  const Datatype& t = *predefined(kInt);
  std::vector<int> out(4, -1);
  const int in[2] = {7, 8};
  unpack(in, sizeof in, 4, t, out.data());
  EXPECT_EQ(out, (std::vector<int>{7, 8, -1, -1}));
}
