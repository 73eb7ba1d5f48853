// Escaping and number formatting shared by the HTML sections.
#include "parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace cats::report::html {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(std::uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string bytes(double value) {
  constexpr std::array<const char*, 5> kUnits{"B", "KiB", "MiB", "GiB", "TiB"};
  std::size_t unit = 0;
  while (value >= 1024 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", value) : fmt::format("{:.1f} {}", value, kUnits[unit]);
}

std::string heat(double fraction) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  // White through orange to a light red that black text stays readable on; the square root lifts small values above "nothing".
  double f = std::sqrt(fraction);
  int g = static_cast<int>(std::lround(255 - 150 * f));
  int b = static_cast<int>(std::lround(255 - 170 * f));
  return fmt::format("rgb(255,{},{})", g, b);
}

std::string coord(double value) {
  std::string text = fmt::format("{:.2f}", value);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

}  // namespace cats::report::html
