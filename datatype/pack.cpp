#include <algorithm>
#include <cstring>

#include "datatype/datatype.hpp"

namespace strata::datatype {

void pack(const void* buf, std::size_t count, const Datatype& t, void* out) {
  auto* dst = static_cast<char*>(out);
  const auto* src = static_cast<const char*>(buf);
  if (t.contiguous) {
    std::memcpy(dst, src + t.lb, wire_bytes(t, count));
    return;
  }
  for (std::size_t i = 0; i < count; ++i, src += t.extent)
    for (int b = 0; b < t.nblocks; ++b) {
      std::memcpy(dst, src + t.blocks[b].offset, t.blocks[b].length);
      dst += t.blocks[b].length;
    }
}

void unpack(const void* in, std::size_t bytes, std::size_t count, const Datatype& t, void* buf) {
  const auto* src = static_cast<const char*>(in);
  auto* dst = static_cast<char*>(buf);
  bytes = std::min(bytes, wire_bytes(t, count));
  if (t.contiguous) {
    std::memcpy(dst + t.lb, src, bytes);
    return;
  }
  for (std::size_t i = 0; bytes > 0; ++i, dst += t.extent)
    for (int b = 0; b < t.nblocks && bytes > 0; ++b) {
      std::size_t n = std::min(bytes, t.blocks[b].length);
      std::memcpy(dst + t.blocks[b].offset, src, n);
      src += n;
      bytes -= n;
    }
}

}  // namespace strata::datatype
