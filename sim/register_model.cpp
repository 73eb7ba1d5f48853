// O2: identical accesses of one iteration happen once; an access that is invariant in a loop
// and that no other store of that loop may alias lives in a register across the loop: its load
// happens once before the first iteration, its store once after the last. Aliasing is exact
// here because the trace binds every pointer to the container it points into.
#include "register_model.hpp"

#include <algorithm>
#include <optional>

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

constexpr std::int64_t kVectorBytes = 16;  // SSE2, the x86-64 baseline GCC targets by default

/* Every access below "block", or false if something stops vectorisation (a call, a branch,
   an allocation, a loop with unknown trips or bounds that move with "slot"). */
bool collectVectorCandidates(Block& block, int slot, std::vector<AccessOp*>& out) {
  for (Op& op : block) {
    if (auto* a = std::get_if<AccessOp>(&op.value)) {
      out.push_back(a);
    } else if (auto* l = std::get_if<LoopOp>(&op.value)) {
      if (l->tripsFromData || l->segment || l->start.usesSlot(slot) || l->end.usesSlot(slot) || l->step.usesSlot(slot)) return false;
      for (Block* b : {&l->pre, &l->header, &l->body, &l->post})
        if (!collectVectorCandidates(*b, slot, out)) return false;
    } else {
      return false;
    }
  }
  return true;
}

std::optional<std::int64_t> constantOf(const Formula& f) {
  if (!f.isLinear() || !f.terms().empty()) return std::nullopt;
  return f.constantTerm();
}

/* GCC 12's -O2 vectoriser (very-cheap cost model): a loop with a compile-time trip count that
   is a multiple of the vector factor, step 1, no reduction carried across its iterations, and
   every access below it invariant or unit-stride in its iterator. */
bool tryVectorize(LoopOp& loop) {
  if (!loop.staticTrips || loop.tripsFromData || loop.segment || !loop.increasing || !loop.post.empty()) return false;
  auto start = constantOf(loop.start), end = constantOf(loop.end), step = constantOf(loop.step);
  if (!start || !end || !step || *step != 1 || *end <= *start) return false;
  std::vector<AccessOp*> accesses;
  if (!collectVectorCandidates(loop.header, loop.slot, accesses) || !collectVectorCandidates(loop.body, loop.slot, accesses)) return false;
  std::int64_t element = 0;
  for (const AccessOp* a : accesses) {
    if (a->randomOffset || !a->offset.isLinear()) return false;
    std::int64_t coefficient = a->offset.coefficientOf(loop.slot);
    if (coefficient == 0) continue;
    if (coefficient != a->bytes || (a->bytes != 4 && a->bytes != 8) || (element != 0 && element != a->bytes)) return false;
    element = a->bytes;
  }
  if (element == 0) return false;
  std::int64_t factor = kVectorBytes / element;
  if ((*end - *start) % factor != 0) return false;
  loop.vectorFactor = static_cast<int>(factor);
  loop.step = Formula::constant(factor);
  for (AccessOp* a : accesses)
    if (a->offset.coefficientOf(loop.slot) != 0) a->bytes = static_cast<std::uint32_t>(kVectorBytes);
  return true;
}

/* Vectorises the innermost vectorisable loop of every nest; returns whether "block" has one. */
bool vectorize(Block& block) {
  bool any = false;
  for (Op& op : block) {
    if (auto* l = std::get_if<LoopOp>(&op.value)) {
      bool inner = vectorize(l->body);
      any = (!inner && tryVectorize(*l)) || inner || any;
    } else if (auto* b = std::get_if<BranchOp>(&op.value)) {
      for (auto& arm : b->arms) any = vectorize(arm.body) || any;
    } else if (auto* f = std::get_if<FrameOp>(&op.value)) {
      any = vectorize(f->body) || any;
    }
  }
  return any;
}

}  // namespace

void applyRegisterModel(Block& block) {
  promote(block);
  vectorize(block);
}

}  // namespace cats::sim
