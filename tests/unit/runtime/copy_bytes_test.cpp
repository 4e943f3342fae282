// copy_bytes against a byte-by-byte reference: distances between destination and source modulo 4 KiB that may pick
// the vector loops (1-63, as this processor measures them) and some that never do, at sizes around the 2 KiB
// switch, the loops' 128-byte passes
// and their tails, and the vector path, the streaming stores and OutboundCopy called directly; bytes next to the
// destination stay untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/copy_bytes.hpp"

using namespace strata::runtime;

namespace {

constexpr std::size_t kGuard = 64;

enum class Way { kCopyBytes, kVectors, kStream, kOutbound };

// Copies `bytes` bytes from a source at page offset `source_offset` to a destination `distance` bytes further on
// modulo 4 KiB, the `way` given, and checks the destination and its guard bytes.
void check_copy(std::size_t bytes, std::size_t source_offset, std::size_t distance, Way way) {
  std::vector<unsigned char> from_store(bytes + 2 * 4096), to_store(bytes + 4 * 4096);
  const auto page = [](std::vector<unsigned char>& v) {
    const auto at = reinterpret_cast<std::uintptr_t>(v.data());
    return v.data() + (4096 - at % 4096) % 4096;
  };
  unsigned char* from = page(from_store) + source_offset;
  unsigned char* to = page(to_store) + kGuard + (source_offset + distance + 4096 - kGuard % 4096) % 4096;
  ASSERT_EQ((reinterpret_cast<std::uintptr_t>(to) - reinterpret_cast<std::uintptr_t>(from)) % 4096, distance);
  for (std::size_t i = 0; i < bytes; ++i) from[i] = static_cast<unsigned char>(i * 7 + 3);
  std::memset(to - kGuard, 0xEE, bytes + 2 * kGuard);
  switch (way) {
    case Way::kCopyBytes: copy_bytes(to, from, bytes); break;
    case Way::kVectors: copy_by_vectors(to, from, bytes); break;
    case Way::kStream: stream_bytes(to, from, bytes); break;
    case Way::kOutbound: OutboundCopy().copy(to, from, bytes); break;
  }
  for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(to[i], static_cast<unsigned char>(i * 7 + 3)) << "byte " << i;
  for (std::size_t i = 1; i <= kGuard; ++i) {
    ASSERT_EQ(to[-static_cast<std::ptrdiff_t>(i)], 0xEE) << "before, " << i;
    ASSERT_EQ(to[bytes + i - 1], 0xEE) << "after, " << i;
  }
}

TEST(CopyBytes, EveryDistanceAndSize) {
  const std::size_t sizes[] = {0, 1, 31, 127, 2047, 2048, 2049, 2112, 4096 + 77, 65536, 65536 + 129};
  const std::size_t distances[] = {0, 1, 8, 15, 16, 17, 31, 32, 33, 63, 64, 100, 4032, 4080, 4095};
  for (std::size_t bytes : sizes)
    for (std::size_t distance : distances)
      for (std::size_t source_offset : {std::size_t{0}, std::size_t{16}, std::size_t{4095}}) {
        SCOPED_TRACE(testing::Message() << bytes << " bytes, distance " << distance << ", source offset "
                                        << source_offset);
        for (Way way : {Way::kCopyBytes, Way::kVectors, Way::kStream, Way::kOutbound})
          check_copy(bytes, source_offset, distance, way);
      }
}

// The copy asks about the destination's distance past the source modulo 4 KiB, whichever lies lower in memory, and
// only distances under 64 can be slow.
TEST(CopyBytes, SlowDistanceIsTheMeasuredBitOfTheDistanceModuloAPage) {
  const std::uint64_t measured = slow_rep_movsb_distances();
  EXPECT_EQ(measured & 1, 0u);
  alignas(4096) static char area[3 * 4096];
  const char* from = area + 4096 + 16;
  for (std::ptrdiff_t past = -4096 - 16; past < 2 * 4096 - 16; ++past) {
    const std::ptrdiff_t in_page = ((past % 4096) + 4096) % 4096;
    EXPECT_EQ(slow_rep_movsb_distance(from + past, from), in_page < 64 && (measured >> in_page & 1) != 0)
        << "destination " << past;
  }
}

// One OutboundCopy over a stream of large copies, as a ring's writer makes them: whichever way each copy goes
// (ordinary or streaming stores, as its timing of the last ordinary one decides), every copy arrives whole.
TEST(CopyBytes, OutboundCopyKeepsEveryCopyOfAStream) {
  OutboundCopy outbound;
  constexpr std::size_t kBytes = 64 * 1024 + 40;
  std::vector<unsigned char> from(kBytes), to(kBytes + 16);
  for (int round = 0; round < 100; ++round) {
    for (std::size_t i = 0; i < kBytes; ++i) from[i] = static_cast<unsigned char>(i * 13 + round);
    const std::size_t shift = static_cast<std::size_t>(round) % 16;
    outbound.copy(to.data() + shift, from.data(), kBytes);
    for (std::size_t i = 0; i < kBytes; ++i)
      ASSERT_EQ(to[i + shift], static_cast<unsigned char>(i * 13 + round)) << "round " << round << ", byte " << i;
  }
}

}  // namespace
