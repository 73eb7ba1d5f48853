// The MRU engine's set rows (MruHierarchy): ways in most-recently-used order, each a slot word
// (line + 1) << 1 | dirty, 0 for an empty way. Shared by the engine and the inline hit paths of
// its header.
#pragma once

#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CATS_VECTOR_ROWS 1
#endif

namespace cats::cache::mru_row {

/// True where scanShift8Vector() exists (x86-64 with GCC or Clang); the processor must still have AVX-512 (vectorRowsSupported()).
#ifdef CATS_VECTOR_ROWS
inline constexpr bool kVectorRows = true;
#else
inline constexpr bool kVectorRows = false;
#endif

/// True if scanShiftWays<Ways, Vector> is scanShift8Vector().
template <std::uint32_t Ways, bool Vector>
inline constexpr bool kVectorScan = Vector && Ways == 8 && kVectorRows;

/// True if this processor runs scanShift8Vector() (AVX-512 F and VL).
inline bool vectorRowsSupported() {
#ifdef CATS_VECTOR_ROWS
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

/* The line a slot word holds ((line + 1) << 1 | dirty). */
[[gnu::always_inline]] inline std::uint64_t lineOf(std::uint64_t slot) { return (slot >> 1) - 1; }

/* Room at way 0: ways 0..ways-2 move one way down, the last way's slot is overwritten. "Ways" > 0
   fixes the associativity at compile time. */
template <std::uint32_t Ways = 0>
[[gnu::always_inline]] inline void shiftDown(std::uint64_t* row, std::uint32_t ways) {
  const std::uint32_t count = Ways != 0 ? Ways : ways;
#pragma GCC unroll 8
  for (std::uint32_t w = count - 1; w > 0; --w) row[w] = row[w - 1];
}

/* The way of "row" holding "key" (dirty or not), or "Ways" if none; the loop written out. */
template <std::uint32_t Ways>
[[gnu::always_inline]] inline std::uint32_t findWayIn(const std::uint64_t* row, std::uint64_t key) {
#pragma GCC unroll 8
  for (std::uint32_t w = 0; w < Ways; ++w)
    if ((row[w] ^ key) < 2) return w;
  return Ways;
}

#ifdef CATS_VECTOR_ROWS
/* The ways of an eight-way row (in one AVX-512 register) that hold the line "key" (clean), dirty or not. */
[[gnu::target("avx512f,avx512vl")]] inline __mmask8 waysHolding(__m512i ways, std::uint64_t key) {
  // An operator, not _mm512_andnot_si512: GCC 12 warns of its own unmasked intrinsics' undefined source.
  return _mm512_cmpeq_epi64_mask(ways & _mm512_set1_epi64(~std::int64_t{1}), _mm512_set1_epi64(static_cast<long long>(key)));
}

/* scanShiftWays<8> with the row in one AVX-512 register: one compare finds the way, and a lane
   rotation blended over ways 0..w moves it to the front; no branch per way (the scalar scan's
   exit at an unpredictable way costs a misprediction on most misses of the way before). On a miss
   the new line (key | dirty) is at way 0 already. Inlined only into code compiled for
   x86-64-v4 (a target attribute), which runs only where vectorRowsSupported(). */
[[gnu::target("avx512f,avx512vl")]] inline bool scanShift8Vector(std::uint64_t* row, std::uint64_t key, std::uint64_t dirty,
                                                                std::uint64_t& carry) {
  const __m512i ways = _mm512_loadu_si512(row);
  if (const __mmask8 same = waysHolding(ways, key); same != 0) {
    const unsigned way = static_cast<unsigned>(__builtin_ctz(same));
    const std::uint64_t slot = row[way] | dirty;
    // Slot, ways 0..6 (zero-masked forms: GCC 12 warns of the unmasked ones' undefined source).
    const __m512i shifted = _mm512_maskz_alignr_epi64(0xFF, ways, _mm512_set1_epi64(static_cast<long long>(slot)), 7);
    _mm512_storeu_si512(row, _mm512_mask_blend_epi64(static_cast<__mmask8>((2U << way) - 1), ways, shifted));
    return true;
  }
  carry = row[7];
  _mm512_storeu_si512(row, _mm512_maskz_alignr_epi64(0xFF, ways, _mm512_set1_epi64(static_cast<long long>(key | dirty)), 7));
  return false;
}

/* The line "key" (clean) of an eight-way row made dirty where the row holds it, with one 64-byte
   store (the row's next 64-byte load then takes it from the store, not after it lands); false if
   the row lacks the line. */
[[gnu::target("avx512f,avx512vl")]] inline bool markDirty8Vector(std::uint64_t* row, std::uint64_t key) {
  const __m512i ways = _mm512_loadu_si512(row);
  const __mmask8 same = waysHolding(ways, key);
  if (same == 0) return false;
  _mm512_storeu_si512(row, _mm512_mask_or_epi64(ways, same, ways, _mm512_set1_epi64(1)));
  return true;
}
#endif

/* Scan and shift in one pass: each way takes its predecessor's slot as the scan goes, so a hit at
   way w has shifted ways 0..w-1 down by then (and moves to way 0), and a miss has shifted the whole
   row and leaves the victim in "carry" (half the work of a scan followed by a shift). "Ways" > 0
   fixes the associativity at compile time, so the loop is written out. "Vector": eight ways
   scanned by scanShift8Vector() (a miss may then have written way 0, which the caller fills). */
template <std::uint32_t Ways, bool Vector = false>
[[gnu::always_inline]] inline bool scanShiftWays(std::uint64_t* row, std::uint32_t ways, std::uint64_t key, std::uint64_t dirty,
                                                 std::uint64_t& carry) {
#ifdef CATS_VECTOR_ROWS
  if constexpr (Vector && Ways == 8) return scanShift8Vector(row, key, dirty, carry);
#endif
  const std::uint32_t count = Ways != 0 ? Ways : ways;
  std::uint64_t held = row[0];
#pragma GCC unroll 8
  for (std::uint32_t w = 1; w < count; ++w) {
    const std::uint64_t here = row[w];
    row[w] = held;
    if ((here ^ key) < 2) {  // the same line, dirty or not ("key" is clean)
      row[0] = here | dirty;
      return true;
    }
    held = here;
  }
  carry = held;
  return false;
}

/* Eight ways, the commonest associativity, written out: a fifth fewer instructions per miss
   (bench/cache_ir.sh). */
[[gnu::always_inline]] inline bool scanShift(std::uint64_t* row, std::uint32_t ways, std::uint64_t key, std::uint64_t dirty,
                                             std::uint64_t& carry) {
  return ways == 8 ? scanShiftWays<8>(row, ways, key, dirty, carry) : scanShiftWays<0>(row, ways, key, dirty, carry);
}

/* A demand access of the line "key" (clean) to one level's set "row": on a hit the line becomes
   the newest ("dirty" ORed in) and the result is true; on a miss the row is shifted, key | dirty
   is the newest line and "carry" holds the line it displaced (0: that way was empty). */
template <std::uint32_t Ways = 0, bool Vector = false>  // Ways > 0: the associativity, known at compile time
[[gnu::always_inline]] inline bool touchLine(std::uint64_t* row, std::uint32_t ways, std::uint64_t key, std::uint64_t dirty,
                                             std::uint64_t& carry) {
  carry = row[0];
  if ((carry & ~std::uint64_t{1}) == key) {
    row[0] = carry | dirty;
    return true;
  }
  if (Ways != 0 ? scanShiftWays<Ways, Vector>(row, Ways, key, dirty, carry) : scanShift(row, ways, key, dirty, carry)) return true;
  if constexpr (!kVectorScan<Ways, Vector>) row[0] = key | dirty;  // the vector scan wrote it
  return false;
}

/* Take way "w" out of "row", closing the gap: the ways after it move up, the last is empty. */
inline void removeWay(std::uint64_t* row, std::uint32_t ways, std::uint32_t w) {
  for (; w + 1 < ways; ++w) row[w] = row[w + 1];
  row[ways - 1] = 0;
}

}  // namespace cats::cache::mru_row
