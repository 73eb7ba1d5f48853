// Allocation wrappers (see link_allocations.hpp).
#include "link_allocations.hpp"

#include "ir_walk.hpp"

#include <functional>
#include <map>
#include <set>

namespace cats::frontend {

namespace {

using Ref = ir::ContainerRef;

/// One block a wrapper hands back: returned (no parameter) or stored through `*params[through]`.
struct Output {
  std::optional<std::size_t> through;
  Ref block;                 // in the wrapper, before it became a parameter
  ir::Alloc alloc;           // the wrapper's own allocation of it
  std::size_t hidden = 0;    // the parameter it became
};

struct Wrapper {
  std::size_t parameters = 0;  // before the hidden ones
  std::vector<Output> outputs;
};

/* The allocation of "block" in "f" outside loops, if there is exactly one and none inside a loop. */
std::optional<ir::Alloc> soleAllocation(ir::Function& f, const Ref& block) {
  std::vector<ir::Alloc> outside;
  std::size_t everywhere = 0;
  auto collect = [&](std::vector<ir::Alloc>* out, std::size_t& count) {
    return [&, out](ir::Block& b) {
      for (auto& node : b)
        if (auto* a = std::get_if<ir::Alloc>(&node.value); a && a->container == block) {
          ++count;
          if (out) out->push_back(*a);
        }
    };
  };
  std::size_t outsideCount = 0;
  forEachBlock(f.body, collect(&outside, outsideCount), false);
  forEachBlock(f.body, collect(nullptr, everywhere), true);
  if (outside.size() != 1 || everywhere != 1) return std::nullopt;
  return outside.front();
}

/* Whether "size" uses only the parameters of "f", globals and numbers (so a call site can substitute it). */
bool substitutable(const sym::Expr& size, const ir::Function& f, const ir::Program& program) {
  std::set<std::string> allowed;
  for (const auto& p : f.params) allowed.insert(p.symbol.get_name());
  for (const auto& g : program.globals) allowed.insert(g.symbol.get_name());
  bool ok = true;
  std::function<void(const sym::Expr&)> walk = [&](const sym::Expr& e) {
    if (sym::isLoad(e)) {
      ok &= allowed.count(sym::loadParts(e).first.get_name()) != 0;
      walk(sym::loadParts(e).second);
      return;
    }
    for (std::size_t i = 0; i < e.nops(); ++i) walk(e.op(i));
  };
  walk(size);
  for (const auto& l : f.locals)
    if (size.has(l.symbol) && !allowed.count(l.symbol.get_name())) ok = false;
  return ok;
}

/* Rewrites every reference to "from" in "b" into "to". */
void remap(ir::Block& b, const Ref& from, const Ref& to) {
  auto fix = [&](Ref& r) { if (r == from) r = to; };
  forEachBlock(b, [&](ir::Block& block) {
    for (auto& node : block) {
      if (auto* a = std::get_if<ir::Access>(&node.value)) fix(a->container);
      else if (auto* al = std::get_if<ir::Alloc>(&node.value)) {
        fix(al->container);
        if (al->reallocFrom) fix(*al->reallocFrom);
      } else if (auto* fr = std::get_if<ir::Free>(&node.value)) fix(fr->container);
      else if (auto* c = std::get_if<ir::Call>(&node.value)) {
        for (auto& arg : c->arguments) {
          if (arg.kind == ir::Argument::Kind::Pointer) fix(arg.container);
          if (arg.pointee) fix(*arg.pointee);
        }
        if (c->result) fix(*c->result);
      }
    }
  });
}

/* Removes the allocation node of "block" from "b" (outside loops). */
void removeAllocation(ir::Block& b, const Ref& block) {
  forEachBlock(b, [&](ir::Block& nodes) {
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [&](const ir::Node& n) {
      const auto* a = std::get_if<ir::Alloc>(&n.value);
      return a && a->container == block;
    }), nodes.end());
  }, false);
}

/* The outputs of "f" that make it an allocation wrapper (empty if none). */
std::vector<Output> wrapperOutputs(ir::Function& f, const ir::Program& program) {
  std::vector<std::pair<std::optional<std::size_t>, Ref>> candidates;
  if (f.returned) candidates.emplace_back(std::nullopt, *f.returned);
  for (const auto& [param, block] : f.storedThrough) candidates.emplace_back(param, block);
  std::vector<Output> outputs;
  for (const auto& candidate : candidates) {
    const auto& through = candidate.first;
    const Ref& block = candidate.second;  // not a structured binding: clang 14 cannot capture those
    if (block.scope != Ref::Scope::Local || f.locals.at(block.index).kind != ir::ContainerKind::Heap) continue;
    auto alloc = soleAllocation(f, block);
    if (!alloc || !substitutable(alloc->sizeBytes, f, program)) continue;
    if (std::any_of(outputs.begin(), outputs.end(), [&](const Output& o) { return o.block == block; })) continue;
    outputs.push_back(Output{through, block, *alloc, 0});
  }
  return outputs;
}

/* Turns each output block of "f" into a hidden pointer parameter that the caller allocates. */
void convert(ir::Function& f, std::vector<Output>& outputs) {
  for (auto& o : outputs) {
    const ir::Container& c = f.locals.at(o.block.index);
    o.hidden = f.params.size();
    f.params.push_back(ir::Parameter{c.name, true, c.symbol, o.block.index});
    removeAllocation(f.body, o.block);
    remap(f.body, o.block, Ref{Ref::Scope::Parameter, o.hidden});
  }
  f.returned.reset();
  f.storedThrough.clear();
}

/// Replaces a wrapper's scalar parameters by values and loads through its pointer parameters by
/// loads from the caller's containers.
class Substitution : public GiNaC::map_function {
 public:
  Substitution(const GiNaC::exmap& scalars, const std::map<std::string, std::pair<sym::Symbol, sym::Expr>>& pointers)
      : scalars_(scalars), pointers_(pointers) {}
  sym::Expr operator()(const sym::Expr& e) override {
    if (sym::isLoad(e)) {
      auto [container, offset] = sym::loadParts(e);
      sym::Expr inner = (*this)(offset);
      if (auto it = pointers_.find(container.get_name()); it != pointers_.end())
        return sym::load(it->second.first, (it->second.second + inner).expand());
      return sym::load(container, inner);
    }
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = scalars_.find(e);
      return it == scalars_.end() ? e : it->second;
    }
    return e.map(*this);
  }

 private:
  const GiNaC::exmap& scalars_;
  const std::map<std::string, std::pair<sym::Symbol, sym::Expr>>& pointers_;
};

/// Rewrites the calls of one wrapper in one caller.
class CallRewriter {
 public:
  CallRewriter(ir::Program& program, ir::Function& caller, const ir::Function& wrapper, const Wrapper& w, sym::Context& ctx)
      : program_(program), caller_(caller), wrapper_(wrapper), w_(w), ctx_(ctx) {}

  void run() {
    forEachBlock(caller_.body, [&](ir::Block& b) {
      for (std::size_t i = 0; i < b.size(); ++i) {
        auto* c = std::get_if<ir::Call>(&b[i].value);
        if (!c || c->callee != wrapper_.name) continue;
        std::vector<ir::Node> allocs = rewrite(*c);
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(i), allocs.begin(), allocs.end());
        i += allocs.size();
      }
    });
  }

 private:
  ir::Program& program_;
  ir::Function& caller_;
  const ir::Function& wrapper_;
  const Wrapper& w_;
  sym::Context& ctx_;

  sym::Symbol symbolOf(const Ref& r) const {
    switch (r.scope) {
      case Ref::Scope::Global: return program_.globals.at(r.index).symbol;
      case Ref::Scope::Local: return caller_.locals.at(r.index).symbol;
      case Ref::Scope::Parameter: return caller_.params.at(r.index).symbol;
    }
    return {};
  }

  /* The wrapper's size with its parameters replaced by the arguments of "c". */
  sym::Expr substitute(const sym::Expr& size, const ir::Call& c) {
    GiNaC::exmap scalars;
    std::map<std::string, std::pair<sym::Symbol, sym::Expr>> pointers;
    for (std::size_t i = 0; i < w_.parameters; ++i) {
      const ir::Parameter& p = wrapper_.params[i];
      const ir::Argument& a = c.arguments[i];
      if (p.isPointer) {
        if (a.kind == ir::Argument::Kind::Pointer) pointers[p.symbol.get_name()] = {symbolOf(a.container), a.value};
        continue;
      }
      scalars[p.symbol] = a.kind == ir::Argument::Kind::Scalar
                              ? a.value
                              : sym::Expr(ctx_.freshSymbol("unknown_" + p.name, sym::SymbolKind::Unknown,
                                                           "argument of " + wrapper_.name + " at " + c.loc.str()));
    }
    Substitution walk(scalars, pointers);
    return walk(size).expand();
  }

  /* The caller's container for output "o" of call "c": the call-site container, or a fresh one. */
  Ref target(const Output& o, ir::Call& c) {
    std::optional<Ref> existing = o.through ? c.arguments[*o.through].pointee : c.result;
    if (existing && existing->scope == Ref::Scope::Local) return *existing;
    ir::Container block = wrapper_.locals.at(o.block.index);
    block.name = wrapper_.name + "_block";
    block.symbol = ctx_.freshSymbol(block.name, sym::SymbolKind::Container);
    block.name = block.symbol.get_name();
    block.loc = c.loc;
    caller_.locals.push_back(std::move(block));
    return Ref{Ref::Scope::Local, caller_.locals.size() - 1};
  }

  std::vector<ir::Node> rewrite(ir::Call& c) {
    c.arguments.resize(w_.parameters);
    std::vector<ir::Node> allocs;
    for (const Output& o : w_.outputs) {
      Ref block = target(o, c);
      ir::Alloc alloc = o.alloc;
      alloc.container = block;
      alloc.sizeBytes = substitute(o.alloc.sizeBytes, c);
      alloc.loc = c.loc;
      alloc.reallocFrom.reset();
      if (o.alloc.reallocFrom && o.alloc.reallocFrom->scope == Ref::Scope::Parameter) {
        const ir::Argument& old = c.arguments.at(o.alloc.reallocFrom->index);
        if (old.kind == ir::Argument::Kind::Pointer) alloc.reallocFrom = old.container;
      }
      ir::Container& container = caller_.locals.at(block.index);
      container.kind = ir::ContainerKind::Heap;
      container.sizeBytes = alloc.sizeBytes;
      container.alignment = alloc.alignment;
      ir::Argument hidden;
      hidden.kind = ir::Argument::Kind::Pointer;
      hidden.container = block;
      c.arguments.push_back(std::move(hidden));
      allocs.push_back(ir::Node{std::move(alloc)});
    }
    return allocs;
  }
};

/* Whether some access of "f" goes to "r". */
bool accessed(ir::Function& f, const Ref& r) {
  bool found = false;
  forEachBlock(f.body, [&](ir::Block& b) {
    for (const auto& node : b)
      if (const auto* a = std::get_if<ir::Access>(&node.value); a && a->container == r) found = true;
  });
  return found;
}

/* Call-site containers of calls that turned out not to be wrappers: unknown memory, said where used. */
void reportUnlinked(ir::Program& program, const std::map<std::string, Wrapper>& wrappers) {
  for (auto& f : program.functions) {
    std::vector<std::pair<Ref, std::string>> unlinked;
    forEachBlock(f.body, [&](ir::Block& b) {
      for (const auto& node : b) {
        const auto* c = std::get_if<ir::Call>(&node.value);
        if (!c || wrappers.count(c->callee)) continue;
        std::string where = c->loc.str();
        if (c->result) unlinked.emplace_back(*c->result, "the pointer " + c->callee + " returns at " + where);
        for (const auto& a : c->arguments)
          if (a.pointee) unlinked.emplace_back(*a.pointee, "the pointer " + c->callee + " stores through its argument at " + where);
      }
    });
    for (const auto& [ref, what] : unlinked) {
      ir::Container& c = f.locals.at(ref.index);
      if (c.kind != ir::ContainerKind::Heap) continue;
      c.kind = ir::ContainerKind::Pointee;
      if (accessed(f, ref))
        program.diagnostics.push_back(ir::Diagnostic{ir::Severity::Warning, c.loc,
                                                     what + " is not an allocation the analysis recognises: accesses through '" + c.name +
                                                         "' go to memory of unknown size and place; the result is approximate"});
    }
  }
}

}  // namespace

void linkAllocationWrappers(ir::Program& program, sym::Context& ctx) {
  std::map<std::string, Wrapper> wrappers;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& f : program.functions) {
      if (wrappers.count(f.name)) continue;
      std::vector<Output> outputs = wrapperOutputs(f, program);
      if (outputs.empty()) continue;
      Wrapper w{f.params.size(), {}};
      convert(f, outputs);
      w.outputs = std::move(outputs);
      for (auto& caller : program.functions)
        if (&caller != &f) CallRewriter(program, caller, f, w, ctx).run();
      wrappers.emplace(f.name, std::move(w));
      changed = true;
    }
  }
  reportUnlinked(program, wrappers);
}

}  // namespace cats::frontend
