#include "datatype/layout.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "runtime/copy_bytes.hpp"

namespace strata::datatype {

// A body this small is copied into a single repetition's place rather than referenced: fewer levels to walk.
constexpr std::size_t kInlinePieces = 4;

static bool is_block(const Piece& p) { return p.count == 1 && !p.body; }

void Layout::append(Piece p) {
  if (p.count == 0 || p.bytes == 0) return;
  if (p.body && p.body->pieces.size() == 1 && !p.body->pieces[0].body) {  // repetitions of a strided block
    const Piece& q = p.body->pieces[0];
    if (q.count == 1 || p.count == 1 ||
        p.stride == static_cast<std::ptrdiff_t>(q.count) * q.stride) {  // a block, or one flat stride
      const std::size_t count = p.count == 1 ? q.count : p.count * q.count;
      const std::ptrdiff_t stride = q.count == 1 ? p.stride : q.stride;
      p = {p.offset + q.offset, count, count == 1 ? 0 : stride, q.bytes, nullptr};
    }
  }
  if (p.body && p.count == 1 && p.body->pieces.size() <= kInlinePieces) {
    append(*p.body, p.offset);
    return;
  }
  if (!p.body && p.count > 1 && p.stride == static_cast<std::ptrdiff_t>(p.bytes)) {  // touching blocks
    p.bytes *= p.count;
    p.count = 1;
  }
  if (p.count == 1) p.stride = 0;
  const bool all_blocks_so_far = blocks.size() == pieces.size();
  if (!pieces.empty() && is_block(p) && is_block(pieces.back()) &&
      pieces.back().offset + static_cast<std::ptrdiff_t>(pieces.back().bytes) == p.offset) {
    pieces.back().bytes += p.bytes;
    if (all_blocks_so_far) blocks.back().bytes += p.bytes;
    size += p.bytes;
    return;
  }
  if (all_blocks_so_far && is_block(p))
    blocks.push_back({p.offset, p.bytes});
  else
    std::vector<Block>().swap(blocks);  // for good: this piece is not a block
  starts.push_back(size);
  size += p.count * p.bytes;
  pieces.push_back(std::move(p));
}

void Layout::append(const Layout& other, std::ptrdiff_t offset) {
  for (Piece p : other.pieces) {
    p.offset += offset;
    append(std::move(p));
  }
}

Layout repeat(std::shared_ptr<const Layout> body, std::size_t count, std::ptrdiff_t stride) {
  Layout out;
  const std::size_t bytes = body->size;
  out.append(Piece{0, count, stride, bytes, std::move(body)});
  return out;
}

namespace {

// Addresses are computed as integers: the base may be MPI_BOTTOM (NULL) with absolute offsets, and pointer
// arithmetic on NULL would be undefined.
char* at(std::uintptr_t address) { return reinterpret_cast<char*>(address); }

// The packed stream being filled (pack) or drained (unpack): `skip` bytes still to pass over, then `left` to copy.
struct Cursor {
  char* stream;
  std::size_t skip;
  std::size_t left;
};

template <bool kPack>
void copy(std::uintptr_t user, char* stream, std::size_t n) {
  if constexpr (kPack)
    runtime::copy_bytes(stream, at(user), n);
  else
    runtime::copy_bytes(at(user), stream, n);
}

// `count` blocks of N bytes, `stride` apart: a fixed-size copy the compiler turns into one load and store.
template <bool kPack, std::size_t N>
void strided(std::uintptr_t user, std::ptrdiff_t stride, std::size_t count, char* stream) {
  for (std::size_t i = 0; i < count; ++i, user += stride, stream += N) copy<kPack>(user, stream, N);
}

template <bool kPack>
void strided(std::uintptr_t user, std::ptrdiff_t stride, std::size_t count, std::size_t bytes, char* stream) {
  switch (bytes) {
    case 1: return strided<kPack, 1>(user, stride, count, stream);
    case 2: return strided<kPack, 2>(user, stride, count, stream);
    case 4: return strided<kPack, 4>(user, stride, count, stream);
    case 8: return strided<kPack, 8>(user, stride, count, stream);
    case 16: return strided<kPack, 16>(user, stride, count, stream);
    case 32: return strided<kPack, 32>(user, stride, count, stream);
  }
  for (std::size_t i = 0; i < count; ++i, user += stride, stream += bytes) copy<kPack>(user, stream, bytes);
}

template <bool kPack>
void walk(const Layout& layout, std::uintptr_t base, Cursor& c);

// The piece's repetitions at `base` that the cursor's range covers.
template <bool kPack>
void walk(const Piece& p, std::uintptr_t base, Cursor& c) {
  std::size_t rep = c.skip / p.bytes;
  c.skip -= rep * p.bytes;
  std::uintptr_t address = base + p.offset + rep * p.stride;
  if (p.body) {
    for (; rep < p.count && c.left > 0; ++rep, address += p.stride) walk<kPack>(*p.body, address, c);
    return;
  }
  if (c.skip > 0) {  // the range starts inside a block
    const std::size_t n = std::min(p.bytes - c.skip, c.left);
    copy<kPack>(address + c.skip, c.stream, n);
    c.stream += n;
    c.left -= n;
    c.skip = 0;
    ++rep;
    address += p.stride;
  }
  const std::size_t whole = std::min(p.count - rep, c.left / p.bytes);
  strided<kPack>(address, p.stride, whole, p.bytes, c.stream);
  c.stream += whole * p.bytes;
  c.left -= whole * p.bytes;
  if (rep + whole < p.count && c.left > 0) {  // the range ends inside a block
    copy<kPack>(address + whole * p.stride, c.stream, c.left);
    c.stream += c.left;
    c.left = 0;
  }
}

// One whole block of a piece: the usual piece of an indexed or struct type, whose blocks are often a single basic
// element, so the common sizes get a fixed-size copy (one load and store) and none of walk(Piece)'s divisions.
// Inlined by force: called where it is not, a block costs twice as much.
template <bool kPack>
[[gnu::always_inline]] inline void block(std::uintptr_t user, std::size_t bytes, char* stream) {
  switch (bytes) {
    case 4: return copy<kPack>(user, stream, 4);
    case 8: return copy<kPack>(user, stream, 8);
    case 16: return copy<kPack>(user, stream, 16);
  }
  copy<kPack>(user, stream, bytes);
}

template <bool kPack>
void walk(const Layout& layout, std::uintptr_t base, Cursor& c) {
  std::size_t i = 0;
  if (c.skip > 0) {  // the last piece starting at or before the skipped bytes
    i = static_cast<std::size_t>(std::upper_bound(layout.starts.begin(), layout.starts.end(), c.skip) -
                                 layout.starts.begin()) - 1;
    c.skip -= layout.starts[i];
    walk<kPack>(layout.pieces[i++], base, c);  // the range starts in it; past it, nothing more is skipped
  }
  // The cursor and the pieces' bounds in locals: the copies store through a char*, which may alias them, and would
  // make the compiler reload them after every block.
  const std::size_t n = layout.pieces.size();
  char* stream = c.stream;
  std::size_t left = c.left;
  if (layout.all_blocks()) {  // up to the end or the block the range ends in, which the pieces' loop cuts
    const Block* const b = layout.blocks.data();
    for (; i < n && b[i].bytes <= left; ++i) {
      block<kPack>(base + b[i].offset, b[i].bytes, stream);
      stream += b[i].bytes;
      left -= b[i].bytes;
    }
  }
  const Piece* p = layout.pieces.data() + i;
  const Piece* const end = layout.pieces.data() + n;
  for (; p != end && left > 0; ++p) {
    if (is_block(*p) && p->bytes <= left) {
      block<kPack>(base + p->offset, p->bytes, stream);
      stream += p->bytes;
      left -= p->bytes;
    } else {
      c.stream = stream;
      c.left = left;
      walk<kPack>(*p, base, c);
      stream = c.stream;
      left = c.left;
    }
  }
  c.stream = stream;
  c.left = left;
}

// The elements as one piece: a single block per element becomes a strided copy, anything else a walk per element.
template <bool kPack>
void walk_elements(const Layout& layout, std::uintptr_t base, std::ptrdiff_t extent, std::size_t from,
                   std::size_t len, char* stream) {
  if (len == 0) return;
  const std::size_t count = (from + len + layout.size - 1) / layout.size;  // elements the range reaches
  Piece elements{0, count, extent, layout.size, std::shared_ptr<const Layout>(std::shared_ptr<void>(), &layout)};
  if (layout.is_one_block()) elements = {layout.pieces[0].offset, count, extent, layout.size, nullptr};
  Cursor c{stream, from, len};
  walk<kPack>(elements, base, c);
}

}  // namespace

void pack_layout(const Layout& layout, const void* base, std::ptrdiff_t extent, std::size_t from, std::size_t len,
                 void* out) {
  walk_elements<true>(layout, reinterpret_cast<std::uintptr_t>(base), extent, from, len, static_cast<char*>(out));
}

void unpack_layout(const Layout& layout, void* base, std::ptrdiff_t extent, std::size_t from, std::size_t len,
                   const void* in) {
  walk_elements<false>(layout, reinterpret_cast<std::uintptr_t>(base), extent, from, len,
                       static_cast<char*>(const_cast<void*>(in)));
}

}  // namespace strata::datatype
