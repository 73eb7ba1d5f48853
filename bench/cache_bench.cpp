// Accesses per second of the cache core on three address streams: sequential 8-byte reads that hit
// the first level, a 4096-byte stride that misses everywhere, and random reads over 64 MiB; for a
// 2-level (cats-paper) and a 3-level (intel-skylake) hierarchy, and the 2-level one classifying
// misses; and for Cachegrind's non-inclusive model, the same plus a naive-matmul-like stream
// alternating a hitting and a missing array; and Cachegrind's geometry inclusive, exclusive, FIFO and
// tree-PLRU; and the Demand cases: Cachegrind's geometry (non-inclusive, inclusive, exclusive)
// filling demand-only outcomes, what `simulate` runs where MruHierarchy does not apply; and the
// MRU engine itself on Cachegrind's geometry, non-inclusive, inclusive and exclusive. "accesses" (and items_per_second) is simulated
// accesses per second, e.g. "250M/s".
#include "cache/hierarchy.hpp"
#include "cache/mru_hierarchy.hpp"
#include "cache/presets.hpp"
#include "cache_streams.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

using cats::cache::Hierarchy;
using cats::cache::Outcome;

using cats::bench::kStreamLength;
using cats::bench::lineStream;
using cats::bench::matmulStream;
using cats::bench::randomStream;
using cats::bench::sequentialStream;
using cats::bench::strideStream;

void replayConfig(benchmark::State& state, const cats::cache::HierarchyConfig& config, std::vector<std::uint64_t> (*make)(),
                  cats::cache::OutcomeDetail detail = cats::cache::OutcomeDetail::Full) {
  Hierarchy hierarchy(config);
  std::vector<std::uint64_t> stream = make();
  Outcome outcome(detail);
  for (std::uint64_t a : stream) hierarchy.access(a, 8, false, outcome);
  hierarchy.resetStats();
  std::size_t i = 0;
  for (auto _ : state) {
    hierarchy.access(stream[i], 8, false, outcome);
    i = (i + 1) & (kStreamLength - 1);
  }
  benchmark::DoNotOptimize(hierarchy.stats());
  state.SetItemsProcessed(state.iterations());
  state.counters["accesses"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  const auto& first = hierarchy.stats().front();
  state.counters["D1 miss%"] = first.accesses() ? 100.0 * static_cast<double>(first.misses()) / static_cast<double>(first.accesses()) : 0;
  const auto& last = hierarchy.stats().back();
  state.counters["last miss%"] = last.accesses() ? 100.0 * static_cast<double>(last.misses()) / static_cast<double>(last.accesses()) : 0;
}

void replay(benchmark::State& state, const char* machine, std::vector<std::uint64_t> (*make)(), bool classify = false) {
  cats::cache::HierarchyConfig config = cats::cache::preset(machine);
  config.classifyMisses = classify;
  replayConfig(state, config, make);
}

/* Cachegrind's geometry with another inclusion mode or replacement policy on every level. */
void replayVariant(benchmark::State& state, cats::cache::Inclusion inclusion, cats::cache::Replacement replacement,
                   std::vector<std::uint64_t> (*make)()) {
  cats::cache::HierarchyConfig config = cats::cache::preset("cachegrind");
  config.inclusion = inclusion;
  for (auto& level : config.levels) level.replacement = replacement;
  replayConfig(state, config, make);
}

/* The same replay through the MRU-ordered engine the simulator uses for LRU, write-back,
   write-allocate hierarchies: Cachegrind's geometry, non-inclusive unless "inclusion" says. */
void replayMru(benchmark::State& state, std::vector<std::uint64_t> (*make)(),
               cats::cache::Inclusion inclusion = cats::cache::Inclusion::NonInclusive) {
  cats::cache::HierarchyConfig config = cats::cache::preset("cachegrind");
  config.inclusion = inclusion;
  cats::cache::MruHierarchy hierarchy(config);
  std::vector<std::uint64_t> stream = make();
  cats::cache::MruOutcome outcome;
  for (std::uint64_t a : stream) hierarchy.access(a, 8, false, outcome);
  std::size_t i = 0;
  for (auto _ : state) {
    hierarchy.access(stream[i], 8, false, outcome);
    benchmark::DoNotOptimize(outcome);
    i = (i + 1) & (kStreamLength - 1);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["accesses"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

/* Cachegrind's geometry, LRU write-back write-allocate, with "inclusion", filling demand-only
   outcomes as sim/simulate.cpp does. */
void replayDemand(benchmark::State& state, cats::cache::Inclusion inclusion, std::vector<std::uint64_t> (*make)()) {
  cats::cache::HierarchyConfig config = cats::cache::preset("cachegrind");
  config.inclusion = inclusion;
  replayConfig(state, config, make, cats::cache::OutcomeDetail::DemandOnly);
}

void BM_MruSequentialHits(benchmark::State& state) { replayMru(state, sequentialStream); }
void BM_MruStride4096(benchmark::State& state) { replayMru(state, strideStream); }
void BM_MruMatmul500(benchmark::State& state) { replayMru(state, matmulStream); }
void BM_MruLines(benchmark::State& state) { replayMru(state, lineStream); }
void BM_MruInclusiveStride4096(benchmark::State& state) { replayMru(state, strideStream, cats::cache::Inclusion::Inclusive); }
void BM_MruInclusiveMatmul500(benchmark::State& state) { replayMru(state, matmulStream, cats::cache::Inclusion::Inclusive); }
void BM_MruExclusiveStride4096(benchmark::State& state) { replayMru(state, strideStream, cats::cache::Inclusion::Exclusive); }
void BM_MruExclusiveMatmul500(benchmark::State& state) { replayMru(state, matmulStream, cats::cache::Inclusion::Exclusive); }

void BM_TwoLevelSequentialHits(benchmark::State& state) { replay(state, "cats-paper", sequentialStream); }
void BM_TwoLevelStride4096(benchmark::State& state) { replay(state, "cats-paper", strideStream); }
void BM_CachegrindLines(benchmark::State& state) { replay(state, "cachegrind", lineStream); }
void BM_TwoLevelRandom64MiB(benchmark::State& state) { replay(state, "cats-paper", randomStream); }
void BM_ThreeLevelSequentialHits(benchmark::State& state) { replay(state, "intel-skylake", sequentialStream); }
void BM_ThreeLevelStride4096(benchmark::State& state) { replay(state, "intel-skylake", strideStream); }
void BM_ThreeLevelRandom64MiB(benchmark::State& state) { replay(state, "intel-skylake", randomStream); }
void BM_CachegrindSequentialHits(benchmark::State& state) { replay(state, "cachegrind", sequentialStream); }
void BM_CachegrindStride4096(benchmark::State& state) { replay(state, "cachegrind", strideStream); }
void BM_CachegrindMatmul500(benchmark::State& state) { replay(state, "cachegrind", matmulStream); }
void BM_TwoLevelMatmul500(benchmark::State& state) { replay(state, "cats-paper", matmulStream); }
void BM_TwoLevelSequentialHitsClassified(benchmark::State& state) { replay(state, "cats-paper", sequentialStream, true); }
void BM_TwoLevelRandom64MiBClassified(benchmark::State& state) { replay(state, "cats-paper", randomStream, true); }

using cats::cache::Inclusion;
using cats::cache::Replacement;
void BM_DemandSequentialHits(benchmark::State& state) { replayDemand(state, Inclusion::NonInclusive, sequentialStream); }
void BM_DemandStride4096(benchmark::State& state) { replayDemand(state, Inclusion::NonInclusive, strideStream); }
void BM_DemandMatmul500(benchmark::State& state) { replayDemand(state, Inclusion::NonInclusive, matmulStream); }
void BM_DemandInclusiveStride4096(benchmark::State& state) { replayDemand(state, Inclusion::Inclusive, strideStream); }
void BM_DemandInclusiveMatmul500(benchmark::State& state) { replayDemand(state, Inclusion::Inclusive, matmulStream); }
void BM_DemandExclusiveStride4096(benchmark::State& state) { replayDemand(state, Inclusion::Exclusive, strideStream); }
void BM_DemandExclusiveMatmul500(benchmark::State& state) { replayDemand(state, Inclusion::Exclusive, matmulStream); }
void BM_InclusiveSequentialHits(benchmark::State& state) { replayVariant(state, Inclusion::Inclusive, Replacement::Lru, sequentialStream); }
void BM_InclusiveStride4096(benchmark::State& state) { replayVariant(state, Inclusion::Inclusive, Replacement::Lru, strideStream); }
void BM_InclusiveMatmul500(benchmark::State& state) { replayVariant(state, Inclusion::Inclusive, Replacement::Lru, matmulStream); }
void BM_ExclusiveSequentialHits(benchmark::State& state) { replayVariant(state, Inclusion::Exclusive, Replacement::Lru, sequentialStream); }
void BM_ExclusiveStride4096(benchmark::State& state) { replayVariant(state, Inclusion::Exclusive, Replacement::Lru, strideStream); }
void BM_ExclusiveMatmul500(benchmark::State& state) { replayVariant(state, Inclusion::Exclusive, Replacement::Lru, matmulStream); }
void BM_FifoSequentialHits(benchmark::State& state) { replayVariant(state, Inclusion::NonInclusive, Replacement::Fifo, sequentialStream); }
void BM_FifoStride4096(benchmark::State& state) { replayVariant(state, Inclusion::NonInclusive, Replacement::Fifo, strideStream); }
void BM_FifoMatmul500(benchmark::State& state) { replayVariant(state, Inclusion::NonInclusive, Replacement::Fifo, matmulStream); }
void BM_PlruSequentialHits(benchmark::State& state) { replayVariant(state, Inclusion::NonInclusive, Replacement::TreePlru, sequentialStream); }
void BM_PlruStride4096(benchmark::State& state) { replayVariant(state, Inclusion::NonInclusive, Replacement::TreePlru, strideStream); }
void BM_PlruMatmul500(benchmark::State& state) { replayVariant(state, Inclusion::NonInclusive, Replacement::TreePlru, matmulStream); }

}  // namespace

BENCHMARK(BM_MruSequentialHits);
BENCHMARK(BM_MruStride4096);
BENCHMARK(BM_MruMatmul500);
BENCHMARK(BM_MruLines);
BENCHMARK(BM_MruInclusiveStride4096);
BENCHMARK(BM_MruInclusiveMatmul500);
BENCHMARK(BM_MruExclusiveStride4096);
BENCHMARK(BM_MruExclusiveMatmul500);
BENCHMARK(BM_DemandSequentialHits);
BENCHMARK(BM_DemandStride4096);
BENCHMARK(BM_DemandMatmul500);
BENCHMARK(BM_DemandInclusiveStride4096);
BENCHMARK(BM_DemandInclusiveMatmul500);
BENCHMARK(BM_DemandExclusiveStride4096);
BENCHMARK(BM_DemandExclusiveMatmul500);
BENCHMARK(BM_TwoLevelSequentialHits);
BENCHMARK(BM_TwoLevelStride4096);
BENCHMARK(BM_CachegrindLines);
BENCHMARK(BM_TwoLevelRandom64MiB);
BENCHMARK(BM_ThreeLevelSequentialHits);
BENCHMARK(BM_ThreeLevelStride4096);
BENCHMARK(BM_ThreeLevelRandom64MiB);
BENCHMARK(BM_CachegrindSequentialHits);
BENCHMARK(BM_CachegrindStride4096);
BENCHMARK(BM_CachegrindMatmul500);
BENCHMARK(BM_TwoLevelMatmul500);
BENCHMARK(BM_TwoLevelSequentialHitsClassified);
BENCHMARK(BM_TwoLevelRandom64MiBClassified);
BENCHMARK(BM_InclusiveSequentialHits);
BENCHMARK(BM_InclusiveStride4096);
BENCHMARK(BM_InclusiveMatmul500);
BENCHMARK(BM_ExclusiveSequentialHits);
BENCHMARK(BM_ExclusiveStride4096);
BENCHMARK(BM_ExclusiveMatmul500);
BENCHMARK(BM_FifoSequentialHits);
BENCHMARK(BM_FifoStride4096);
BENCHMARK(BM_FifoMatmul500);
BENCHMARK(BM_PlruSequentialHits);
BENCHMARK(BM_PlruStride4096);
BENCHMARK(BM_PlruMatmul500);
