// Source rewriting for `cats-static review --fix-diff` (issue 11): the simple fixes written
// back into the C source, or the reason there is no simple fix. Clang stays inside the
// frontend; callers name statements and declarations by the locations the IR gives them.
#pragma once

#include "frontend/frontend.hpp"
#include "ir/ir.hpp"

#include <cstdint>
#include <string>
#include <variant>

namespace cats::frontend {

/// Swap what stands between the parentheses of two `for` statements of one perfect nest
/// (init; condition; increment): the loops change places, their bodies stay.
struct LoopHeaderSwap {
  ir::SourceLoc outer;  // where each `for` begins, as the IR's loops record it
  ir::SourceLoc inner;
};

/// Grow the last dimension of a constant-size array declaration: `a[N][M]` -> `a[N][M + 8]`.
struct LastDimensionGrowth {
  ir::SourceLoc declaration;  // the declared name, as the IR's containers record it
  std::int64_t elements = 0;
};

using SourceRewrite = std::variant<LoopHeaderSwap, LastDimensionGrowth>;

struct RewrittenSource {
  std::string file;       // as the locations name it
  std::string original;   // its text
  std::string rewritten;  // the text with the rewrite applied (when "reason" is empty)
  std::string reason;     // non-empty: no rewrite, and why (one line)
};

/// Parses the file "rewrite" names with the flags of "options" (-I, -D) and applies the
/// rewrite when it is plainly correct: a loop swap only for a perfect nest of `for` loops with
/// complete headers written outside macros and no OpenMP directive on them; a growth only for
/// a variable declared once, without initialiser, as a constant-size array of two or more
/// dimensions whose last size is written outside a macro's brackets. Anything else: a reason.
RewrittenSource rewriteSource(const Options& options, const SourceRewrite& rewrite);

}  // namespace cats::frontend
