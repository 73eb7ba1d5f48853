// Dinero IV "din" traces, one access per line: "<label> <hexaddr> [<hexsize>]". The label is r, w
// or i (or Dinero's 0 read, 1 write, 2 instruction fetch); hex with or without 0x; the size
// defaults to 4; blank lines and lines starting with '#' are ignored. Instruction fetches are
// counted and skipped: the simulator models data caches.
#pragma once

#include "cache/hierarchy.hpp"

#include <cstdint>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>

namespace cats::cache {

inline constexpr std::uint32_t kDinDefaultSize = 4;

class DinError : public std::runtime_error {
 public:
  DinError(std::size_t line, const std::string& problem);
  std::size_t line() const { return line_; }

 private:
  std::size_t line_;
};

struct DinRecord {
  bool isWrite = false;
  std::uint64_t address = 0;
  std::uint32_t size = kDinDefaultSize;
  std::size_t line = 0;  // 1-based line of the trace
};

/// Reads a din trace line by line; never holds more than one line.
class DinReader {
 public:
  explicit DinReader(std::istream& in) : in_(in) {}

  /// The next data access, or nothing at the end of the trace. Throws DinError.
  std::optional<DinRecord> next();
  std::uint64_t instructionFetches() const { return instructionFetches_; }

 private:
  std::istream& in_;
  std::string text_;
  std::size_t line_ = 0;
  std::uint64_t instructionFetches_ = 0;
};

struct DinReplay {
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
  std::uint64_t instructionFetches = 0;
};

/// Feed every data access of the din trace "in" to "hierarchy". Throws DinError.
DinReplay replayDin(std::istream& in, Hierarchy& hierarchy);

}  // namespace cats::cache
