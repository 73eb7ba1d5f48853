// GCC's -fopt-info and Clang's -R remark lines into ReportedDecisions. The text comes from a
// program the user named, so every line is read defensively: a line that does not have the
// shape "FILE:LINE[:COL]: KIND: MESSAGE" with a message we know is skipped, never an error.
#include "sim/compiler_report.hpp"

#include <charconv>
#include <optional>

namespace cats::sim {

std::vector<std::string> reportFlags(CompilerKind kind) {
  if (kind == CompilerKind::Gcc)
    return {"-fopt-info-vec-optimized", "-fopt-info-vec-missed", "-fopt-info-inline-optimized", "-fopt-info-inline-missed",
            "-fdiagnostics-color=never"};
  return {"-Rpass=loop-vectorize|slp-vectorizer|inline", "-Rpass-missed=loop-vectorize|inline", "-fno-caret-diagnostics", "-fno-color-diagnostics"};
}

namespace {

/* One report line cut at its position and kind. */
struct Line {
  ir::SourceLoc loc;
  std::string_view kind;     // "optimized", "missed", "remark", "note", ...
  std::string_view message;  // after "KIND: ", leading blanks dropped
};

std::optional<unsigned> number(std::string_view text) {
  unsigned value = 0;
  if (text.empty() || text.size() > 9) return std::nullopt;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string_view trimLeft(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

/* "FILE:LINE:COL" or "FILE:LINE" of "position" into "loc"; false when it has no line number
   or a part that looks like one does not read as one (":12:3", "k.c:99999999999:3"). */
bool readPosition(std::string_view position, ir::SourceLoc& loc) {
  auto colon = position.rfind(':');
  if (colon == std::string_view::npos) return false;
  auto last = number(position.substr(colon + 1));
  if (!last) return false;
  std::string_view rest = position.substr(0, colon);
  auto colon2 = rest.rfind(':');
  std::string_view tail = colon2 == std::string_view::npos ? rest : rest.substr(colon2 + 1);
  bool digits = !tail.empty() && tail.find_first_not_of("0123456789") == std::string_view::npos;
  if (!digits) {
    if (rest.empty()) return false;
    loc = {std::string(rest), *last, 0};
    return true;
  }
  auto line = number(tail);
  if (!line || colon2 == std::string_view::npos || colon2 == 0) return false;
  loc = {std::string(rest.substr(0, colon2)), *line, *last};
  return true;
}

/* The line cut at the first ": KIND: " whose left side is a position; nullopt for other lines. */
std::optional<Line> cutLine(std::string_view text) {
  for (std::size_t from = 0;;) {
    auto sep = text.find(": ", from);
    if (sep == std::string_view::npos) return std::nullopt;
    auto kindEnd = text.find(": ", sep + 2);
    if (kindEnd == std::string_view::npos) return std::nullopt;
    std::string_view kind = text.substr(sep + 2, kindEnd - sep - 2);
    Line line;
    if ((kind == "optimized" || kind == "missed" || kind == "remark" || kind == "note") && readPosition(text.substr(0, sep), line.loc)) {
      line.kind = kind;
      line.message = trimLeft(text.substr(kindEnd + 2));
      return line;
    }
    from = sep + 2;
  }
}

bool startsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

/* The integer right after "label" in "text" (0 when absent). */
int numberAfter(std::string_view text, std::string_view label) {
  auto at = text.find(label);
  if (at == std::string_view::npos) return 0;
  std::string_view rest = text.substr(at + label.size());
  std::size_t digits = 0;
  while (digits < rest.size() && digits < 6 && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  return static_cast<int>(number(rest.substr(0, digits)).value_or(0));
}

/* GCC's symbol name "multiply.constprop.0/12" as the source names it: "multiply". */
std::string sourceName(std::string_view symbol) {
  symbol = symbol.substr(0, symbol.find('/'));
  return std::string(symbol.substr(0, symbol.find('.')));
}

/* The text between the first two quotes after "from" ('callee' in Clang's remarks). */
std::optional<std::string_view> quoted(std::string_view text, std::size_t& from) {
  auto open = text.find('\'', from);
  if (open == std::string_view::npos) return std::nullopt;
  auto close = text.find('\'', open + 1);
  if (close == std::string_view::npos) return std::nullopt;
  from = close + 1;
  return text.substr(open + 1, close - open - 1);
}

/* A call line, unless it names no callee (a line cut in the wrong places). */
void addCall(ReportedDecisions& into, const ir::SourceLoc& loc, std::string caller, std::string callee, bool inlined, std::string_view text) {
  if (callee.empty()) return;
  into.calls.push_back({loc, std::move(caller), std::move(callee), inlined, std::string(text)});
}

ReportedLoop loopAt(const Line& line, std::string_view text) {
  ReportedLoop loop;
  loop.loc = line.loc;
  loop.text = std::string(text);
  return loop;
}

/* GCC 12: "loop vectorized using 16 byte vectors", " loop versioned for vectorization because
   of possible aliasing", "couldn't vectorize loop", "basic block part vectorized using 16 byte
   vectors" (SLP, at a statement); "Inlining f/3 into main/7.", "Inlined f/3
   into main/7 which now has ...", "not inlinable: main/7 -> f/3, REASON". */
void readGcc(const Line& line, std::string_view text, ReportedDecisions& into) {
  std::string_view m = line.message;
  if (line.kind == "optimized" && startsWith(m, "loop vectorized using ")) {
    ReportedLoop loop = loopAt(line, text);
    loop.vectorized = true;
    loop.vectorBytes = numberAfter(m, "using ");
    loop.saysVersioning = true;
    into.loops.push_back(std::move(loop));
  } else if (line.kind == "optimized" && startsWith(m, "loop versioned for vectorization")) {
    ReportedLoop loop = loopAt(line, text);
    loop.vectorized = true;
    loop.versioned = loop.saysVersioning = true;
    into.loops.push_back(std::move(loop));
  } else if (line.kind == "optimized" && startsWith(m, "basic block part vectorized using ")) {
    ReportedLoop statement = loopAt(line, text);
    statement.straightLine = true;
    statement.vectorBytes = numberAfter(m, "using ");
    into.loops.push_back(std::move(statement));
  } else if (line.kind == "missed" && startsWith(m, "couldn't vectorize loop")) {
    ReportedLoop loop = loopAt(line, text);
    loop.saysVersioning = true;
    into.loops.push_back(std::move(loop));
  } else if (line.kind == "optimized" && (startsWith(m, "Inlining ") || startsWith(m, "Inlined "))) {
    std::string_view rest = m.substr(m.find(' ') + 1);
    auto into_ = rest.find(" into ");
    if (into_ == std::string_view::npos || into_ == 0) return;
    std::string_view caller = rest.substr(into_ + 6);
    caller = caller.substr(0, caller.find_first_of(" ."));
    addCall(into, line.loc, sourceName(caller), sourceName(rest.substr(0, into_)), true, text);
  } else if (line.kind == "missed" && startsWith(m, "not inlinable: ")) {
    std::string_view edge = m.substr(15);
    auto arrow = edge.find(" -> ");
    if (arrow == std::string_view::npos || arrow == 0) return;
    std::string_view callee = edge.substr(arrow + 4);
    addCall(into, line.loc, sourceName(edge.substr(0, arrow)), sourceName(callee.substr(0, callee.find(','))), false, text);
  }
}

/* Clang 14: "vectorized loop (vectorization width: 4, interleaved count: 2)", "interleaved loop
   (interleaved count: 2)", "loop not vectorized...", "the cost-model indicates that vectorization
   is not beneficial", "Stores SLP vectorized with cost -3 and with tree size 4" (at a statement);
   "'f' inlined into 'main' with (cost=...)", "'f' not inlined into 'main'
   because ...". */
void readClang(const Line& line, std::string_view text, ReportedDecisions& into) {
  std::string_view m = line.message;
  if (startsWith(m, "vectorized loop")) {
    ReportedLoop loop = loopAt(line, text);
    loop.vectorized = true;
    loop.vectorFactor = numberAfter(m, "vectorization width: ");
    loop.interleave = numberAfter(m, "interleaved count: ");
    into.loops.push_back(std::move(loop));
  } else if (startsWith(m, "interleaved loop")) {
    ReportedLoop loop = loopAt(line, text);
    loop.vectorFactor = 1;
    loop.interleave = numberAfter(m, "interleaved count: ");
    into.loops.push_back(std::move(loop));
  } else if (m.find("SLP vectorized with cost") != std::string_view::npos || startsWith(m, "Vectorized horizontal reduction")) {
    ReportedLoop statement = loopAt(line, text);
    statement.straightLine = true;
    into.loops.push_back(std::move(statement));
  } else if (startsWith(m, "loop not vectorized") || startsWith(m, "the cost-model indicates that vectorization is not beneficial")) {
    into.loops.push_back(loopAt(line, text));
  } else if (startsWith(m, "'")) {
    std::size_t at = 0;
    auto callee = quoted(m, at);
    if (!callee || callee->empty()) return;
    std::string_view rest = m.substr(at);
    bool inlined = startsWith(rest, " inlined into ");
    if (!inlined && !startsWith(rest, " not inlined into ")) return;
    auto caller = quoted(m, at);
    if (!caller) return;
    addCall(into, line.loc, std::string(*caller), std::string(*callee), inlined, text);
  }
}

}  // namespace

void parseCompilerReport(std::string_view text, ReportedDecisions& into) {
  while (!text.empty()) {
    auto end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    auto line = cutLine(raw);
    if (!line) continue;
    if (line->kind == "remark") readClang(*line, raw, into);
    else readGcc(*line, raw, into);
  }
}

}  // namespace cats::sim
