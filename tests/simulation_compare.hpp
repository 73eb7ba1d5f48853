// Comparing simulations: a fast path against the plain path must give identical statistics,
// per event and in total, over cache configurations that cover every policy combination.
#pragma once

#include "cache/config.hpp"
#include "sim/simulate.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cats::test {

bool sameCounts(const sim::LevelCounts& a, const sim::LevelCounts& b);

/// Simulates "program" with the stream's fast paths (leaf paths, bulk hits, warping) on and off
/// and CHECKs that everything reported is the same; returns the fast simulation.
sim::SimulationResult checkSameSimulation(const sim::Program& program, std::size_t events, const cache::HierarchyConfig& config,
                                          sim::StreamOptions options);

/// "program" on two threads (fast paths on) reports what the plain path reports on one; the
/// split run's bulk accesses (0 if it ran on one thread).
std::uint64_t checkSplitAsPlain(const sim::Program& program, std::size_t events, const cache::HierarchyConfig& config);

/// "path" (relative to the source tree) analysed with "defines" and concretised at -O0 and -O2:
/// "check" gets each program, stream options to match (undecidable branches: a seeded coin) and
/// a label for INFO.
using ModelCheck = std::function<void(const sim::Program&, std::size_t events, const sim::StreamOptions&, const std::string& label)>;
void forEachModel(const std::string& path, const std::map<std::string, std::string>& defines, const ModelCheck& check);

/// Small two-level caches (misses, evictions, thrashing sets) in every combination of replacement,
/// inclusion, classification and write policy, two eight-way LRU levels in each inclusion mode,
/// and one single-level LRU cache.
std::vector<cache::HierarchyConfig> policyConfigurations();

}  // namespace cats::test
