// The trace file: versioned JSON ("format": "cats-static-trace", "version": 3), documented
// field by field in docs/trace-format.md.
#pragma once

#include "tracer/trace.hpp"

#include <stdexcept>
#include <string>

namespace cats::trace {

inline constexpr int kTraceFormatVersion = 5;

class TraceFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The trace as JSON text (2-space indented, fields in a fixed order).
std::string writeTraceJson(const Trace& trace);
/// Reads what writeTraceJson wrote; throws TraceFormatError saying what is wrong.
Trace readTraceJson(const std::string& text);

}  // namespace cats::trace
