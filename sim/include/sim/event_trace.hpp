// The concrete event sequence of a program for the bound sizes: allocations, frees, scope
// entries and exits, and every access with its address, in program order — what the C.A.T.S.
// runtime tracer records when the program runs (docs/cats-trace-format.md) — up to a cap.
#pragma once

#include "sim/program.hpp"
#include "sim/stream.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <vector>

namespace cats::sim {

struct ConcreteEvent {
  enum class Kind : std::uint8_t { Allocation, Deallocation, Access, ScopeEntry, ScopeExit };
  Kind kind = Kind::Access;
  std::size_t traceEvent = 0;   // Allocation, Deallocation, Access: the trace event (a calloc's zeroing: the allocation's)
  std::size_t scope = 0;        // ScopeEntry, ScopeExit: the trace scope; else the scope the event runs in
  std::uint32_t container = 0;  // Allocation, Deallocation, Access
  std::uint64_t base = 0;       // the container's address when allocated (the C.A.T.S. buffer id)
  std::uint64_t offset = 0;     // Access: bytes from "base"
  std::uint64_t bytes = 0;      // Access: bytes accessed; Allocation: bytes allocated
  bool write = false;
  bool implicit = false;  // Allocation: made up at the first access of a container with no allocation event (parameters, pointees)
};

struct ConcreteTrace {
  std::vector<ConcreteEvent> events;
  std::uint64_t accesses = 0;  // access events among "events"
  bool truncated = false;      // the cap stopped the walk before the program's end
};

/// The events of "program" (concretised from "contexts") in program order: at most "maxEvents"
/// (>= 1), then the exits of the scopes still open, so that entries and exits stay paired. The
/// stream runs on its plain path, one record at a time ("options"' observer and fast paths are
/// replaced), so that scopes and accesses interleave exactly.
ConcreteTrace concreteEvents(const trace::Trace& contexts, const Program& program, StreamOptions options, std::size_t maxEvents);

}  // namespace cats::sim
