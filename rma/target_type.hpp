// A target datatype as it travels with a one-sided operation. MPI-4.0 12.3 lets the origin name a datatype for the
// target's memory that only the origin defined, so the origin sends what the target needs to walk it: a predefined
// type by index, a derived one as its layout tree (datatype/layout.hpp), bounds and basic element. The encoding
// keeps the tree's sharing out but its size stays proportional to the type's irregular entries, as the layout's.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "datatype/datatype.hpp"

namespace strata::rma {

// The bytes `count` elements of `t` touch, [first, last) from the buffer's address; {0, 0} when none.
std::pair<std::ptrdiff_t, std::ptrdiff_t> span_of(const datatype::Datatype& t, std::size_t count);

// Appends the description of `t` to `out`.
void encode_type(const datatype::Datatype& t, std::vector<char>& out);

// Reads a description written by encode_type from [in, in + len): the type, or null when the bytes are not one;
// `used` is the number of bytes it took.
datatype::TypeRef decode_type(const char* in, std::size_t len, std::size_t& used);

}  // namespace strata::rma
