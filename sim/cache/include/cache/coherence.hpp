// A coherence model of a parallel loop's threads (issue 11, `review`'s false-sharing finding,
// docs/review.md): the loop's iterations dealt to T cores as an OpenMP static schedule deals
// them, the cores' accesses interleaved one iteration at a time, each core with a private cache
// of unbounded size that keeps, per line, whether its copy is valid (MSI-like: a write by one
// core invalidates the line in every other). Like the rest of the cache core it knows nothing
// of C: it takes the plain accesses of each iteration.
#pragma once

#include <cstdint>
#include <vector>

namespace cats::cache {

struct CoherenceAccess {
  std::uint64_t address = 0;
  std::uint32_t bytes = 0;
  std::uint32_t tag = 0;  // the caller's (an event index): reported back for falsely shared writes
  bool write = false;
};

/// One iteration of the parallel loop as the program runs it: a vectorised loop's iteration does
/// "count" source iterations from "first" (0-based in the entry); its accesses in program order.
struct Iteration {
  std::int64_t first = 0;
  std::int64_t count = 1;
  std::vector<CoherenceAccess> accesses;
};

struct CoherenceOptions {
  std::uint32_t threads = 4;
  /// 0: contiguous blocks of ceil(n / threads) iterations, one per thread (schedule(static));
  /// c > 0: chunks of c iterations dealt round-robin (schedule(static, c)).
  std::int64_t chunk = 0;
  std::uint32_t lineBytes = 64;
};

struct CoherenceStats {
  /// Accesses of a core to a line it held before and that another core wrote since: the misses a
  /// single core never has (the cold misses of each core and capacity misses are not counted).
  std::uint64_t coherenceMisses = 0;
  std::uint64_t sharedLines = 0;        // lines written by more than one thread
  std::uint64_t falselySharedLines = 0;  // of those, lines where no byte is written by two threads
  std::uint64_t falseSharingMisses = 0;  // coherence misses on the falsely shared lines
  std::vector<std::uint32_t> falseSharingTags;  // tags of the writes to falsely shared lines, sorted, distinct
};

/// The thread that runs iteration "index" (0-based) of "iterations" under "options"' schedule.
std::uint32_t ownerThread(std::int64_t index, std::int64_t iterations, const CoherenceOptions& options);

/// Replays "runs" (each an entry of the parallel loop: its iterations in order; the caches
/// persist from one entry to the next) on options.threads cores. An iteration belongs to the
/// thread of its first source iteration. Round r runs, for each thread in turn, that thread's
/// r-th iteration of the entry.
CoherenceStats simulateCoherence(const std::vector<std::vector<Iteration>>& runs, const CoherenceOptions& options);

}  // namespace cats::cache
