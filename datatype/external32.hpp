// The "external32" data representation (MPI-4.0 13.5.2) of MPI_Pack_external: big-endian integers, IEEE 754
// floating point (long double as binary128), and the sizes of the standard's table. Those differ from this
// platform's (LP64) for MPI_LONG and MPI_UNSIGNED_LONG (4 bytes) and MPI_WCHAR (2), and long double's format differs
// (x87 extended in 16 bytes natively). The conversions work on the native packed stream (pack.hpp).
#pragma once
#include <cstddef>

#include "datatype/datatype.hpp"
#include "runtime/status.hpp"

namespace strata::datatype {

// The external32 size of `count` elements of t.
std::size_t external32_bytes(const Datatype& t, std::size_t count);
// `count` elements' native packed stream into external32 (external32_bytes of `out`). A value the external size
// cannot hold (a long beyond 32 bits) fails with MPI_ERR_CONVERSION; `out` is then partly written.
Status to_external32(const Datatype& t, std::size_t count, const char* native, char* out);
// The reverse, into a native packed stream (wire_bytes of `native`); integers widen by sign or zero extension.
void from_external32(const Datatype& t, std::size_t count, const char* external, char* native);

}  // namespace strata::datatype
