// The trace reader fuzz target: any text is either a TraceFormatError or a trace that writes
// back to JSON which reads again into the same trace.
#include "entries.hpp"

#include "tracer/trace_json.hpp"

#include <cstdlib>
#include <string>

namespace cats::fuzz {

int traceReaderOne(const std::uint8_t* data, std::size_t size) {
  trace::Trace trace;
  try {
    trace = trace::readTraceJson(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const trace::TraceFormatError&) {
    return 0;
  }
  std::string json = trace::writeTraceJson(trace);
  std::string again = trace::writeTraceJson(trace::readTraceJson(json));
  if (again != json) std::abort();  // written once, the trace is a fixed point
  return 0;
}

}  // namespace cats::fuzz
