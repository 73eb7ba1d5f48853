// The accesses of a parallel loop cut into iterations, for the coherence model
// (cache/coherence.hpp): the program's stream walked in program order, each record of the loop
// put in the iteration it belongs to (issue 11, `review`'s false-sharing finding).
#pragma once

#include "cache/coherence.hpp"
#include "sim/program.hpp"
#include "sim/stream.hpp"
#include "tracer/trace.hpp"

#include <vector>

namespace cats::sim {

/// Every entry of the Loop scope "loop" of "contexts" (the trace "program" was concretised
/// from) as its iterations' accesses, in program order. Accesses to containers allocated inside
/// the loop (each thread has its own) and records the trace does not name are left out.
std::vector<std::vector<cache::Iteration>> parallelLoopIterations(const trace::Trace& contexts, const Program& program,
                                                                  StreamOptions options, std::size_t loop);

}  // namespace cats::sim
