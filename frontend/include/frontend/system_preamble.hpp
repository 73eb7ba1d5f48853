// The part of a C file that a cached precompiled header can stand for (frontend/header_cache.cpp).
#pragma once

#include <cstddef>
#include <string_view>

namespace cats::frontend {

/// Bytes of "text" that are only blank lines, comments and `#include <...>` lines, up to the
/// end of the last such include line (a line start); 0 when there is none. A precompiled
/// preamble replaces exactly these bytes.
std::size_t systemIncludePreamble(std::string_view text);

}  // namespace cats::frontend
