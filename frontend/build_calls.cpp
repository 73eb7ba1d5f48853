// Calls: allocation functions, free, memory routines, library functions, and calls to
// analysed functions (an IR Call node; the tracer binds the arguments). Addresses of locals
// passed to analysed functions are stack slots; pointers a callee returns or stores through
// `&p` are call-site containers that link_allocations.cpp allocates when the callee is an
// allocation wrapper.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"
#include "library_calls.hpp"

#include <map>
#include <set>

namespace cats::frontend {

using clang::dyn_cast;

namespace {

/* glibc's malloc returns 16-byte aligned blocks: a smaller requested alignment gives 16. */
std::int64_t heapAlignment(std::optional<std::int64_t> requested) { return std::max<std::int64_t>(requested.value_or(16), 16); }

/* The local variable "e" takes the address of (`&x`, casts allowed), if any. */
const clang::VarDecl* addressedLocal(const clang::Expr* e) {
  const auto* addr = dyn_cast<clang::UnaryOperator>(e->IgnoreParenCasts());
  if (!addr || addr->getOpcode() != clang::UO_AddrOf) return nullptr;
  const auto* ref = dyn_cast<clang::DeclRefExpr>(addr->getSubExpr()->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && !var->hasGlobalStorage() && !var->getType()->isArrayType() && !var->getType()->isRecordType() ? var : nullptr;
}

/* Whether "callee" may write through its parameter "index" (a pointer to non-const, or unknown). */
bool mayWriteThrough(const clang::FunctionDecl* callee, unsigned index) {
  if (!callee || index >= callee->getNumParams()) return true;
  clang::QualType type = callee->getParamDecl(index)->getType();
  return !type->isPointerType() || !type->getPointeeType().isConstQualified();
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
  if (const clang::FunctionDecl* callee = c->getDirectCallee()) return directCall(c, *callee, nameHint);
  std::vector<const clang::FunctionDecl*> targets = callTargets(c);
  if (auto parameter = calledParameter(c); parameter && targets.empty()) return analysedCall(c, nullptr, "", nameHint, parameter);
  if (targets.empty()) {
    for (const clang::Expr* arg : c->arguments()) eval(arg);
    warn(c->getBeginLoc(), "call through a function pointer whose target is not known is not followed: its memory accesses are missing; the result is approximate");
    return Value::unknown();
  }
  if (targets.size() == 1) {
    state_.diagnose(ir::Severity::Note, c->getBeginLoc(), "call through a function pointer goes to " + targets[0]->getNameAsString());
    return directCall(c, *targets[0], nameHint);
  }
  return callOneOf(c, targets, nameHint);
}

/* A call through a pointer that may reach any of "targets": one branch arm per target. */
Value FunctionBuilder::callOneOf(const clang::CallExpr* c, const std::vector<const clang::FunctionDecl*>& targets,
                                 const std::string& nameHint) {
  ir::Branch branch;
  branch.loc = loc(c->getBeginLoc());
  std::string names;
  auto before = env_;
  std::vector<VarMap<Value>> after;
  std::vector<Value> values;
  ir::Block* saved = current_;
  for (const clang::FunctionDecl* target : targets) {
    std::string name = target->getNameAsString();
    names += (names.empty() ? "" : ", ") + name;
    env_ = before;
    ir::Arm arm{"calls " + name, sym::Condition::opaque(sourceText(c->getCallee()) + " == " + name), {}};
    current_ = &arm.body;
    values.push_back(directCall(c, *target, nameHint));
    current_ = saved;
    after.push_back(env_);
    branch.arms.push_back(std::move(arm));
  }
  mergeEnvironments(before, after, branch.loc);
  const std::string where = branch.loc.str();  // the branch is moved into the IR next
  append(ir::Node{std::move(branch)});
  warn(c->getBeginLoc(), "call through a function pointer may go to any of " + names +
                             ": traced as one branch arm per target; the result is approximate");
  bool same = std::all_of(values.begin(), values.end(), [&](const Value& v) { return v.sameAs(values[0]); });
  if (same) return values[0];
  return c->getType()->isIntegralOrEnumerationType() ? Value::ofScalar(freshUnknown("result", "result of the call at " + where))
                                                     : Value::unknown();
}

Value FunctionBuilder::directCall(const clang::CallExpr* c, const clang::FunctionDecl& callee, const std::string& nameHint) {
  std::string original = callee.getNameAsString();
  std::string name = canonicalCallee(original);
  if (returnsFirstArgument(original) && c->getNumArgs() > 0) {
    Value first = eval(c->getArg(0), nameHint);
    for (unsigned i = 1; i < c->getNumArgs(); ++i) eval(c->getArg(i));
    return first;
  }
  if (isAllocation(name)) return allocation(c, name, nameHint);
  if (name == "free") {
    deallocation(c);
    return Value::unknown();
  }
  if (auto shape = memoryRoutineShape(name)) {
    Value v = memoryRoutine(c, name, *shape);
    if (c->getType()->isIntegralOrEnumerationType() && v.kind != Value::Kind::Scalar)
      return Value::ofScalar(freshUnknown(name, "result of " + name));
    return v;
  }
  if (name == "alloca") {
    for (const clang::Expr* arg : c->arguments()) eval(arg);
    warn(c->getBeginLoc(), "alloca is not modelled: accesses through its result are missing; the result is approximate");
    return Value::unknown();
  }
  bool external = !callee.hasBody() && (state_.isSystem(callee.getLocation()) || callee.getBuiltinID() != 0);
  if (external || isPureLibraryFunction(name)) return libraryCall(c, name, callee);
  return analysedCall(c, &callee, name, nameHint, std::nullopt);
}

/* A library function: its arguments are evaluated; locals whose address it receives lose their value. */
Value FunctionBuilder::libraryCall(const clang::CallExpr* c, const std::string& name, const clang::FunctionDecl& callee) {
  bool passesMemory = false;
  for (unsigned i = 0; i < c->getNumArgs(); ++i) {
    const clang::Expr* arg = c->getArg(i);
    passesMemory |= eval(arg).kind == Value::Kind::Pointer && !isPureLibraryFunction(name);
    if (const clang::VarDecl* var = addressedLocal(arg); var && mayWriteThrough(&callee, i)) forgetValue(var, name, c);
  }
  if (passesMemory)
    warn(c->getBeginLoc(), "library function '" + name + "' receives a pointer to analysed memory; its accesses are not modelled");
  return c->getType()->isIntegralOrEnumerationType() ? Value::ofScalar(freshUnknown(name, "result of " + name)) : Value::unknown();
}

/* "var" may have been changed through its address by "callee": its value is unknown from here on. */
void FunctionBuilder::forgetValue(const clang::VarDecl* var, const std::string& callee, const clang::CallExpr* c) {
  if (!env_.count(var)) return;
  std::string name = var->getNameAsString();
  if (var->getType()->isIntegralOrEnumerationType())
    env_[var] = Value::ofScalar(freshUnknown(name, "value of " + name + " set through &" + name + " by " + callee + " at " + loc(c->getBeginLoc()).str()));
  else if (env_[var].kind != Value::Kind::Pointer)
    env_[var] = Value::unknown();
}

/* A container standing for memory a callee hands back (returned, or stored through `&p`). */
ir::ContainerRef FunctionBuilder::callSiteContainer(const std::string& name, clang::QualType element, const clang::CallExpr* c) {
  auto noVla = [&](const clang::Expr* e) { return scalarOrUnknown(eval(e), "extent"); };
  if (element.isNull() || element->isVoidType() || element->isIncompleteType()) element = ast_.CharTy;
  ir::Container container = describeContainer(name, ir::ContainerKind::Heap, element, ast_, noVla, state_.ctx);
  container.dims.clear();
  container.isScalar = false;
  container.sizeBytes = freshUnknown("size_" + name, "size of the memory " + name + " points to after the call at " + loc(c->getBeginLoc()).str());
  container.loc = loc(c->getBeginLoc());
  return ir::ContainerRef{ir::ContainerRef::Scope::Local, addLocal(std::move(container))};
}

Value FunctionBuilder::analysedCall(const clang::CallExpr* c, const clang::FunctionDecl* callee, const std::string& name,
                                    const std::string& nameHint, std::optional<std::size_t> throughParameter) {
  ir::Call node;
  node.callee = name;
  node.throughParameter = throughParameter;
  node.loc = loc(c->getBeginLoc());
  std::vector<const clang::VarDecl*> changed;
  std::vector<Value> values;
  for (unsigned i = 0; i < c->getNumArgs(); ++i) {
    const clang::Expr* arg = c->getArg(i);
    const clang::VarDecl* addressed = addressedLocal(arg);
    ir::Argument a;
    Value v = addressed ? addressOfLocal(addressed) : eval(arg);
    values.push_back(v);
    switch (v.kind) {
      case Value::Kind::Scalar: a.kind = ir::Argument::Kind::Scalar; a.value = v.scalar; break;
      case Value::Kind::Pointer: a.kind = ir::Argument::Kind::Pointer; a.value = v.pointer.offset; a.container = v.pointer.container; break;
      case Value::Kind::Unknown: a.kind = ir::Argument::Kind::Unknown; break;
    }
    a.function = passedFunction(arg);
    if (addressed && mayWriteThrough(callee, i)) {
      bool unsetPointer = addressed->getType()->isPointerType() && env_.count(addressed) && env_[addressed].kind == Value::Kind::Unknown;
      if (unsetPointer) {
        a.pointee = callSiteContainer(addressed->getNameAsString(), addressed->getType()->getPointeeType(), c);
        env_[addressed] = Value::ofPointer(PointerValue{*a.pointee, 0, addressed->getNameAsString()});
      } else {
        changed.push_back(addressed);
      }
    }
    node.arguments.push_back(std::move(a));
  }
  Value result = Value::unknown();
  if (c->getType()->isPointerType()) {
    std::string resultName = nameHint.empty() ? (name.empty() ? "call" : name) + "_result" : nameHint;
    clang::QualType element = allocatedElementType(c);
    if (element == ast_.CharTy) element = c->getType()->getPointeeType();
    node.result = callSiteContainer(resultName, element, c);
    result = Value::ofPointer(PointerValue{*node.result, 0, resultName});
  } else if (c->getType()->isIntegralOrEnumerationType()) {
    std::optional<sym::Expr> known = callee ? summarisedResult(*callee, values) : std::nullopt;
    result = Value::ofScalar(known ? *known : freshUnknown(name, "result of " + name));
  }
  append(ir::Node{std::move(node)});
  for (const clang::VarDecl* var : changed) forgetValue(var, name, c);
  return result;
}

/* `&var` for a local kept in a register: its stack slot when it has one (so the callee's accesses
   land in the caller's memory), else unknown. */
Value FunctionBuilder::addressOfLocal(const clang::VarDecl* var) {
  std::string name = var->getNameAsString();
  if (auto it = arrays_.find(var); it != arrays_.end()) return Value::ofPointer(PointerValue{it->second, 0, name});
  if (auto it = slots_.find(var); it != slots_.end()) return Value::ofPointer(PointerValue{it->second, 0, name});
  return Value::unknown();
}

Value FunctionBuilder::allocation(const clang::CallExpr* c, const std::string& callee, const std::string& nameHint) {
  static const std::map<std::string, unsigned> arity = {{"malloc", 1}, {"calloc", 2}, {"aligned_alloc", 2}, {"memalign", 2},
                                                        {"valloc", 1}, {"pvalloc", 1}, {"strdup", 1}, {"strndup", 2},
                                                        {"realloc", 2}, {"posix_memalign", 3}};
  if (c->getNumArgs() < arity.at(callee)) {
    for (const clang::Expr* arg : c->arguments()) eval(arg);
    warn(c->getBeginLoc(), callee + " with too few arguments is not modelled; the result is approximate");
    return Value::unknown();
  }
  ir::Alloc alloc;
  alloc.loc = loc(c->getBeginLoc());
  auto arg = [&](unsigned i) { return i < c->getNumArgs() ? scalarOrUnknown(eval(c->getArg(i)), "size") : freshUnknown("size", "missing argument"); };
  clang::QualType element;
  std::string name = nameHint;
  std::optional<Value> copiedFrom;
  if (callee == "malloc") {
    alloc.function = ir::AllocFunction::Malloc;
    alloc.sizeBytes = arg(0);
  } else if (callee == "calloc") {
    alloc.function = ir::AllocFunction::Calloc;
    alloc.sizeBytes = arg(0) * arg(1);
  } else if (callee == "aligned_alloc" || callee == "memalign") {
    alloc.function = ir::AllocFunction::AlignedAlloc;
    alloc.alignment = heapAlignment(sym::toInteger(arg(0)));
    alloc.sizeBytes = arg(1);
  } else if (callee == "valloc" || callee == "pvalloc") {
    alloc.function = ir::AllocFunction::AlignedAlloc;
    alloc.alignment = 4096;
    alloc.sizeBytes = callee == "valloc" ? arg(0) : sym::idiv(arg(0) + 4095, 4096) * 4096;
  } else if (callee == "strdup" || callee == "strndup") {
    alloc.function = ir::AllocFunction::Malloc;
    copiedFrom = eval(c->getArg(0));
    sym::Expr bytes = stringBytes(c, 0, callee);
    alloc.sizeBytes = callee == "strdup" ? bytes : sym::minOf(bytes, arg(1) + 1);
    element = ast_.CharTy;
  } else if (callee == "realloc") {
    alloc.function = ir::AllocFunction::Realloc;
    Value old = eval(c->getArg(0));
    if (old.kind == Value::Kind::Pointer) alloc.reallocFrom = old.pointer.container;
    alloc.sizeBytes = arg(1);
  } else {
    alloc.function = ir::AllocFunction::PosixMemalign;
    alloc.alignment = heapAlignment(sym::toInteger(arg(1)));
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
  sym::Expr copied = alloc.sizeBytes;
  append(ir::Node{std::move(alloc)});
  if (copiedFrom) copyInto(c, *copiedFrom, PointerValue{target, 0, name}, copied, callee);
  if (callee == "posix_memalign") {
    storeAllocatedPointer(c, target);
    return Value::ofScalar(0);
  }
  return Value::ofPointer(PointerValue{target, 0, name});
}

/* posix_memalign's first argument: where the new block's address goes. */
void FunctionBuilder::storeAllocatedPointer(const clang::CallExpr* c, const ir::ContainerRef& block) {
  const clang::Expr* out = c->getArg(0);
  const auto* addr = dyn_cast<clang::UnaryOperator>(out->IgnoreParenCasts());
  if (addr && addr->getOpcode() == clang::UO_AddrOf) {
    if (const clang::VarDecl* var = registerVariable(addr->getSubExpr())) {
      env_[var] = Value::ofPointer(PointerValue{block, 0, var->getNameAsString()});
      return;
    }
    if (const clang::VarDecl* pointer = globalPointer(addr->getSubExpr())) {
      if (auto* alloc = std::get_if<ir::Alloc>(&current_->back().value)) alloc->container = *state_.global(pointer);
      return;
    }
  }
  Value where = eval(out);
  if (where.kind == Value::Kind::Pointer && where.pointer.container.scope == ir::ContainerRef::Scope::Parameter && where.pointer.offset.is_zero() &&
      isPointerSlotParameter(where.pointer.container.index)) {
    function_.storedThrough.emplace_back(where.pointer.container.index, block);
    return;
  }
  warn(c->getBeginLoc(), "posix_memalign stores the new block's address where the analysis does not follow it (" + sourceText(out) +
                             "); accesses through that pointer are approximate");
}

/* Whether parameter "index" of this function points to a pointer (`double **out`): where a wrapper stores its block. */
bool FunctionBuilder::isPointerSlotParameter(std::size_t index) const {
  if (index >= decl_.getNumParams()) return false;
  clang::QualType type = decl_.getParamDecl(static_cast<unsigned>(index))->getType();
  return type->isPointerType() && type->getPointeeType()->isPointerType();
}

/* strdup's copy: reads of the source string and writes of the new block over "bytes". */
void FunctionBuilder::copyInto(const clang::CallExpr* c, const Value& source, const PointerValue& block, const sym::Expr& bytes,
                               const std::string& callee) {
  ir::Loop loop;
  loop.loc = loc(c->getBeginLoc());
  sym::Symbol word = state_.ctx.symbol("word", sym::SymbolKind::Iterator);
  loop.iterator = word;
  loop.iteratorName = word.get_name();
  loop.bound = sym::idiv(bytes + 7, 8);
  loop.varying = {word};
  auto access = [&](const PointerValue& p, ir::AccessMode mode, const std::string& text) {
    ir::Access a{p.container, mode, (p.offset + 8 * word).expand(), {}, 8, p.name, p.field, callee + "(" + text + ")", loop.loc, {}, {}};
    loop.body.push_back(ir::Node{std::move(a)});
  };
  if (source.kind == Value::Kind::Pointer) access(source.pointer, ir::AccessMode::Read, sourceText(c->getArg(0)));
  access(block, ir::AccessMode::Write, sourceText(c->getArg(0)));
  append(ir::Node{std::move(loop)});
}

void FunctionBuilder::deallocation(const clang::CallExpr* c) {
  if (c->getNumArgs() != 1) return;
  Value v = eval(c->getArg(0));
  if (v.kind == Value::Kind::Pointer) {
    append(ir::Node{ir::Free{v.pointer.container, loc(c->getBeginLoc())}});
    return;
  }
  if (c->getArg(0)->isNullPointerConstant(ast_, clang::Expr::NPC_ValueDependentIsNotNull)) return;
  warn(c->getBeginLoc(), "free of a pointer the analysis does not follow (" + sourceText(c->getArg(0)) + ") is not modelled");
}

}  // namespace cats::frontend
