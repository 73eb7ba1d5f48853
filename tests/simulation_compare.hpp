// Comparing simulations: a fast path against the plain path must give identical statistics,
// per event and in total, over cache configurations that cover every policy combination.
#pragma once

#include "cache/config.hpp"
#include "sim/simulate.hpp"

#include <vector>

namespace cats::test {

bool sameCounts(const sim::LevelCounts& a, const sim::LevelCounts& b);

/// Simulates "program" with the stream's fast paths (leaf paths, bulk hits, warping) on and off
/// and CHECKs that everything reported is the same; returns the fast simulation.
sim::SimulationResult checkSameSimulation(const sim::Program& program, std::size_t events, const cache::HierarchyConfig& config,
                                          sim::StreamOptions options);

/// Small two-level caches (misses, evictions, thrashing sets) in every combination of replacement,
/// inclusion, classification and write policy, and one single-level LRU cache.
std::vector<cache::HierarchyConfig> policyConfigurations();

}  // namespace cats::test
