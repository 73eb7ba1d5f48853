// The concrete event trace of a simulation as the C.A.T.S. runtime tracer writes it
// (`{"events": [...]}`, docs/cats-trace-format.md), so its viewer (cats-viz) can show a
// predicted trace.
#pragma once

#include "sim/event_trace.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <string>

namespace cats::report {

struct CatsTraceInput {
  const trace::Trace& trace;      // the calling-contexts trace the events refer to
  const sim::ConcreteTrace& events;
  std::uint64_t totalAccesses = 0;  // the program's accesses (the simulation's count), all of them
  std::size_t maxEvents = 0;        // the cap the export ran with
};

std::string catsTraceJson(const CatsTraceInput& in);

}  // namespace cats::report
