#include "cache/din.hpp"

#include <charconv>
#include <limits>
#include <vector>

namespace cats::cache {

namespace {

enum class Label { Read, Write, InstructionFetch };

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

std::vector<std::string_view> fieldsOf(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isBlank(text[i])) ++i;
    std::size_t start = i;
    while (i < text.size() && !isBlank(text[i])) ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

Label labelOf(std::string_view field, std::size_t line) {
  if (field == "r" || field == "R" || field == "0") return Label::Read;
  if (field == "w" || field == "W" || field == "1") return Label::Write;
  if (field == "i" || field == "I" || field == "2") return Label::InstructionFetch;
  if (field == "3" || field == "4") throw DinError(line, "label " + std::string(field) + " (a Dinero escape record) is not supported");
  throw DinError(line, "unknown label \"" + std::string(field) + "\" (expected r, w, i, 0, 1 or 2)");
}

/* The hexadecimal number "field" (with or without 0x), called "what" in messages. */
std::uint64_t hexOf(std::string_view field, std::string_view what, std::size_t line) {
  std::string_view digits = field;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
  if (ec == std::errc::result_out_of_range)
    throw DinError(line, std::string(what) + " \"" + std::string(field) + "\" does not fit in 64 bits");
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
    throw DinError(line, std::string(what) + " \"" + std::string(field) + "\" is not a hexadecimal number");
  return value;
}

}  // namespace

DinError::DinError(std::size_t line, const std::string& problem)
    : std::runtime_error("line " + std::to_string(line) + ": " + problem), line_(line) {}

std::optional<DinRecord> DinReader::next() {
  while (std::getline(in_, text_)) {
    ++line_;
    std::vector<std::string_view> fields = fieldsOf(text_);
    if (fields.empty() || fields[0].front() == '#') continue;
    if (fields.size() < 2) throw DinError(line_, "expected <label> <address> [<size>], found no address");
    if (fields.size() > 3) throw DinError(line_, "expected <label> <address> [<size>], found " + std::to_string(fields.size()) + " fields");
    Label label = labelOf(fields[0], line_);
    std::uint64_t address = hexOf(fields[1], "address", line_);
    std::uint64_t size = fields.size() == 3 ? hexOf(fields[2], "size", line_) : kDinDefaultSize;
    if (size == 0) throw DinError(line_, "size is zero");
    if (size > std::numeric_limits<std::uint32_t>::max()) throw DinError(line_, "size \"" + std::string(fields[2]) + "\" is too large");
    if (address > std::numeric_limits<std::uint64_t>::max() - size)
      throw DinError(line_, "the access runs past the end of the address space");
    if (label == Label::InstructionFetch) {
      ++instructionFetches_;
      continue;
    }
    return DinRecord{label == Label::Write, address, static_cast<std::uint32_t>(size), line_};
  }
  if (in_.bad()) throw DinError(line_ + 1, "the trace cannot be read");
  return std::nullopt;
}

DinReplay replayDin(std::istream& in, Hierarchy& hierarchy) {
  DinReader reader(in);
  DinReplay replay;
  Outcome outcome;
  while (std::optional<DinRecord> record = reader.next()) {
    hierarchy.access(record->address, record->size, record->isWrite, outcome);
    ++(record->isWrite ? replay.writes : replay.reads);
  }
  replay.instructionFetches = reader.instructionFetches();
  return replay;
}

}  // namespace cats::cache
