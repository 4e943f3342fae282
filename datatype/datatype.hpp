// A datatype as the rest of Strata sees it. Predefined types are immutable table entries; derived types (a later
// issue) will add a type map and pack/unpack, behind the same `contiguous` fast path the transport relies on.
#pragma once
#include <cstddef>
#include <cstdint>

namespace strata::datatype {

// One contiguous run of bytes inside an element, at `offset` from the element's start.
struct Block {
  std::ptrdiff_t offset;
  std::size_t length;
};

struct Datatype {
  const char* name;
  std::size_t size;     // bytes of data in one element
  std::ptrdiff_t lb;    // lower bound
  std::ptrdiff_t extent;
  bool contiguous;      // one element's bytes are [lb, lb + size) with size == extent: send straight from the buffer
  bool predefined;
  Block blocks[2];      // the element's layout when not contiguous (the MAXLOC/MINLOC pairs: value, then int)
  int nblocks;
};

// Bytes that `count` elements occupy on the wire.
inline std::size_t wire_bytes(const Datatype& t, std::size_t count) { return t.size * count; }

// Copies `count` elements at `buf` into the packed byte stream `out` (wire_bytes long), and back.
void pack(const void* buf, std::size_t count, const Datatype& t, void* out);
// Unpacks at most `bytes` of the stream (a short, truncated message fills only whole blocks it covers).
void unpack(const void* in, std::size_t bytes, std::size_t count, const Datatype& t, void* buf);

}  // namespace strata::datatype
