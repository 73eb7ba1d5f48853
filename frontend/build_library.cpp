// String and memory routines (memcpy, strcpy, strlen, ... and their builtin and fortified
// forms) as loops of 8-byte word accesses over the bytes they cover. A length the analysis
// cannot know (the string behind a pointer) is an unknown with a warning.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"
#include "library_calls.hpp"

namespace cats::frontend {

namespace {

/* Bytes of string literal "e" including its terminator, if "e" is one. */
std::optional<long> literalBytes(const clang::Expr* e) {
  if (const auto* literal = clang::dyn_cast<clang::StringLiteral>(e->IgnoreParenImpCasts()))
    return static_cast<long>(literal->getByteLength() + literal->getCharByteWidth());
  return std::nullopt;
}

/* 8-byte words covering "bytes": bytes/8 when that is integral, else rounded up. */
sym::Expr wordsOf(const sym::Expr& bytes) {
  sym::Expr words = (bytes / 8).expand();
  if (words.integer_content().is_integer()) return words;
  return sym::idiv(bytes + 7, 8);
}

}  // namespace

/* Byte length of the string argument "arg" of "callee" + 1, unknown (with a warning) unless a literal. */
sym::Expr FunctionBuilder::stringBytes(const clang::CallExpr* c, unsigned arg, const std::string& callee) {
  if (auto bytes = literalBytes(c->getArg(arg))) return *bytes;
  std::string text = sourceText(c->getArg(arg));
  warn(c->getBeginLoc(), "length of the string '" + text + "' read by " + callee +
                             " is not known: its accesses cover an unknown number of bytes; the result is approximate");
  return freshUnknown("string_bytes", "bytes of the string " + text + " at " + loc(c->getBeginLoc()).str());
}

Value FunctionBuilder::memoryRoutine(const clang::CallExpr* c, const std::string& callee, const RoutineShape& shape) {
  std::vector<Value> args;
  for (const clang::Expr* arg : c->arguments()) args.push_back(eval(arg));
  if (args.size() < shape.minArguments) {
    warn(c->getBeginLoc(), callee + " with too few arguments is not modelled; the result is approximate");
    return Value::unknown();
  }
  ir::SourceLoc where = loc(c->getBeginLoc());
  auto count = [&](unsigned i) { return scalarOrUnknown(args[i], "bytes"); };
  std::map<unsigned, sym::Expr> strings;
  auto string = [&](unsigned i) {
    if (!strings.count(i)) strings[i] = stringBytes(c, i, callee);
    return strings[i];
  };
  sym::Expr previous;
  ir::Loop* loop = nullptr;
  std::vector<ir::Loop> loops;
  sym::Expr firstBytes = 0;
  for (std::size_t n = 0; n < shape.operands.size(); ++n) {
    const Operand& o = shape.operands[n];
    sym::Expr bytes;
    switch (o.extent) {
      case Extent::Bytes:
      case Extent::AtMost: bytes = count(o.countArg); break;
      case Extent::String: bytes = string(o.stringArg); break;
      case Extent::StringAtMost:
        if (auto literal = literalBytes(c->getArg(o.stringArg))) bytes = sym::minOf(*literal, count(o.countArg));
        else bytes = count(o.countArg);
        break;
    }
    if (n == 0) firstBytes = bytes;
    const Value& pointer = args[o.arg];
    if (pointer.kind != Value::Kind::Pointer) {
      if (!literalBytes(c->getArg(o.arg)))
        warn(c->getBeginLoc(), callee + " accesses '" + sourceText(c->getArg(o.arg)) +
                                   "', memory the analysis does not follow: those accesses are missing; the result is approximate");
      continue;
    }
    if (!loop || !previous.is_equal(bytes)) {
      ir::Loop fresh;
      fresh.loc = where;
      sym::Symbol word = state_.ctx.symbol("word", sym::SymbolKind::Iterator);
      fresh.iterator = word;
      fresh.iteratorName = word.get_name();
      fresh.start = 0;
      fresh.bound = wordsOf(bytes);
      fresh.step = 1;
      fresh.varying = {word};
      loops.push_back(std::move(fresh));
      loop = &loops.back();
      previous = bytes;
    }
    sym::Expr start = pointer.pointer.offset;
    if (o.afterString) start += string(o.arg) - 1;
    ir::Access a;
    a.container = pointer.pointer.container;
    a.mode = o.mode;
    a.offset = (start + 8 * *loop->iterator).expand();
    a.bytes = 8;
    a.name = pointer.pointer.name;
    a.field = pointer.pointer.field;
    a.text = callee + "(" + sourceText(c->getArg(o.arg)) + ")";
    a.loc = where;
    loop->body.push_back(ir::Node{std::move(a)});
  }
  if (!loops.empty())
    state_.diagnose(ir::Severity::Note, c->getBeginLoc(), callee + " is modelled as a loop of 8-byte words over its length");
  for (auto& l : loops) append(ir::Node{std::move(l)});
  switch (shape.result) {
    case RoutineShape::Result::None: return args.empty() ? Value::unknown() : args[0];
    case RoutineShape::Result::Length:
      if (auto bytes = sym::toInteger(firstBytes); bytes && shape.operands[0].extent == Extent::String) return Value::ofScalar(*bytes - 1);
      return Value::ofScalar(freshUnknown(callee, "result of " + callee));
    case RoutineShape::Result::PointerIntoFirst:
      if (args[0].kind != Value::Kind::Pointer) return Value::unknown();
      Value found = args[0];
      found.pointer.moveTo(found.pointer.offset + freshUnknown("offset_" + callee, "position found by " + callee + " at " + where.str()));
      return found;
  }
  return Value::unknown();
}

}  // namespace cats::frontend
