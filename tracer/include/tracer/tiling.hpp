// Loop tiling on a Contexts trace (issue 11, `cats-static review`): which perfectly nested
// bands reuse a container across an outer loop while one iteration of that loop touches more
// lines than the first cache level holds, the tile sizes that fit it, and the trace as it
// would be with the band strip-mined and its tile loops moved outermost, for the simulator to
// predict the variant's misses.
#pragma once

#include "tracer/dependences.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

/// A band whose reuse across one of its loops does not fit the first level.
struct TilingCandidate {
  std::vector<std::size_t> band;        // Loop scopes of "contexts", outermost first
  std::vector<std::vector<std::size_t>> contextBands;  // the same loops in every calling context, "band" among them: a tiling of the source tiles them all
  std::vector<std::string> iterators;   // their iterators, as the source names them
  std::vector<std::int64_t> trips;      // their trip counts with the bindings (a triangular loop: its largest)
  std::string function;
  ir::SourceLoc loc;                    // the band's outermost loop, where the tiling goes
  std::size_t carrier = 0;              // index into "band": the loop across which the reuse is lost
  std::string container, access;        // the reused access (its container and text)
  std::int64_t reuseBytes = 0;          // how far its next use is per iteration of the carrier (0: the same bytes)
  std::int64_t footprintLines = 0;      // lines the band touches in one iteration of the carrier
  std::int64_t capacityLines = 0;       // lines of the first level
  std::optional<bool> legal;            // the dependences' verdict; none: the model cannot tell
  std::string legality;                 // why, in words
  std::string notEvaluated;             // non-empty: the variant cannot be built (and why)
};

/// The candidates of "contexts" (what the simulator runs), with the legality of "deps",
/// computed on "modelContexts" (loops matched by their place in the call tree). Trip counts
/// and strides are evaluated with "bindings"; the first level holds "capacityBytes" in lines
/// of "lineBytes". One candidate per source band: the first calling context that loses a reuse,
/// with the legality of all of them (illegal in one, illegal).
std::vector<TilingCandidate> findTilings(const Trace& contexts, const Trace& modelContexts, const ProgramDependences& deps,
                                         const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes,
                                         std::int64_t capacityBytes);

/// Lines the accesses of "c"'s band touch when band loop m runs min(tileSizes[m], its trips)
/// iterations (0: all of them): the footprint of one tile.
std::int64_t tileFootprintLines(const Trace& contexts, const TilingCandidate& c, const std::vector<std::int64_t>& tileSizes,
                                const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes);

/// The tile sizes to simulate for "c", first the chosen one: the same size T for every loop
/// of the band, the largest whose tile footprint fits half of "capacityBytes" (the rest is
/// left for what the tile's neighbours and the other arrays bring in), then T/2 and 2T.
/// Loops with no more than T iterations are not tiled (size 0).
std::vector<std::vector<std::int64_t>> tileSizeCandidates(const Trace& contexts, const TilingCandidate& c,
                                                          const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes,
                                                          std::int64_t capacityBytes);

/// "contexts" with the band "band" (perfectly nested Loop scopes, outermost first) tiled:
/// loop m with tileSizes[m] > 0 is strip-mined into a tile loop (a fresh iterator, the same
/// start and bound, step tileSizes[m] times the loop's) and the loop itself, now running from
/// the tile loop's iterator to min(that + tile, its bound); the tile loops go outermost, in the
/// band's order. The events and every other scope stay. nullopt (and "why") when a loop's
/// bounds depend on another loop of the band (not rectangular), a loop counts down or by an
/// unknown step, leaves early, runs in parallel or changes values other than its iterator.
std::optional<Trace> tiled(const Trace& contexts, const std::vector<std::size_t>& band, const std::vector<std::int64_t>& tileSizes,
                           std::string* why = nullptr);

}  // namespace cats::trace
