// Replays one benchmark stream (cache_streams.hpp) through one cache engine a given number of
// times, for instruction counts under Callgrind (bench/cache_ir.sh): on a shared machine wall
// times vary by up to 1.7x, instructions per access do not.
// Usage: cache_replay mru|general non-inclusive|inclusive|exclusive hits|stride|lines|llhits|random|matmul ACCESSES
#include "cache/hierarchy.hpp"
#include "cache/mru_hierarchy.hpp"
#include "cache/presets.hpp"
#include "cache_streams.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

using Stream = std::vector<std::uint64_t> (*)();

/* Every address of "stream" once (warming the engine), then "count" more, cyclically. */
template <typename Engine, typename Outcome>
void replay(Engine& engine, Outcome& outcome, const std::vector<std::uint64_t>& stream, std::size_t count) {
  for (std::uint64_t a : stream) engine.access(a, 8, false, outcome);
  for (std::size_t i = 0; i < count; ++i) engine.access(stream[i & (cats::bench::kStreamLength - 1)], 8, false, outcome);
}

}  // namespace

int main(int argc, char** argv) {
  const std::map<std::string, Stream> streams{{"hits", cats::bench::sequentialStream},
                                              {"stride", cats::bench::strideStream},
                                              {"lines", cats::bench::lineStream},
                                              {"llhits", cats::bench::lastLevelHitStream},
                                              {"random", cats::bench::randomStream},
                                              {"matmul", cats::bench::matmulStream}};
  const std::map<std::string, cats::cache::Inclusion> inclusions{{"non-inclusive", cats::cache::Inclusion::NonInclusive},
                                                                 {"inclusive", cats::cache::Inclusion::Inclusive},
                                                                 {"exclusive", cats::cache::Inclusion::Exclusive}};
  if (argc != 5 || !streams.contains(argv[3]) || !inclusions.contains(argv[2]) || (std::string(argv[1]) != "mru" && std::string(argv[1]) != "general")) {
    std::fprintf(stderr, "usage: cache_replay mru|general non-inclusive|inclusive|exclusive hits|stride|lines|llhits|random|matmul ACCESSES\n");
    return 2;
  }
  cats::cache::HierarchyConfig config = cats::cache::preset("cachegrind");
  config.inclusion = inclusions.at(argv[2]);
  const std::vector<std::uint64_t> stream = streams.at(argv[3])();
  const std::size_t count = std::strtoull(argv[4], nullptr, 10);
  std::uint64_t misses = 0;
  if (std::string(argv[1]) == "mru") {
    cats::cache::MruHierarchy engine(config);
    cats::cache::MruOutcome outcome;
    replay(engine, outcome, stream, count);
    misses = engine.stats().back().misses();
  } else {
    cats::cache::Hierarchy engine(config);
    cats::cache::Outcome outcome(cats::cache::OutcomeDetail::DemandOnly);
    replay(engine, outcome, stream, count);
    misses = engine.stats().back().misses();
  }
  std::printf("last-level misses: %llu\n", static_cast<unsigned long long>(misses));
  return 0;
}
