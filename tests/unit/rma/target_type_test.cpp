// Target datatypes as they travel with one-sided operations (rma/target_type.hpp). encode_type then decode_type of
// predefined types (a MAXLOC pair among them) and of derived ones (contiguous, vector, hvector, uneven indexed,
// mixed struct, resized with markers, a vector of an indexed type whose layout nests bodies, a hindexed one with a
// body at a negative offset): the decoded type has the original's bounds, size and element counts, takes exactly
// the encoded bytes, and packs and unpacks 3 elements to the same bytes as the original. Every truncated encoding,
// a garbage tag and fields that name no type are refused, without reading past the length given. span_of against
// bounds worked out by hand from the types' definitions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#include "datatype/construct.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"
#include "rma/target_type.hpp"

namespace dt = strata::datatype;
using dt::TypeRef;
using strata::Status;
using strata::rma::decode_type;
using strata::rma::encode_type;
using strata::rma::span_of;

namespace {

using Span = std::pair<std::ptrdiff_t, std::ptrdiff_t>;

TypeRef make(const std::function<Status(TypeRef&)>& construct) {
  TypeRef t;
  const Status s = construct(t);
  EXPECT_TRUE(s.ok()) << s.message;
  return t;
}

TypeRef int_type() { return dt::predefined(dt::kInt); }
TypeRef double_type() { return dt::predefined(dt::kDouble); }

// Blocks of 2, 3, 1 and 4 ints at ints 9, 0, 4 and 15: bytes [36,44) [0,12) [16,20) [60,76), packed in that order.
TypeRef uneven_indexed() {
  return make([](TypeRef& t) {
    return dt::indexed(std::vector<int>{2, 3, 1, 4}, std::vector<int>{9, 0, 4, 15}, int_type(), t);
  });
}

// 3 blocks of 2 of the indexed type, 3 of its extents (228 bytes) apart: the blocks and the indexed type stay
// bodies, two levels deep.
TypeRef vector_of_indexed() {
  return make([](TypeRef& t) { return dt::vector(3, 2, 3, uneven_indexed(), t); });
}

struct Mixed {
  char c;
  double d[2];
  int i;
};

TypeRef mixed_struct() {
  return make([](TypeRef& t) {
    const std::vector<TypeRef> types{dt::predefined(dt::kChar), double_type(), int_type()};
    return dt::structure(std::vector<int>{1, 2, 1},
                         std::vector<std::ptrdiff_t>{offsetof(Mixed, c), offsetof(Mixed, d), offsetof(Mixed, i)},
                         types, t);
  });
}

// Ints at bytes [-12,-8) and [4,8), resized to lb -16, extent 32: markers below and above the data.
TypeRef resized_around() {
  const TypeRef pair = make([](TypeRef& t) {
    return dt::hindexed(std::vector<int>{1, 1}, std::vector<std::ptrdiff_t>{-12, 4}, int_type(), t);
  });
  return make([&](TypeRef& t) { return dt::resized(pair, -16, 32, t); });
}

// Two of the indexed type at byte -200 (a body at a negative offset) and one at byte 100 (its pieces inlined).
TypeRef hindexed_of_indexed() {
  return make([](TypeRef& t) {
    return dt::hindexed(std::vector<int>{2, 1}, std::vector<std::ptrdiff_t>{-200, 100}, uneven_indexed(), t);
  });
}

// Nesting depth of a layout: 1 when no piece has a body.
int depth(const dt::Layout& layout) {
  int deepest = 0;
  for (const dt::Piece& p : layout.pieces) deepest = std::max(deepest, p.body ? depth(*p.body) : 0);
  return deepest + 1;
}

std::vector<char> encoded(const TypeRef& t) {
  std::vector<char> out;
  encode_type(*t, out);
  return out;
}

// Encodes `t`, decodes it with bytes of another type behind it, and compares the two types field by field and
// by what pack and unpack do with 3 elements of a buffer of distinct bytes.
void expect_round_trip(const TypeRef& t) {
  ASSERT_NE(t, nullptr);
  std::vector<char> bytes = encoded(t);
  const std::size_t length = bytes.size();
  encode_type(*vector_of_indexed(), bytes);  // trailing bytes: not part of this description
  std::size_t used = 0;
  const TypeRef d = decode_type(bytes.data(), bytes.size(), used);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(used, length);
  EXPECT_EQ(d->size, t->size);
  EXPECT_EQ(d->lb, t->lb);
  EXPECT_EQ(d->ub, t->ub);
  EXPECT_EQ(d->true_lb, t->true_lb);
  EXPECT_EQ(d->true_ub, t->true_ub);
  EXPECT_EQ(d->element, t->element);
  EXPECT_EQ(d->elements, t->elements);

  constexpr std::size_t kCount = 3;
  constexpr std::ptrdiff_t kMargin = 4096;  // on either side of the buffer's address
  ASSERT_LT(std::abs(t->true_lb) + std::abs(t->true_ub) + 2 * std::abs(t->extent()), kMargin);
  std::vector<char> memory(2 * kMargin);
  std::minstd_rand random(7);
  for (char& c : memory) c = static_cast<char>(random() >> 8);
  const std::size_t packed_bytes = dt::wire_bytes(*t, kCount);
  ASSERT_GT(packed_bytes, 0u);
  ASSERT_EQ(dt::wire_bytes(*d, kCount), packed_bytes);
  std::vector<char> by_original(packed_bytes), by_decoded(packed_bytes);
  dt::pack(memory.data() + kMargin, kCount, *t, by_original.data());
  dt::pack(memory.data() + kMargin, kCount, *d, by_decoded.data());
  EXPECT_EQ(by_decoded, by_original);

  std::vector<char> into_original(2 * kMargin, 0), into_decoded(2 * kMargin, 0);
  dt::unpack(by_original.data(), packed_bytes, kCount, *t, into_original.data() + kMargin);
  dt::unpack(by_original.data(), packed_bytes, kCount, *d, into_decoded.data() + kMargin);
  EXPECT_NE(into_original, std::vector<char>(2 * kMargin, 0));  // the comparison below compares something
  EXPECT_EQ(into_decoded, into_original);
}

// Decoding the first n bytes of `t`'s encoding, for every n short of the whole, finds no type. The whole encoding
// stays behind the n bytes, so a decoder reading past them would find one; the exact-size copies are for
// scripts/test-sanitized.
void expect_prefixes_refused(const TypeRef& t) {
  ASSERT_NE(t, nullptr);
  const std::vector<char> bytes = encoded(t);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::size_t used = 0;
    EXPECT_EQ(decode_type(bytes.data(), n, used), nullptr) << n << " of " << bytes.size() << " bytes";
    const auto exact = std::make_unique<char[]>(n);
    std::memcpy(exact.get(), bytes.data(), n);
    EXPECT_EQ(decode_type(exact.get(), n, used), nullptr) << n << " of " << bytes.size() << " bytes, copied";
  }
}

}  // namespace

TEST(TargetType, PredefinedIntRoundTrips) {
  expect_round_trip(int_type());
  std::size_t used = 0;
  const std::vector<char> bytes = encoded(int_type());
  EXPECT_EQ(decode_type(bytes.data(), bytes.size(), used), int_type());  // the same predefined type
}

TEST(TargetType, PredefinedDoubleRoundTrips) { expect_round_trip(double_type()); }

TEST(TargetType, MaxlocPairRoundTrips) {  // the padded pair: 12 bytes of data in an extent of 16
  expect_round_trip(dt::predefined(dt::kDoubleInt));
}

TEST(TargetType, ContiguousRoundTrips) {
  expect_round_trip(make([](TypeRef& t) { return dt::contiguous(4, double_type(), t); }));
}

TEST(TargetType, StridedVectorRoundTrips) {
  expect_round_trip(make([](TypeRef& t) { return dt::vector(3, 2, 5, int_type(), t); }));
  expect_round_trip(make([](TypeRef& t) { return dt::vector(3, 2, -5, int_type(), t); }));
}

TEST(TargetType, HvectorRoundTrips) {  // doubles 12 bytes apart
  expect_round_trip(make([](TypeRef& t) { return dt::hvector(3, 1, 12, double_type(), t); }));
}

TEST(TargetType, UnevenIndexedRoundTrips) {
  const TypeRef t = uneven_indexed();
  ASSERT_EQ(t->layout.pieces.size(), 4u);  // no blocks merged
  expect_round_trip(t);
}

TEST(TargetType, MixedStructRoundTrips) {
  const TypeRef t = mixed_struct();
  EXPECT_EQ(t->element, 0);  // mixed
  EXPECT_EQ(t->extent(), static_cast<std::ptrdiff_t>(sizeof(Mixed)));
  expect_round_trip(t);
}

TEST(TargetType, ResizedWithMarkersRoundTrips) {
  const TypeRef t = resized_around();
  EXPECT_EQ(t->lb, -16);
  EXPECT_EQ(t->ub, 16);
  EXPECT_EQ(t->true_lb, -12);
  EXPECT_EQ(t->true_ub, 8);
  expect_round_trip(t);
}

TEST(TargetType, VectorOfIndexedWithNestedBodiesRoundTrips) {
  const TypeRef t = vector_of_indexed();
  ASSERT_EQ(depth(t->layout), 3);  // vector -> blocks of 2 -> the indexed type's pieces
  expect_round_trip(t);
}

TEST(TargetType, HindexedOfIndexedWithOffsetBodiesRoundTrips) {
  const TypeRef t = hindexed_of_indexed();
  ASSERT_EQ(t->layout.pieces.size(), 5u);
  ASSERT_NE(t->layout.pieces[0].body, nullptr);
  ASSERT_EQ(t->layout.pieces[0].offset, -200);
  expect_round_trip(t);
}

TEST(TargetType, EveryTruncatedEncodingIsRefused) {
  const std::vector<TypeRef> types{int_type(), dt::predefined(dt::kDoubleInt), uneven_indexed(), mixed_struct(),
                                   resized_around(), vector_of_indexed(), hindexed_of_indexed()};
  for (std::size_t i = 0; i < types.size(); ++i) {
    SCOPED_TRACE(i);
    expect_prefixes_refused(types[i]);
  }
}

TEST(TargetType, GarbageTagIsRefused) {
  for (const TypeRef& t : {int_type(), vector_of_indexed()}) {
    std::vector<char> bytes = encoded(t);
    for (char tag : {'\0', 'x', 'D', 'P', '\xff'}) {
      bytes[0] = tag;
      std::size_t used = 0;
      EXPECT_EQ(decode_type(bytes.data(), bytes.size(), used), nullptr) << "tag " << int(tag);
    }
  }
}

// The format (target_type.cpp): tag, then an int32 index for a predefined type, a uint64 size for a derived one.
TEST(TargetType, FieldsThatNameNoTypeAreRefused) {
  std::vector<char> predefined = encoded(int_type());
  for (std::int32_t index : {0, static_cast<std::int32_t>(dt::kPredefinedEnd), -1}) {
    std::memcpy(predefined.data() + 1, &index, sizeof index);
    std::size_t used = 0;
    EXPECT_EQ(decode_type(predefined.data(), predefined.size(), used), nullptr) << "index " << index;
  }
  std::vector<char> derived = encoded(vector_of_indexed());
  const std::uint64_t wrong_size = vector_of_indexed()->size + 4;  // more than the pieces hold
  std::memcpy(derived.data() + 1, &wrong_size, sizeof wrong_size);
  std::size_t used = 0;
  EXPECT_EQ(decode_type(derived.data(), derived.size(), used), nullptr);
}

TEST(TargetType, SpanOfNothingIsEmpty) {
  EXPECT_EQ(span_of(*int_type(), 0), (Span{0, 0}));
  EXPECT_EQ(span_of(*resized_around(), 0), (Span{0, 0}));
  // No data, but an extent of 8: 5 elements still touch no byte.
  const TypeRef empty = make([](TypeRef& t) { return dt::contiguous(0, int_type(), t); });
  EXPECT_EQ(span_of(*make([&](TypeRef& t) { return dt::resized(empty, 4, 8, t); }), 5), (Span{0, 0}));
}

TEST(TargetType, SpanOfVector) {
  // 3 blocks of 2 ints, 5 ints apart: bytes [0,8) [20,28) [40,48); extent 48, so element k starts at 48k.
  const TypeRef t = make([](TypeRef& out) { return dt::vector(3, 2, 5, int_type(), out); });
  EXPECT_EQ(span_of(*t, 1), (Span{0, 48}));
  EXPECT_EQ(span_of(*t, 3), (Span{0, 144}));
  // Stride -5: bytes [0,8) [-20,-12) [-40,-32); lb -40, ub 8, extent 48.
  const TypeRef down = make([](TypeRef& out) { return dt::vector(3, 2, -5, int_type(), out); });
  EXPECT_EQ(span_of(*down, 1), (Span{-40, 8}));
  EXPECT_EQ(span_of(*down, 2), (Span{-40, 56}));
}

TEST(TargetType, SpanOfResizedWithNegativeLbStartsAtTheData) {
  // Data [-12,-8) and [4,8), lb marker -16, extent 32: the marker is no byte, the lower end is the data's -12.
  const TypeRef t = resized_around();
  EXPECT_EQ(span_of(*t, 1), (Span{-12, 8}));
  EXPECT_EQ(span_of(*t, 3), (Span{-12, 72}));
  // A negative extent: element k at -4k, so 3 ints cover [-8, 4).
  const TypeRef back = make([](TypeRef& out) { return dt::resized(int_type(), 0, -4, out); });
  EXPECT_EQ(span_of(*back, 3), (Span{-8, 4}));
}
