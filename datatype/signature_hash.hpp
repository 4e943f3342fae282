// A type signature (the sequence of basic types that `count` elements of a type carry, MPI-4.0 3.3.1) reduced to a
// hash, for checking that collective calls on different ranks match (STRATA_CHECK_COLL). The hash is polynomial in
// the sequence, so it composes: a concatenation or a repetition of signatures is hashed from their hashes, and a
// count of 10^9 elements or a deep derived type costs O(signature tree * log count), not one step per element.
#pragma once
#include <cstddef>
#include <cstdint>

#include "datatype/datatype.hpp"

namespace strata::datatype {

struct SignatureHash {
  uint64_t hash = 0;    // sum of symbol_k * B^(n-1-k), mod 2^61 - 1
  uint64_t power = 1;   // B^n, mod 2^61 - 1 (for composing)
  uint64_t length = 0;  // n: basic elements
  bool packed = false;  // contains MPI_PACKED, which matches any signature of the same size (3.13)

  friend bool operator==(const SignatureHash&, const SignatureHash&) = default;
};

SignatureHash signature_hash(const Datatype& type, std::size_t count);

// Building blocks, exposed for the unit test: the sequence a then b, and `times` copies of a.
SignatureHash concatenate(const SignatureHash& a, const SignatureHash& b);
SignatureHash repeat(const SignatureHash& a, std::size_t times);

}  // namespace strata::datatype
