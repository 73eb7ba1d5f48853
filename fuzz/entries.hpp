// The fuzz entry points, one per target: the libFuzzer programs (CATS_FUZZ=ON) and the test
// suite's replay of fuzz/corpus and fuzz/regressions call the same functions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cats::fuzz {

/// Bytes as a C file through frontend, tracer, analysis reports and, when the trace binds with
/// every parameter small, a short simulation. Always returns 0; a bug shows as a crash.
int frontendOne(const std::uint8_t* data, std::size_t size);

/// Bytes as a trace JSON file; what parses is written back and read again.
int traceReaderOne(const std::uint8_t* data, std::size_t size);

/// Bytes as a compiler's optimisation report (--compile-cmd): read twice, the same both times.
int reportParserOne(const std::uint8_t* data, std::size_t size);

}  // namespace cats::fuzz
