// Numbers on the command line (-D NAME=VALUE, --param NAME=VALUE): parsed once, here, with C's
// integer literal syntax, so every later stage receives a typed value.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cats::driver {

/// "text" as a C integer constant expression: literals in decimal, hex (0x), octal (leading 0)
/// or binary (0b) with optional u/l suffixes, unary + - ~, binary * / % + - << >> & ^ |, and
/// parentheses. Nothing else (no names): nullopt, also on overflow or division by zero.
std::optional<std::int64_t> parseInteger(std::string_view text);

}  // namespace cats::driver
