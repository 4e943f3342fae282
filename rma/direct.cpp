// RMA operations by loads and stores (see direct.hpp).
#include "rma/direct.hpp"

#include <cstring>
#include <vector>

#include "datatype/op.hpp"
#include "datatype/pack.hpp"
#include "datatype/predefined.hpp"
#include "rma/accumulate.hpp"
#include "rma/lock.hpp"

namespace strata::rma {
namespace {

char* target_address(const Window& w, const TargetAccess& at) {
  return w.base(at.target) + at.disp * w.layout.disp_units[at.target];
}

// Copies `count` elements of `from_type` at `from` into `to_count` elements of `to_type` at `to` (equal packed
// sizes): straight into or out of a contiguous side, through a packed buffer otherwise.
void copy(const void* from, std::size_t count, const datatype::Datatype& from_type, void* to, std::size_t to_count,
          const datatype::Datatype& to_type) {
  const std::size_t bytes = datatype::wire_bytes(from_type, count);
  if (bytes == 0) return;
  if (datatype::contiguous(to_type, to_count)) {
    datatype::pack(from, count, from_type, static_cast<char*>(to) + to_type.true_lb);
  } else if (datatype::contiguous(from_type, count)) {
    datatype::unpack(static_cast<const char*>(from) + from_type.true_lb, bytes, to_count, to_type, to);
  } else {
    std::vector<char> packed(bytes);
    datatype::pack(from, count, from_type, packed.data());
    datatype::unpack(packed.data(), bytes, to_count, to_type, to);
  }
}

// The target part's accumulate lock: the second word of its lock line.
LockWord accumulate_lock(const Window& w, int target) {
  return LockWord(reinterpret_cast<std::int64_t*>(w.segment.base() + w.layout.lock_offset + target * kLockWordBytes) +
                  1);
}

std::vector<char> packed_origin(const OriginBuffer& origin) {
  std::vector<char> packed(origin.count == 0 ? 0 : datatype::wire_bytes(*origin.type, origin.count));
  if (!packed.empty()) datatype::pack(origin.buf, origin.count, *origin.type, packed.data());
  return packed;
}

}  // namespace

void direct_put(Window& w, const OriginBuffer& origin, const TargetAccess& at) {
  copy(origin.buf, origin.count, *origin.type, target_address(w, at), at.count, *at.type);
}

void direct_get(Window& w, const OriginBuffer& origin, const TargetAccess& at) {
  copy(target_address(w, at), at.count, *at.type, const_cast<void*>(origin.buf), origin.count, *origin.type);
}

void direct_accumulate(Window& w, const OriginBuffer& origin, const TargetAccess& at, int op) {
  const std::vector<char> packed = packed_origin(origin);  // before the lock: the origin may lie in the window
  LockWord lock = accumulate_lock(w, at.target);
  lock.acquire_exclusive();
  accumulate_packed(target_address(w, at), at.count, *at.type, op, packed.data());
  lock.release_exclusive();
}

void direct_get_accumulate(Window& w, const OriginBuffer& origin, const OriginBuffer& result, const TargetAccess& at,
                           int op) {
  const std::vector<char> packed = packed_origin(origin);
  char* addr = target_address(w, at);
  std::vector<char> old(datatype::wire_bytes(*at.type, at.count));
  LockWord lock = accumulate_lock(w, at.target);
  lock.acquire_exclusive();
  if (!old.empty()) datatype::pack(addr, at.count, *at.type, old.data());
  accumulate_packed(addr, at.count, *at.type, op, packed.data());
  lock.release_exclusive();
  if (!old.empty()) datatype::unpack(old.data(), old.size(), result.count, *result.type, const_cast<void*>(result.buf));
}

void direct_compare_swap(Window& w, const void* origin, const void* compare, const OriginBuffer& result,
                         const TargetAccess& at) {
  const std::size_t n = at.type->size;
  char* addr = target_address(w, at);
  std::vector<char> old(n), desired(static_cast<const char*>(origin), static_cast<const char*>(origin) + n),
      expected(static_cast<const char*>(compare), static_cast<const char*>(compare) + n);
  LockWord lock = accumulate_lock(w, at.target);
  lock.acquire_exclusive();
  std::memcpy(old.data(), addr, n);
  if (std::memcmp(addr, expected.data(), n) == 0) std::memcpy(addr, desired.data(), n);
  lock.release_exclusive();
  std::memcpy(const_cast<void*>(result.buf), old.data(), n);
}

}  // namespace strata::rma
