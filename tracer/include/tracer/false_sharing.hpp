// OpenMP parallel loops on a Contexts trace (issue 11, `cats-static review`'s false-sharing
// finding): the loops whose iterations a static schedule deals to threads, the trace with the
// value of omp_get_thread_num() made the thread that runs each iteration (so that the
// sequential stream makes each thread's addresses), and the two fixes as trace variants:
// per-thread data spread one cache line apart, and a schedule whose chunks are whole lines.
#pragma once

#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

struct ParallelLoop {
  std::size_t scope = 0;
  std::string function;
  ir::SourceLoc loc;
  std::int64_t trips = 0;  // with the bindings applied
  std::int64_t chunk = 0;  // Scope::scheduleChunk: 0 contiguous blocks, c > 0 schedule(static, c)
};

/// The parallel loops of "contexts" not nested in another parallel loop whose schedule is static
/// and whose trip count is a number with "bindings" applied.
std::vector<ParallelLoop> parallelLoops(const Trace& contexts, const std::map<std::string, std::int64_t>& bindings);

/// Whether "symbol" stands for a value of omp_get_thread_num() (the frontend's unknown for it).
bool isThreadNumber(const sym::Context& context, const sym::Symbol& symbol);

/// Whether the offset of some access to "container" carries an omp_get_thread_num() value.
bool indexedByThread(const Trace& contexts, std::size_t container);

/// The thread running an iteration of "loop" on "threads" threads, as an expression in the
/// loop's iterator (the rule of cache::ownerThread, which the coherence model deals by).
sym::Expr threadOfIteration(const Trace& contexts, const ParallelLoop& loop, std::uint32_t threads);

/// "contexts" with every omp_get_thread_num() value in the offsets of the events under "loop"
/// replaced by threadOfIteration: what each thread's accesses are.
Trace threadNumbered(const Trace& contexts, const ParallelLoop& loop, std::uint32_t threads);

/// The 1-D array "container" whose accesses carry a thread number in their offset, spread so
/// that element k sits "factor" elements from the previous one (counts[tid] -> counts[tid * 8]):
/// its size, allocation and every access's offset (from its subscript) follow. nullopt (and
/// "why") when it is not such an array or an access reaches it without its subscript.
std::optional<Trace> threadDataSpread(const Trace& contexts, std::size_t container, std::int64_t factor, std::string* why = nullptr);

/// "contexts" with the loop scope "loop" dealt in chunks of "chunk" iterations.
Trace rescheduled(const Trace& contexts, std::size_t loop, std::int64_t chunk);

}  // namespace cats::trace
