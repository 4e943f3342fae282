#include "datatype/pack.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "datatype/predefined.hpp"
#include "runtime/copy_bytes.hpp"

namespace strata::datatype {

static char* data_start(const void* buf, const Datatype& t) {
  return reinterpret_cast<char*>(reinterpret_cast<std::uintptr_t>(buf) + t.true_lb);
}

void pack_range(const void* buf, std::size_t count, const Datatype& t, std::size_t from, std::size_t len, void* out) {
  if (len == 0) return;
  if (contiguous(t, count))
    runtime::copy_bytes(out, data_start(buf, t) + from, len);
  else
    pack_layout(t.layout, buf, t.extent(), from, len, out);
}

void unpack_range(const void* in, std::size_t count, const Datatype& t, std::size_t from, std::size_t len,
                  void* buf) {
  if (len == 0) return;
  if (contiguous(t, count))
    runtime::copy_bytes(data_start(buf, t) + from, in, len);
  else
    unpack_layout(t.layout, buf, t.extent(), from, len, in);
}

void pack(const void* buf, std::size_t count, const Datatype& t, void* out) {
  pack_range(buf, count, t, 0, wire_bytes(t, count), out);
}

void pack(const void* buf, std::size_t count, const Datatype& t, void* out, runtime::OutboundCopy& copy) {
  const std::size_t bytes = wire_bytes(t, count);
  if (bytes > 0 && contiguous(t, count))
    copy.copy(out, data_start(buf, t), bytes);
  else
    pack(buf, count, t, out);
}

void unpack(const void* in, std::size_t bytes, std::size_t count, const Datatype& t, void* buf) {
  unpack_range(in, count, t, 0, std::min(bytes, wire_bytes(t, count)), buf);
}

// Basic elements in the first `bytes` (< t.size) of one element: down the signature tree to the part the prefix
// ends in.
static std::ptrdiff_t elements_in_prefix(const Datatype& t, std::size_t bytes) {
  std::ptrdiff_t n = 0;
  if (t.predefined) {
    const BasicParts parts = basic_parts(t.element);
    for (int i = 0; i < parts.count && bytes >= parts.sizes[i]; ++i, ++n) bytes -= parts.sizes[i];
    return bytes == 0 ? n : -1;
  }
  for (const SignaturePart& part : t.signature) {
    if (bytes == 0) break;
    const Datatype& sub = *part.type;
    if (sub.size == 0) continue;
    const std::size_t whole = std::min(part.repeat, bytes / sub.size);
    n += static_cast<std::ptrdiff_t>(whole * sub.elements);
    bytes -= whole * sub.size;
    if (whole < part.repeat && bytes > 0) {
      const std::ptrdiff_t rest = elements_in_prefix(sub, bytes);
      return rest < 0 ? -1 : n + rest;
    }
  }
  return n;
}

std::ptrdiff_t basic_elements(const Datatype& t, std::size_t bytes) {
  if (t.size == 0) return 0;
  const std::ptrdiff_t rest = elements_in_prefix(t, bytes % t.size);
  return rest < 0 ? -1 : static_cast<std::ptrdiff_t>(bytes / t.size * t.elements) + rest;
}

// Bytes of the first `n` (< t.elements) basic elements of one element: down the signature tree, as above.
static std::size_t bytes_in_prefix(const Datatype& t, std::size_t n) {
  std::size_t bytes = 0;
  if (t.predefined) {
    const BasicParts parts = basic_parts(t.element);
    for (int i = 0; i < parts.count && n > 0; ++i, --n) bytes += parts.sizes[i];
    return bytes;
  }
  for (const SignaturePart& part : t.signature) {
    if (n == 0) break;
    const Datatype& sub = *part.type;
    if (sub.elements == 0) continue;
    const std::size_t whole = std::min(part.repeat, n / sub.elements);
    bytes += whole * sub.size;
    n -= whole * sub.elements;
    if (whole < part.repeat && n > 0) return bytes + bytes_in_prefix(sub, n);
  }
  return bytes;
}

std::size_t bytes_of_elements(const Datatype& t, std::size_t elements) {
  if (t.elements == 0) return 0;
  return elements / t.elements * t.size + bytes_in_prefix(t, elements % t.elements);
}

}  // namespace strata::datatype
