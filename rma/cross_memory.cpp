// Put and get by cross-memory attach (see cross_memory.hpp).
#include "rma/cross_memory.hpp"

#include <sys/uio.h>

#include <cerrno>

#include "datatype/pack.hpp"

namespace strata::rma {
namespace {

enum class Direction { Write, Read };

// Below these a message is faster: a cross-memory call costs about 2.5 us here whatever its size, against 1.4-1.9 us
// for a put or get of 8 B to 1 KiB by message with its flush; they tie at 16 KiB (3.5-3.8 us), and at 64 KiB the
// call takes 5.6-6.3 us against 7.3-9.3 (2 ranks, 2026-11-28, bench/rma.c, create windows). Since a put's data
// goes in a message of its own (channel.cpp), puts by message win up to 64 KiB where the origin goes on to a fence
// (2026-12-03, create against dynamic windows, 3 runs: put + fence 32 KiB 7.6-7.8 us against 4.4-4.5, 64 KiB
// 8.6-9.2 against 6.3-6.4, 128 KiB 10.3-10.5 against 11.0-13.3; put + flush 32 KiB 3.7-3.9 against 3.4-3.6, 64 KiB
// 4.6-4.9 against 5.4-5.5).
constexpr std::size_t kLeastGetBytes = 32 * 1024;
constexpr std::size_t kLeastPutBytes = 128 * 1024;

// Moves `len` bytes between `here` and the target's address `there`; false if the kernel refused, which turns the
// path off for the window (a partial put is rewritten whole by the message that follows).
bool move(CrossMemory& m, int target, Direction d, char* here, std::uintptr_t there, std::size_t len) {
  std::size_t done = 0;
  while (done < len) {
    iovec local{here + done, len - done};
    iovec remote{reinterpret_cast<void*>(there + done), len - done};
    const ssize_t n = d == Direction::Write ? process_vm_writev(m.pids[target], &local, 1, &remote, 1, 0)
                                            : process_vm_readv(m.pids[target], &local, 1, &remote, 1, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      m.pids.clear();
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// The target's bytes of `at` when they are one run: where they start there (0 when they are not one run).
std::uintptr_t target_run(const CrossMemory& m, int disp_unit, const TargetAccess& at) {
  if (!m.reaches(at.target) || !datatype::contiguous(*at.type, at.count)) return 0;
  return m.bases[at.target] + static_cast<std::uintptr_t>(at.disp * disp_unit + at.type->true_lb);
}

// A put (Write) or get (Read) of `origin` to or from the target: straight from or into a contiguous origin, else
// through a packed copy.
bool transfer(CrossMemory& m, int disp_unit, Direction d, const OriginBuffer& origin, const TargetAccess& at) {
  const std::uintptr_t there = target_run(m, disp_unit, at);
  if (there == 0) return false;
  const std::size_t bytes = datatype::wire_bytes(*at.type, at.count);
  if (bytes < (d == Direction::Write ? kLeastPutBytes : kLeastGetBytes)) return false;
  char* const buf = static_cast<char*>(const_cast<void*>(origin.buf));
  if (datatype::contiguous(*origin.type, origin.count))
    return move(m, at.target, d, buf + origin.type->true_lb, there, bytes);
  std::vector<char> packed(bytes);
  if (d == Direction::Write) datatype::pack(origin.buf, origin.count, *origin.type, packed.data());
  if (!move(m, at.target, d, packed.data(), there, bytes)) return false;
  if (d == Direction::Read) datatype::unpack(packed.data(), bytes, origin.count, *origin.type, buf);
  return true;
}

}  // namespace

bool cross_memory_put(CrossMemory& m, int disp_unit, const OriginBuffer& origin, const TargetAccess& at) {
  return transfer(m, disp_unit, Direction::Write, origin, at);
}

bool cross_memory_get(CrossMemory& m, int disp_unit, const OriginBuffer& origin, const TargetAccess& at) {
  return transfer(m, disp_unit, Direction::Read, origin, at);
}

}  // namespace strata::rma
