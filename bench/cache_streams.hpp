// Address streams of the cache benchmarks (cache_bench.cpp, cache_replay.cpp): sequential hits,
// an all-miss stride, an all-miss line walk, a first-level-miss last-level-hit walk, random reads, and a naive-matmul-like mix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cats::bench {

constexpr std::size_t kStreamLength = std::size_t{1} << 20;  // addresses per stream, replayed cyclically
constexpr std::uint64_t kBase = 0x10000000;

/* 8-byte reads walking 16 KiB (half the 32 KiB first level) over and over: all hits once warm. */
inline std::vector<std::uint64_t> sequentialStream() {
  std::vector<std::uint64_t> s(kStreamLength);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = kBase + (i * 8) % (std::uint64_t{16} << 10);
  return s;
}

/* One read every 4096 bytes over 64 MiB: 4096 is a multiple of every level's sets times line size
   divided by at most 8, so each access maps to a handful of sets and every access misses. */
inline std::vector<std::uint64_t> strideStream() {
  std::vector<std::uint64_t> s(kStreamLength);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = kBase + (i * 4096) % (64u << 20);
  return s;
}

/* One read per 64-byte line walking 64 MiB: a new line every access, spread over every set, so
   every access misses every level (a streaming all-miss stream). */
inline std::vector<std::uint64_t> lineStream() {
  std::vector<std::uint64_t> s(kStreamLength);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = kBase + (i * 64) % (64u << 20);
  return s;
}

/* One read per 64-byte line walking 128 KiB: larger than a 32 KiB first level, smaller than a
   256 KiB last level, so every access misses the first level and hits the last (a column walk). */
inline std::vector<std::uint64_t> lastLevelHitStream() {
  std::vector<std::uint64_t> s(kStreamLength);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = kBase + (i * 64) % (128u << 10);
  return s;
}

/* 8-byte aligned reads at xorshift-random places in 64 MiB. */
inline std::vector<std::uint64_t> randomStream() {
  std::vector<std::uint64_t> s(kStreamLength);
  std::uint64_t x = 88172645463325252ull;
  for (auto& a : s) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    a = kBase + (x % (64u << 20)) / 8 * 8;
  }
  return s;
}

/* Naive matrix multiply N=500 (C[i][j] += A[i][k] * B[k][j] over k): reads alternate between A,
   walked 8 bytes at a time (7 of 8 hit the first level), and B, walked with a 4000-byte stride
   (a new line every time, missing the first level and mostly the last). */
inline std::vector<std::uint64_t> matmulStream() {
  constexpr std::uint64_t n = 500;
  constexpr std::uint64_t a = kBase, b = kBase + (std::uint64_t{8} << 20);
  std::vector<std::uint64_t> s(kStreamLength);
  std::size_t p = 0;
  for (std::uint64_t i = 0; p < s.size(); i = (i + 1) % n)
    for (std::uint64_t j = 0; j < n && p < s.size(); ++j)
      for (std::uint64_t k = 0; k < n && p + 1 < s.size(); ++k) {
        s[p++] = a + (i * n + k) * 8;
        s[p++] = b + (k * n + j) * 8;
      }
  return s;
}

}  // namespace cats::bench
