// The coherence model of a parallel loop (cache/coherence.hpp) on cases counted by hand.
#include "cache/coherence.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace cats::cache;

namespace {

/* One entry of a loop of "n" iterations whose iteration k writes "bytes" bytes at address(k). */
template <typename Address>
std::vector<std::vector<Iteration>> writes(std::int64_t n, std::uint32_t bytes, Address address) {
  std::vector<Iteration> run;
  for (std::int64_t k = 0; k < n; ++k) run.push_back(Iteration{k, 1, {CoherenceAccess{address(k), bytes, static_cast<std::uint32_t>(k % 2), true}}});
  return {run};
}

}  // namespace

TEST_CASE("coherence: the static schedules deal iterations as OpenMP does", "[cache][coherence]") {
  CoherenceOptions contiguous{4, 0, 64};
  // 10 iterations on 4 threads: blocks of ceil(10 / 4) = 3, the last thread gets the one left.
  std::vector<std::uint32_t> owners;
  for (std::int64_t k = 0; k < 10; ++k) owners.push_back(ownerThread(k, 10, contiguous));
  CHECK(owners == std::vector<std::uint32_t>{0, 0, 0, 1, 1, 1, 2, 2, 2, 3});
  CoherenceOptions chunked{4, 2, 64};
  owners.clear();
  for (std::int64_t k = 0; k < 10; ++k) owners.push_back(ownerThread(k, 10, chunked));
  CHECK(owners == std::vector<std::uint32_t>{0, 0, 1, 1, 2, 2, 3, 3, 0, 0});
}

TEST_CASE("coherence: two threads each writing their own counter in one line", "[cache][coherence]") {
  // counts[tid] += ... over 4 iterations, 2 threads, contiguous: thread 0 runs 0, 1 and thread 1
  // runs 2, 3. Round 0: core 0 writes byte 0..7 of line 0 (its first access: no coherence miss),
  // core 1 writes 8..15 (first access) and invalidates core 0's copy. Round 1: core 0 again: a
  // coherence miss, invalidating core 1; core 1 again: a second one. One line, two writers,
  // disjoint bytes: falsely shared, both misses on it.
  CoherenceOptions options{2, 0, 64};
  CoherenceStats s = simulateCoherence(writes(4, 8, [](std::int64_t k) { return static_cast<std::uint64_t>(8 * (k / 2)); }), options);
  CHECK(s.coherenceMisses == 2);
  CHECK(s.sharedLines == 1);
  CHECK(s.falselySharedLines == 1);
  CHECK(s.falseSharingMisses == 2);
  CHECK(s.falseSharingTags == std::vector<std::uint32_t>{0, 1});
  // Padded to a line each (counts[tid * 8]): nothing shared, nothing missed.
  CoherenceStats padded = simulateCoherence(writes(4, 8, [](std::int64_t k) { return static_cast<std::uint64_t>(64 * (k / 2)); }), options);
  CHECK(padded.coherenceMisses == 0);
  CHECK(padded.sharedLines == 0);
}

TEST_CASE("coherence: schedule(static, 1) over doubles shares every line, chunks of a line share none", "[cache][coherence]") {
  // out[k] = ... over 16 doubles (2 lines) on 4 threads, chunk 1: thread t writes k = t, t+4, ...
  // Line 0 (k 0..7): round 0 the four cores take it in turn (first accesses, no miss); round 1
  // each core finds it written by the other three since: 4 misses. Line 1 the same in rounds 2
  // and 3: 8 coherence misses, 2 falsely shared lines.
  CoherenceStats s = simulateCoherence(writes(16, 8, [](std::int64_t k) { return static_cast<std::uint64_t>(8 * k); }), {4, 1, 64});
  CHECK(s.coherenceMisses == 8);
  CHECK(s.falselySharedLines == 2);
  CHECK(s.falseSharingMisses == 8);
  CoherenceStats lineChunks = simulateCoherence(writes(16, 8, [](std::int64_t k) { return static_cast<std::uint64_t>(8 * k); }), {4, 8, 64});
  CHECK(lineChunks.coherenceMisses == 0);
  CHECK(lineChunks.sharedLines == 0);
}

TEST_CASE("coherence: threads writing the same bytes share truly, not falsely", "[cache][coherence]") {
  // Every iteration writes bytes 0..7: 2 threads, 2 iterations each; round 1 misses on both cores.
  CoherenceStats s = simulateCoherence(writes(4, 8, [](std::int64_t) { return std::uint64_t{0}; }), {2, 0, 64});
  CHECK(s.coherenceMisses == 2);
  CHECK(s.sharedLines == 1);
  CHECK(s.falselySharedLines == 0);
  CHECK(s.falseSharingMisses == 0);
  CHECK(s.falseSharingTags.empty());
}

TEST_CASE("coherence: reads of a line nobody writes and a single thread miss nothing", "[cache][coherence]") {
  std::vector<Iteration> run;
  for (std::int64_t k = 0; k < 8; ++k)
    run.push_back(Iteration{k, 1, {CoherenceAccess{0, 8, 0, false}, CoherenceAccess{64 + 8 * static_cast<std::uint64_t>(k), 8, 1, true}}});
  CHECK(simulateCoherence({run}, {4, 1, 64}).coherenceMisses == 4);  // line 1: each core's second write after the others'
  CHECK(simulateCoherence({run}, {1, 1, 64}).coherenceMisses == 0);
  // An access straddling two lines touches both.
  CoherenceStats straddle = simulateCoherence({{Iteration{0, 1, {CoherenceAccess{60, 8, 0, true}}}, Iteration{1, 1, {CoherenceAccess{56, 16, 1, true}}}}}, {2, 1, 64});
  CHECK(straddle.sharedLines == 2);
  CHECK(straddle.falselySharedLines == 0);  // bytes 60..67 written by both
}

TEST_CASE("coherence: a vector iteration is dealt by its first source iteration", "[cache][coherence]") {
  // 16 doubles written by 8 vector iterations of 2 (16 bytes each), schedule(static, 2) on 2
  // threads: source iterations 0-1, 4-5, ... go to thread 0, so vector iterations alternate and
  // each 64-byte line (4 vector iterations) is written by both threads: 2 lines falsely shared.
  std::vector<Iteration> run;
  for (std::int64_t k = 0; k < 8; ++k) run.push_back(Iteration{2 * k, 2, {CoherenceAccess{16 * static_cast<std::uint64_t>(k), 16, 0, true}}});
  CoherenceStats pairs = simulateCoherence({run}, {2, 2, 64});
  CHECK(pairs.falselySharedLines == 2);
  // Chunks of 8 source iterations (4 vector iterations, one line) share nothing.
  CHECK(simulateCoherence({run}, {2, 8, 64}).coherenceMisses == 0);
  // A block schedule counts source iterations: 16 on 2 threads, 8 each, one line apart... the
  // last two vector iterations of thread 0 and the first of thread 1 are in different lines.
  CoherenceStats blocks = simulateCoherence({run}, {2, 0, 64});
  CHECK(blocks.sharedLines == 0);
}
