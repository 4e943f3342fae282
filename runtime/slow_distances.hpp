// Where this processor's `rep movsb` (glibc's memcpy from 2112 bytes up to about the L2 size, and the kernel's
// copies) runs ten to twenty times slower: a destination a few bytes past the source modulo 4 KiB. Which distances
// depends on the processor, and this VM has shown two: in 2026-11, 1-31 bytes at 2-3 GB/s instead of 40-50 (33-63
// at 27 GB/s); on 2026-12-01, 1-15 bytes (256 KiB: 91-108 us against 5-8 at every other distance up to 71; the
// kernel's process_vm_readv 92-133 against 19-23, at the same distances). So each process measures them once, or
// takes them from STRATA_SLOW_COPY_DISTANCES ("1-15,40", or "none"). copy_bytes.hpp and the transport use them.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace strata::runtime {

// Bit d (0-63) set: copies run slowly where the destination lies d bytes past the source modulo 4 KiB. Decided at
// the first call in this process: STRATA_SLOW_COPY_DISTANCES, or measured (under a millisecond).
std::uint64_t slow_rep_movsb_distances();

// The timings' verdict: distance d is slow where its best copy took over 8 times distance 0's. The slow ones took
// 15-25 times; 16 KiB on 2026-12-01: 1-15 bytes 4.7 us, 17-31 0.43, 33-63 0.22-0.65 (a few runs), 0 0.19-0.21.
std::uint64_t slow_distances_of(const double (&best_ns)[64]);

// STRATA_SLOW_COPY_DISTANCES's text: distances and ranges in 1-63 ("1-15,40"), or "none". nullopt for anything else.
std::optional<std::uint64_t> parse_distances(std::string_view text);
std::string format_distances(std::uint64_t slow);  // the same form, ranges as long as they go

}  // namespace strata::runtime
