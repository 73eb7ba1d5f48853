// Text dump of the IR: one line per node, indented by nesting.
#include "ir/dump.hpp"

#include <sstream>

namespace cats::ir {

std::string comparisonText(Comparison c) {
  switch (c) {
    case Comparison::Less: return "<";
    case Comparison::LessEqual: return "<=";
    case Comparison::Greater: return ">";
    case Comparison::GreaterEqual: return ">=";
    case Comparison::NotEqual: return "!=";
  }
  return "<";
}

std::string describe(const Container& c) {
  std::string type = c.elementType;
  for (const auto& d : c.dims) type += "[" + sym::print(d) + "]";
  return type + ", " + std::to_string(c.elementBytes) + " B elements, " + sym::print(c.sizeBytes) + " B";
}

namespace {

class Dumper {
 public:
  explicit Dumper(const Program& p) : program_(p) {}

  std::string run() {
    for (const auto& g : program_.globals) out_ << "container " << g.name << " (" << toString(g.kind) << "): " << describe(g) << "\n";
    for (const auto& f : program_.functions) function(f);
    return out_.str();
  }

 private:
  const Program& program_;
  const Function* function_ = nullptr;
  std::ostringstream out_;

  std::string refName(const ContainerRef& ref) const {
    switch (ref.scope) {
      case ContainerRef::Scope::Global: return program_.globals.at(ref.index).name;
      case ContainerRef::Scope::Local: return function_->locals.at(ref.index).name;
      case ContainerRef::Scope::Parameter: return function_->params.at(ref.index).name;
    }
    return "?";
  }

  void function(const Function& f) {
    function_ = &f;
    out_ << "function " << f.name << "(";
    for (std::size_t i = 0; i < f.params.size(); ++i)
      out_ << (i ? ", " : "") << (f.params[i].isPointer ? "*" : "") << f.params[i].name;
    out_ << ") @ " << f.loc.str() << "\n";
    for (const auto& c : f.locals) out_ << "  local " << c.name << " (" << toString(c.kind) << "): " << describe(c) << "\n";
    block(f.body, 1);
  }

  void block(const Block& b, int depth) {
    for (const auto& n : b) node(n, depth);
  }

  void line(int depth, const std::string& text, const SourceLoc& loc) {
    out_ << std::string(2 * static_cast<std::size_t>(depth), ' ') << text << " @ " << loc.line << ":" << loc.column << "\n";
  }

  void node(const Node& n, int depth) {
    std::visit([&](const auto& v) { visit(v, depth); }, n.value);
  }

  void visit(const Access& a, int depth) {
    line(depth, std::string(toString(a.mode)) + " " + a.text + " -> " + refName(a.container) + " + " + sym::print(a.offset) +
                    " (" + std::to_string(a.bytes) + " B)", a.loc);
  }
  void visit(const Alloc& a, int depth) {
    line(depth, "alloc " + refName(a.container) + " = " + std::string(toString(a.function)) + "(" + sym::print(a.sizeBytes) + ")", a.loc);
  }
  void visit(const Free& f, int depth) { line(depth, "free " + refName(f.container), f.loc); }
  void visit(const Loop& l, int depth) {
    std::string head = l.isOpaque() ? "opaque loop (" + l.opaqueReason + ")"
                                    : "loop " + l.iteratorName + " = " + sym::print(l.start) + "; " + l.iteratorName + " " +
                                          comparisonText(l.comparison) + " " + sym::print(l.bound) + "; += " + sym::print(l.step);
    if (l.parallel) head += " [parallel]";
    for (const CarriedScalar& c : l.carried) head += " [carries " + c.name + ": " + std::string(toString(c.kind)) + "]";
    for (const Recurrence& r : l.recurrences)
      head += " [" + r.variable.get_name() + " = " + sym::print(r.start) + ", then " + sym::print(r.next) + "]";
    if (l.test.op != sym::ConditionOp::True) head += std::string(l.testAfterBody ? " [do while " : " [while ") + sym::print(l.test) + "]";
    line(depth, head, l.loc);
    if (!l.header.empty()) {
      out_ << std::string(2 * depth + 2, ' ') << "header:\n";
      block(l.header, depth + 2);
    }
    block(l.body, depth + 1);
  }
  void visit(const Branch& b, int depth) {
    line(depth, b.isConditionalExpression ? "select" : "branch", b.loc);
    for (const auto& arm : b.arms) {
      out_ << std::string(2 * depth + 2, ' ') << arm.label << " [" << sym::print(arm.condition) << "]:\n";
      block(arm.body, depth + 2);
    }
  }
  void visit(const Call& c, int depth) {
    std::string args;
    for (const auto& a : c.arguments) {
      if (!args.empty()) args += ", ";
      switch (a.kind) {
        case Argument::Kind::Scalar: args += sym::print(a.value); break;
        case Argument::Kind::Pointer: args += "&" + refName(a.container) + "+" + sym::print(a.value); break;
        case Argument::Kind::Unknown: args += "?"; break;
      }
    }
    line(depth, "call " + c.callee + "(" + args + ")", c.loc);
  }
  void visit(const ParallelRegion& p, int depth) {
    line(depth, "parallel region", p.loc);
    block(p.body, depth + 1);
  }
};

}  // namespace

std::string dump(const Program& program) { return Dumper(program).run(); }

}  // namespace cats::ir
