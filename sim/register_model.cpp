// O2: identical accesses of one iteration happen once; an access that is invariant in a loop
// and that no other store of that loop may alias lives in a register across the loop: its load
// happens once before the first iteration, its store once after the last. Aliasing is exact
// here because the trace binds every pointer to the container it points into.
#include "register_model.hpp"

#include <algorithm>

namespace cats::sim {

namespace {

bool sameAddress(const AccessOp& a, const AccessOp& b) {
  if (a.container != b.container || a.randomOffset || b.randomOffset) return false;
  const Formula& f = a.offset;
  const Formula& g = b.offset;
  return f.isLinear() && g.isLinear() && f.constantTerm() == g.constantTerm() && f.terms() == g.terms();
}

/* Every store anywhere below "block". */
void collectWrites(const Block& block, std::vector<const AccessOp*>& out) {
  for (const Op& op : block) {
    if (const auto* a = std::get_if<AccessOp>(&op.value)) {
      if (a->write) out.push_back(a);
    } else if (const auto* l = std::get_if<LoopOp>(&op.value)) {
      collectWrites(l->pre, out);
      collectWrites(l->header, out);
      collectWrites(l->body, out);
      collectWrites(l->post, out);
    } else if (const auto* b = std::get_if<BranchOp>(&op.value)) {
      for (const auto& arm : b->arms) collectWrites(arm.body, out);
    } else if (const auto* f = std::get_if<FrameOp>(&op.value)) {
      collectWrites(f->body, out);
    }
  }
}

/* "a" may stay in a register across "loop": invariant, and every store of the loop to its container hits the same address. */
bool promotable(const AccessOp& a, const LoopOp& loop, const std::vector<const AccessOp*>& writes) {
  if (a.randomOffset || !a.offset.isLinear() || a.offset.usesSlot(loop.slot)) return false;
  return std::all_of(writes.begin(), writes.end(), [&](const AccessOp* w) { return w->container != a.container || sameAddress(*w, a); });
}

void addOnce(Block& block, const AccessOp& a) {
  for (const Op& op : block)
    if (const auto* b = std::get_if<AccessOp>(&op.value); b && b->write == a.write && sameAddress(*b, a)) return;
  block.push_back(Op{a});
}

/* Moves promotable accesses of "from" (a block run once per iteration of "loop") out of the loop. */
void hoistFrom(Block& from, LoopOp& loop, const std::vector<const AccessOp*>& writes) {
  Block kept;
  for (Op& op : from) {
    auto* a = std::get_if<AccessOp>(&op.value);
    if (a && promotable(*a, loop, writes)) addOnce(a->write ? loop.post : loop.pre, *a);
    else kept.push_back(std::move(op));
  }
  from = std::move(kept);
}

void promote(Block& block);

void promoteLoop(LoopOp& loop) {
  promote(loop.body);
  std::vector<const AccessOp*> writes;
  collectWrites(loop.body, writes);
  collectWrites(loop.header, writes);
  std::vector<AccessOp> copies;
  for (const AccessOp* w : writes) copies.push_back(*w);
  std::vector<const AccessOp*> stable;
  for (const auto& c : copies) stable.push_back(&c);
  hoistFrom(loop.header, loop, stable);
  hoistFrom(loop.body, loop, stable);
  for (Op& op : loop.body)
    if (auto* inner = std::get_if<LoopOp>(&op.value)) {
      hoistFrom(inner->pre, loop, stable);
      hoistFrom(inner->post, loop, stable);
    }
}

void promote(Block& block) {
  for (Op& op : block) {
    if (auto* a = std::get_if<AccessOp>(&op.value)) a->repeat = 1;
    else if (auto* l = std::get_if<LoopOp>(&op.value)) {
      for (Block* b : {&l->pre, &l->header, &l->post})
        for (Op& inner : *b)
          if (auto* x = std::get_if<AccessOp>(&inner.value)) x->repeat = 1;
      promoteLoop(*l);
    } else if (auto* b = std::get_if<BranchOp>(&op.value)) {
      for (auto& arm : b->arms) promote(arm.body);
    } else if (auto* f = std::get_if<FrameOp>(&op.value)) {
      promote(f->body);
    }
  }
}

}  // namespace

void applyRegisterModel(Block& block) { promote(block); }

}  // namespace cats::sim
