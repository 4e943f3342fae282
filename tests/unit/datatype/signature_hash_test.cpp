// Signature hashes (datatype/signature_hash.*) against a reference computed here the slow way: the signature
// spelled out as its list of basic types, hashed one element at a time with the same polynomial. Equal signatures
// built differently hash equal; a reordering, another basic type or another length does not.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "datatype/construct.hpp"
#include "datatype/predefined.hpp"
#include "datatype/signature_hash.hpp"

using namespace strata::datatype;

namespace {

// The signature as a list of predefined type indices, from the constructors' definitions.
using Sequence = std::vector<int>;

Sequence times(const Sequence& s, std::size_t n) {
  Sequence out;
  for (std::size_t i = 0; i < n; ++i) out.insert(out.end(), s.begin(), s.end());
  return out;
}

Sequence operator+(Sequence a, const Sequence& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// One element at a time, as the definition reads: h = h * B + symbol.
SignatureHash slow_hash(const Sequence& s) {
  SignatureHash h;
  for (int index : s) h = concatenate(h, signature_hash(*predefined(index), 1));
  return h;
}

TypeRef make(strata::Status s, const TypeRef& t) {
  EXPECT_TRUE(s.ok()) << s.message;
  return t;
}

TEST(SignatureHash, PredefinedCountsComposeLikeRepetition) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 7u, 64u, 1000u})
    EXPECT_EQ(signature_hash(*predefined(kInt), n), slow_hash(Sequence(n, kInt))) << n;
  EXPECT_NE(signature_hash(*predefined(kInt), 4), signature_hash(*predefined(kFloat), 4));  // same size
  EXPECT_NE(signature_hash(*predefined(kInt), 4), signature_hash(*predefined(kInt), 5));
  EXPECT_EQ(signature_hash(*predefined(kInt), 0), signature_hash(*predefined(kDouble), 0));  // both empty
}

TEST(SignatureHash, DerivedTypesHashTheirBasicSequence) {
  const TypeRef i = predefined(kInt), d = predefined(kDouble);
  TypeRef contig, vec, st, nested, idx;
  make(contiguous(3, i, contig), contig);
  make(vector(4, 2, 5, d, vec), vec);
  const int lens[] = {2, 1};
  const std::ptrdiff_t disps[] = {0, 16};
  const TypeRef types[] = {i, d};
  make(structure(lens, disps, types, st), st);
  const int blocks[] = {1, 3}, offsets[] = {4, 0};
  make(indexed(blocks, offsets, st, idx), idx);
  make(contiguous(2, idx, nested), nested);

  const Sequence s_struct = Sequence{kInt, kInt, kDouble};
  EXPECT_EQ(signature_hash(*contig, 5), slow_hash(Sequence(15, kInt)));
  EXPECT_EQ(signature_hash(*vec, 3), slow_hash(Sequence(24, kDouble)));
  EXPECT_EQ(signature_hash(*st, 2), slow_hash(times(s_struct, 2)));
  EXPECT_EQ(signature_hash(*nested, 3), slow_hash(times(times(s_struct, 4), 6)));
  // The same signature from other constructors: layout and displacements do not matter.
  EXPECT_EQ(signature_hash(*contig, 2), signature_hash(*i, 6));
  EXPECT_EQ(signature_hash(*vec, 1), signature_hash(*d, 8));
  // Order matters: {int, int, double} is not {double, int, int}.
  const TypeRef reversed_types[] = {d, i};
  const int reversed_lens[] = {1, 2};
  TypeRef reversed;
  make(structure(reversed_lens, disps, reversed_types, reversed), reversed);
  EXPECT_EQ(signature_hash(*reversed, 1), slow_hash(Sequence{kDouble, kInt, kInt}));
  EXPECT_NE(signature_hash(*reversed, 1), signature_hash(*st, 1));
  EXPECT_EQ(signature_hash(*st, 1).length, 3u);
  EXPECT_EQ(signature_hash(*idx, 1), slow_hash(times(s_struct, 4)));
  EXPECT_EQ(slow_hash(s_struct + Sequence{kDouble}), concatenate(signature_hash(*st, 1), signature_hash(*d, 1)));
}

TEST(SignatureHash, HugeCountsCostLogarithmicTime) {
  const SignatureHash h = signature_hash(*predefined(kChar), std::size_t{1} << 40);
  EXPECT_EQ(h.length, std::size_t{1} << 40);
  // 2^40 = (2^20)^2: repetition composes.
  EXPECT_EQ(h, repeat(signature_hash(*predefined(kChar), std::size_t{1} << 20), std::size_t{1} << 20));
}

TEST(SignatureHash, PackedIsMarked) {
  EXPECT_TRUE(signature_hash(*predefined(kPacked), 3).packed);
  EXPECT_FALSE(signature_hash(*predefined(kByte), 3).packed);
}

}  // namespace
