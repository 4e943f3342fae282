// Packing: a datatype's elements to and from the contiguous byte stream that goes on the wire and into MPI_Pack
// buffers (the stream is the data in type-map order, without gaps or padding), and the basic-element count of a
// stream's prefix (MPI_Get_elements).
#pragma once
#include <cstddef>

#include "datatype/datatype.hpp"
#include "runtime/copy_bytes.hpp"

namespace strata::datatype {

// Bytes that `count` elements occupy packed (the caller has checked that the product fits).
inline std::size_t wire_bytes(const Datatype& t, std::size_t count) { return t.size * count; }

// Copies `count` elements at `buf` into the stream `out` (wire_bytes long), and back. `buf` may be MPI_BOTTOM
// (NULL) with a type of absolute addresses.
void pack(const void* buf, std::size_t count, const Datatype& t, void* out);
// The same, into memory another process reads next: a contiguous layout's bytes by `copy` (runtime/copy_bytes.hpp).
void pack(const void* buf, std::size_t count, const Datatype& t, void* out, runtime::OutboundCopy& copy);
// Unpacks the first `bytes` of the stream (fewer than wire_bytes for a short message).
void unpack(const void* in, std::size_t bytes, std::size_t count, const Datatype& t, void* buf);

// The same for the stream's bytes [from, from + len), which must lie within wire_bytes(t, count).
void pack_range(const void* buf, std::size_t count, const Datatype& t, std::size_t from, std::size_t len, void* out);
void unpack_range(const void* in, std::size_t count, const Datatype& t, std::size_t from, std::size_t len,
                  void* buf);

// Basic elements in the stream's first `bytes` (MPI_Get_elements); -1 when `bytes` ends inside a basic element.
std::ptrdiff_t basic_elements(const Datatype& t, std::size_t bytes);
// The inverse: the bytes of the stream's first `elements` basic elements (MPI_Status_set_elements).
std::size_t bytes_of_elements(const Datatype& t, std::size_t elements);

}  // namespace strata::datatype
