// Text forms of a level's geometry: Cachegrind's "size,assoc,line" and byte sizes with units.
#include "cache/config.hpp"

#include <cctype>
#include <charconv>
#include <limits>

namespace cats::cache {

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/* The multiplier of a unit suffix ("", "b", "k", "kb", "kib", ... "gib"), or 0 if unknown. */
std::uint64_t unitMultiplier(std::string_view unit) {
  std::string u = lower(unit);
  if (u.empty() || u == "b") return 1;
  if (u == "k" || u == "kb" || u == "kib") return std::uint64_t{1} << 10;
  if (u == "m" || u == "mb" || u == "mib") return std::uint64_t{1} << 20;
  if (u == "g" || u == "gb" || u == "gib") return std::uint64_t{1} << 30;
  return 0;
}

/* The whole decimal number "text" (digits only) if it fits in "T". */
template <class T>
std::optional<T> decimal(std::string_view text) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

Parsed<std::uint64_t> parseByteSize(std::string_view text) {
  std::string_view t = trim(text);
  std::size_t digits = 0;
  while (digits < t.size() && (std::isdigit(static_cast<unsigned char>(t[digits])) || t[digits] == '.')) ++digits;
  std::string_view number = t.substr(0, digits);
  std::uint64_t multiplier = unitMultiplier(trim(t.substr(digits)));
  std::string quoted = "\"" + std::string(text) + "\"";
  if (number.empty()) return {std::nullopt, "size " + quoted + " does not start with a number"};
  if (multiplier == 0) return {std::nullopt, "size " + quoted + " has an unknown unit (use B, K/KiB, M/MiB or G/GiB)"};
  std::size_t dot = number.find('.');
  std::string_view whole = number.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : number.substr(dot + 1);
  if (whole.empty() || (dot != std::string_view::npos && fraction.empty()) || fraction.find('.') != std::string_view::npos)
    return {std::nullopt, "size " + quoted + " is not a number"};
  if (fraction.size() > 9) return {std::nullopt, "size " + quoted + " has more than 9 decimals"};
  auto w = decimal<std::uint64_t>(whole);
  auto f = fraction.empty() ? std::optional<std::uint64_t>(0) : decimal<std::uint64_t>(fraction);
  if (!w || !f) return {std::nullopt, "size " + quoted + " is too large"};
  unsigned __int128 scale = 1;
  for (std::size_t i = 0; i < fraction.size(); ++i) scale *= 10;
  unsigned __int128 scaled = (static_cast<unsigned __int128>(*w) * scale + *f) * multiplier;
  if (scaled % scale != 0) return {std::nullopt, "size " + quoted + " is not a whole number of bytes"};
  unsigned __int128 bytes = scaled / scale;
  if (bytes > std::numeric_limits<std::uint64_t>::max()) return {std::nullopt, "size " + quoted + " is too large"};
  return {static_cast<std::uint64_t>(bytes), {}};
}

std::string formatByteSize(std::uint64_t bytes) {
  if (bytes != 0 && bytes % (std::uint64_t{1} << 30) == 0) return std::to_string(bytes >> 30) + "GiB";
  if (bytes != 0 && bytes % (std::uint64_t{1} << 20) == 0) return std::to_string(bytes >> 20) + "MiB";
  if (bytes != 0 && bytes % (std::uint64_t{1} << 10) == 0) return std::to_string(bytes >> 10) + "KiB";
  return std::to_string(bytes);
}

Parsed<LevelConfig> parseGeometry(std::string_view text, std::string name) {
  std::string where = name.empty() ? std::string("geometry") : name;
  std::string_view fields[3];
  std::string_view rest = text;
  for (int i = 0; i < 3; ++i) {
    std::size_t comma = rest.find(',');
    if ((i < 2) == (comma == std::string_view::npos))
      return {std::nullopt, where + ": expected size,associativity,line (e.g. 32768,8,64), got \"" + std::string(text) + "\""};
    fields[i] = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  Parsed<std::uint64_t> size = parseByteSize(fields[0]);
  if (!size.value) return {std::nullopt, where + ": " + size.error};
  auto assoc = decimal<std::uint32_t>(fields[1]);
  if (!assoc) return {std::nullopt, where + ": associativity \"" + std::string(fields[1]) + "\" is not a whole number"};
  auto line = decimal<std::uint32_t>(fields[2]);
  if (!line) return {std::nullopt, where + ": line size \"" + std::string(fields[2]) + "\" is not a whole number"};
  LevelConfig level;
  level.name = std::move(name);
  level.sizeBytes = *size.value;
  level.associativity = *assoc;
  level.lineBytes = *line;
  return {std::move(level), {}};
}

}  // namespace cats::cache
