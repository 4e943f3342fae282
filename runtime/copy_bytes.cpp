#include "runtime/copy_bytes.hpp"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace strata::runtime {
namespace {

#if defined(__x86_64__)
// Four 32-byte vectors a pass, stores aligned: the destination first brought to a 32-byte boundary. Streaming
// stores send the destination's lines to memory instead of this core's cache; the fence orders them before any
// store that follows (a record's publication).
template <bool kStream>
__attribute__((target("avx2"))) void copy_avx2(char* to, const char* from, std::size_t bytes) {
  const auto store = [](char* at, __m256i v) __attribute__((target("avx2"))) {
    if constexpr (kStream)
      _mm256_stream_si256(reinterpret_cast<__m256i*>(at), v);
    else
      _mm256_store_si256(reinterpret_cast<__m256i*>(at), v);
  };
  const std::size_t head = std::min<std::size_t>((32 - reinterpret_cast<std::uintptr_t>(to) % 32) % 32, bytes);
  std::memcpy(to, from, head);
  std::size_t i = head;
  for (; i + 128 <= bytes; i += 128) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + i + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + i + 64));
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + i + 96));
    store(to + i, a);
    store(to + i + 32, b);
    store(to + i + 64, c);
    store(to + i + 96, d);
  }
  if constexpr (kStream) _mm_sfence();
  std::memcpy(to + i, from + i, bytes - i);  // under 128 bytes: no rep movsb
}
#endif

}  // namespace

void stream_bytes(void* to, const void* from, std::size_t bytes) {
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return copy_avx2<true>(static_cast<char*>(to), static_cast<const char*>(from), bytes);
#endif
  copy_bytes(to, from, bytes);
}

void copy_by_vectors(void* to, const void* from, std::size_t bytes) {
#if defined(__x86_64__)
  // The slow distances were measured on a processor with fast short rep movsb (FSRM), and every such processor has
  // AVX2; one without AVX2 keeps memcpy.
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return copy_avx2<false>(static_cast<char*>(to), static_cast<const char*>(from), bytes);
#endif
  std::memcpy(to, from, bytes);
}

void OutboundCopy::copy(void* to, const void* from, std::size_t bytes) {
  if (bytes < kTimedFrom) return copy_bytes(to, from, bytes);
  if (streaming_ && ++streamed_ % kRetryEvery != 0) return stream_bytes(to, from, bytes);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  copy_bytes(to, from, bytes);
  const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  streaming_ = ns > kSlowNsPerByte * static_cast<double>(bytes);
}

}  // namespace strata::runtime
