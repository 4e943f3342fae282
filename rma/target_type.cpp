// Encoding of target datatypes (see target_type.hpp). Format, little-endian host order (the job runs on one
// architecture): a tag byte, then for a predefined type its index (int32); for a derived type its size, lb, ub,
// true_lb, true_ub, element, elements and the layout: piece count, then per piece offset, count, stride, bytes and
// a body flag followed by the body's layout.
#include "rma/target_type.hpp"

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <memory>

#include "datatype/predefined.hpp"

namespace strata::rma {
namespace {

enum : char { kPredefined = 'p', kDerived = 'd' };
constexpr int kMaxDepth = 64;  // a layout nested deeper is not one a datatype constructor made

template <class T>
void put(std::vector<char>& out, T value) {
  const auto* p = reinterpret_cast<const char*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}

void put_layout(const datatype::Layout& layout, std::vector<char>& out) {
  put<std::uint64_t>(out, layout.pieces.size());
  for (const datatype::Piece& p : layout.pieces) {
    put<std::int64_t>(out, p.offset);
    put<std::uint64_t>(out, p.count);
    put<std::int64_t>(out, p.stride);
    put<std::uint64_t>(out, p.bytes);
    put<char>(out, p.body ? 1 : 0);
    if (p.body) put_layout(*p.body, out);
  }
}

class Reader {
 public:
  Reader(const char* in, std::size_t len) : in_(in), len_(len) {}
  template <class T>
  bool get(T& value) {
    if (len_ - at_ < sizeof(T)) return false;
    std::memcpy(&value, in_ + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  std::size_t used() const { return at_; }

 private:
  const char* in_;
  std::size_t len_;
  std::size_t at_ = 0;
};

bool get_layout(Reader& r, datatype::Layout& layout, int depth) {
  std::uint64_t pieces = 0;
  if (depth > kMaxDepth || !r.get(pieces)) return false;
  for (std::uint64_t i = 0; i < pieces; ++i) {
    datatype::Piece p;
    std::int64_t offset = 0, stride = 0;
    std::uint64_t count = 0, bytes = 0;
    char body = 0;
    if (!r.get(offset) || !r.get(count) || !r.get(stride) || !r.get(bytes) || !r.get(body)) return false;
    p.offset = offset;
    p.count = count;
    p.stride = stride;
    p.bytes = bytes;
    if (body) {
      auto nested = std::make_shared<datatype::Layout>();
      if (!get_layout(r, *nested, depth + 1)) return false;
      p.body = std::move(nested);
    }
    layout.append(std::move(p));
  }
  return true;
}

}  // namespace

std::pair<std::ptrdiff_t, std::ptrdiff_t> span_of(const datatype::Datatype& t, std::size_t count) {
  if (count == 0 || t.size == 0) return {0, 0};
  const auto last = static_cast<std::ptrdiff_t>(count - 1) * t.extent();
  return {t.true_lb + std::min<std::ptrdiff_t>(0, last), t.true_ub + std::max<std::ptrdiff_t>(0, last)};
}

void encode_type(const datatype::Datatype& t, std::vector<char>& out) {
  if (t.predefined) {
    put<char>(out, kPredefined);
    put<std::int32_t>(out, t.element);
    return;
  }
  put<char>(out, kDerived);
  put<std::uint64_t>(out, t.size);
  put<std::int64_t>(out, t.lb);
  put<std::int64_t>(out, t.ub);
  put<std::int64_t>(out, t.true_lb);
  put<std::int64_t>(out, t.true_ub);
  put<std::int32_t>(out, t.element);
  put<std::uint64_t>(out, t.elements);
  put_layout(t.layout, out);
}

datatype::TypeRef decode_type(const char* in, std::size_t len, std::size_t& used) {
  Reader r(in, len);
  char tag = 0;
  if (!r.get(tag)) return nullptr;
  if (tag == kPredefined) {
    std::int32_t index = 0;
    if (!r.get(index)) return nullptr;
    used = r.used();
    return datatype::predefined(index);
  }
  if (tag != kDerived) return nullptr;
  auto t = std::make_shared<datatype::Datatype>();
  std::uint64_t size = 0, elements = 0;
  std::int64_t lb = 0, ub = 0, true_lb = 0, true_ub = 0;
  std::int32_t element = 0;
  if (!r.get(size) || !r.get(lb) || !r.get(ub) || !r.get(true_lb) || !r.get(true_ub) || !r.get(element) ||
      !r.get(elements) || !get_layout(r, t->layout, 0))
    return nullptr;
  if (t->layout.size != size) return nullptr;  // the pieces must account for every byte
  t->size = size;
  t->lb = lb;
  t->ub = ub;
  t->true_lb = true_lb;
  t->true_ub = true_ub;
  t->element = element;
  t->elements = elements;
  t->committed = true;
  t->name = "the origin's target datatype";
  used = r.used();
  return t;
}

}  // namespace strata::rma
