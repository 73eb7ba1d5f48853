// Calls: allocation functions, free, memory routines, library functions, and calls to
// analysed functions (an IR Call node; the tracer binds the arguments).
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

#include <set>

namespace cats::frontend {

using clang::dyn_cast;

namespace {

/* Library functions that touch no memory the program owns (apart from their arguments' values). */
bool isPureLibraryFunction(const std::string& name) {
  static const std::set<std::string> names = {
      "sqrt", "sqrtf", "exp", "expf", "log", "logf", "log2", "log10", "sin", "sinf", "cos", "cosf", "tan", "atan", "atan2",
      "pow", "powf", "fabs", "fabsf", "abs", "labs", "llabs", "floor", "ceil", "round", "fmin", "fmax", "fma", "tanh", "erf",
      "printf", "fprintf", "puts", "putchar", "rand", "srand", "time", "clock", "exit", "abort", "atoi", "atol", "atof",
      "strtol", "strtod", "__assert_fail", "assert", "omp_get_thread_num", "omp_get_num_threads", "omp_get_wtime"};
  return names.count(name) != 0;
}

/* Whether a call of "name" with "args" arguments is a C allocation. With another argument count
   (an implicitly declared posix_memalign, a program's own malloc) it is an ordinary call, since
   allocation() reads the arguments the C function has. */
bool isAllocation(const std::string& name, unsigned args) {
  if (name == "malloc") return args == 1;
  if (name == "calloc" || name == "realloc" || name == "aligned_alloc") return args == 2;
  if (name == "posix_memalign") return args == 3;
  return false;
}

}  // namespace

clang::QualType FunctionBuilder::allocatedElementType(const clang::CallExpr* c) {
  clang::QualType element = ast_.CharTy;
  clang::DynTypedNode node = clang::DynTypedNode::create(*static_cast<const clang::Stmt*>(c));
  for (int depth = 0; depth < 4; ++depth) {
    auto parents = ast_.getParents(node);
    if (parents.empty()) break;
    const auto* cast = parents[0].get<clang::CastExpr>();
    if (!cast) break;
    if (cast->getType()->isPointerType() && !cast->getType()->getPointeeType()->isVoidType())
      element = cast->getType()->getPointeeType();
    node = parents[0];
  }
  return element;
}

Value FunctionBuilder::call(const clang::CallExpr* c, const std::string& nameHint) {
  const clang::FunctionDecl* callee = c->getDirectCallee();
  if (!callee) {
    for (const clang::Expr* arg : c->arguments()) eval(arg);
    warn(c->getBeginLoc(), "call through a function pointer is not followed: its memory accesses are missing; the result is approximate");
    return Value::unknown();
  }
  std::string name = callee->getNameAsString();
  if (isAllocation(name, c->getNumArgs())) return allocation(c, name, nameHint);
  if (name == "free") {
    deallocation(c);
    return Value::unknown();
  }
  if (name == "memset" || name == "memcpy" || name == "memmove") {
    memoryRoutine(c, name);
    return Value::unknown();
  }
  bool external = !callee->hasBody() && (state_.isSystem(callee->getLocation()) || callee->getBuiltinID() != 0);
  if (external || isPureLibraryFunction(name)) {
    bool passesMemory = false;
    for (const clang::Expr* arg : c->arguments()) passesMemory |= eval(arg).kind == Value::Kind::Pointer && !isPureLibraryFunction(name);
    if (passesMemory)
      warn(c->getBeginLoc(), "library function '" + name + "' receives a pointer to analysed memory; its accesses are not modelled");
    return c->getType()->isIntegralOrEnumerationType() ? Value::ofScalar(freshUnknown(name, "result of " + name)) : Value::unknown();
  }
  ir::Call node;
  node.callee = name;
  node.loc = loc(c->getBeginLoc());
  for (const clang::Expr* arg : c->arguments()) {
    Value v = eval(arg);
    ir::Argument a;
    switch (v.kind) {
      case Value::Kind::Scalar: a.kind = ir::Argument::Kind::Scalar; a.value = v.scalar; break;
      case Value::Kind::Pointer: a.kind = ir::Argument::Kind::Pointer; a.value = v.pointer.offset; a.container = v.pointer.container; break;
      case Value::Kind::Unknown: a.kind = ir::Argument::Kind::Unknown; break;
    }
    node.arguments.push_back(std::move(a));
  }
  append(ir::Node{std::move(node)});
  return c->getType()->isIntegralOrEnumerationType() ? Value::ofScalar(freshUnknown(name, "result of " + name)) : Value::unknown();
}

Value FunctionBuilder::allocation(const clang::CallExpr* c, const std::string& callee, const std::string& nameHint) {
  ir::Alloc alloc;
  alloc.loc = loc(c->getBeginLoc());
  auto arg = [&](unsigned i) { return scalarOrUnknown(eval(c->getArg(i)), "size"); };
  clang::QualType element;
  std::string name = nameHint;
  if (callee == "malloc") {
    alloc.function = ir::AllocFunction::Malloc;
    alloc.sizeBytes = arg(0);
  } else if (callee == "calloc") {
    alloc.function = ir::AllocFunction::Calloc;
    alloc.sizeBytes = arg(0) * arg(1);
  } else if (callee == "aligned_alloc") {
    alloc.function = ir::AllocFunction::AlignedAlloc;
    auto alignment = sym::toInteger(arg(0));
    alloc.alignment = alignment.value_or(16);
    alloc.sizeBytes = arg(1);
  } else if (callee == "realloc") {
    alloc.function = ir::AllocFunction::Realloc;
    Value old = eval(c->getArg(0));
    if (old.kind == Value::Kind::Pointer) alloc.reallocFrom = old.pointer.container;
    alloc.sizeBytes = arg(1);
  } else {
    alloc.function = ir::AllocFunction::PosixMemalign;
    auto alignment = sym::toInteger(arg(1));
    alloc.alignment = alignment.value_or(16);
    alloc.sizeBytes = arg(2);
    const auto* addr = dyn_cast<clang::UnaryOperator>(c->getArg(0)->IgnoreParenCasts());
    const clang::VarDecl* var = addr && addr->getOpcode() == clang::UO_AddrOf ? registerVariable(addr->getSubExpr()) : nullptr;
    if (var) {
      name = var->getNameAsString();
      element = var->getType()->getPointeeType();
    }
  }
  if (element.isNull()) element = allocatedElementType(c);
  if (name.empty()) name = "heap_" + std::to_string(alloc.loc.line);
  auto noVla = [&](const clang::Expr* e) { return scalarOrUnknown(eval(e), "extent"); };
  ir::Container container = describeContainer(name, ir::ContainerKind::Heap, element.isNull() || element->isVoidType() ? ast_.CharTy : element,
                                              ast_, noVla, state_.ctx);
  container.dims.clear();
  container.isScalar = false;
  container.sizeBytes = alloc.sizeBytes;
  container.alignment = alloc.alignment;
  container.loc = alloc.loc;
  alloc.container = ir::ContainerRef{ir::ContainerRef::Scope::Local, addLocal(std::move(container))};
  ir::ContainerRef target = alloc.container;
  append(ir::Node{std::move(alloc)});
  if (callee == "posix_memalign") {
    const auto* addr = dyn_cast<clang::UnaryOperator>(c->getArg(0)->IgnoreParenCasts());
    if (const clang::VarDecl* var = addr ? registerVariable(addr->getSubExpr()) : nullptr)
      env_[var] = Value::ofPointer(PointerValue{target, 0, var->getNameAsString()});
    return Value::ofScalar(0);
  }
  return Value::ofPointer(PointerValue{target, 0, name});
}

void FunctionBuilder::deallocation(const clang::CallExpr* c) {
  if (c->getNumArgs() != 1) return;
  Value v = eval(c->getArg(0));
  if (v.kind == Value::Kind::Pointer) append(ir::Node{ir::Free{v.pointer.container, loc(c->getBeginLoc())}});
}

void FunctionBuilder::memoryRoutine(const clang::CallExpr* c, const std::string& callee) {
  if (c->getNumArgs() != 3) return;
  Value destination = eval(c->getArg(0));
  Value source = callee == "memset" ? Value::unknown() : eval(c->getArg(1));
  sym::Expr bytes = scalarOrUnknown(eval(c->getArg(2)), "bytes");
  ir::Loop loop;
  loop.loc = loc(c->getBeginLoc());
  sym::Symbol word = state_.ctx.symbol("word", sym::SymbolKind::Iterator);
  loop.iterator = word;
  loop.iteratorName = word.get_name();
  loop.start = 0;
  loop.bound = sym::idiv(bytes, 8);
  loop.step = 1;
  loop.varying = {word};
  auto access = [&](const Value& v, ir::AccessMode mode) {
    if (v.kind != Value::Kind::Pointer) return;
    ir::Access a;
    a.container = v.pointer.container;
    a.mode = mode;
    a.offset = (v.pointer.offset + 8 * word).expand();
    a.bytes = 8;
    a.name = v.pointer.name;
    a.text = callee + "(" + sourceText(c->getArg(mode == ir::AccessMode::Read ? 1 : 0)) + ")";
    a.loc = loop.loc;
    loop.body.push_back(ir::Node{std::move(a)});
  };
  access(source, ir::AccessMode::Read);
  access(destination, ir::AccessMode::Write);
  state_.diagnose(ir::Severity::Note, c->getBeginLoc(), callee + " is modelled as a loop of 8-byte words over its length");
  append(ir::Node{std::move(loop)});
}

}  // namespace cats::frontend
