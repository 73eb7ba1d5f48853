// The compiler's decisions applied to the program; the decisions themselves are made once, in
// sim/compiler (loops.cpp). Identical accesses of one iteration happen once; an access the plan
// promotes out of a loop is loaded once before its first iteration and stored once after its
// last; a vectorised loop runs vector iterations over the multiple of VF x interleave and the
// rest as a scalar epilogue.
#include "register_model.hpp"

#include "library_idioms.hpp"

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

class Applier {
 public:
  Applier(const RegisterPlan& plan, std::vector<std::string>& notes) : plan_(plan), notes_(notes) {}

  void run(Block& block) {
    reuse(block);
    promote(block);
    vectorize(block);
  }

 private:
  const RegisterPlan& plan_;
  std::vector<std::string>& notes_;

  bool promotedOutOf(const AccessOp& a, const LoopOp& loop) const {
    auto it = plan_.promotedOutOf.find(a.tag);
    return it != plan_.promotedOutOf.end() && std::find(it->second.begin(), it->second.end(), loop.scope) != it->second.end();
  }

  static void addOnce(Block& block, const AccessOp& a) {
    for (const Op& op : block)
      if (const auto* b = std::get_if<AccessOp>(&op.value); b && b->write == a.write && sameAddress(*b, a)) return;
    block.push_back(Op{a});
  }

  /* Moves the accesses of "from" (run once per iteration of "loop") that the plan keeps out of it. */
  void hoistFrom(Block& from, LoopOp& loop) const {
    Block kept;
    for (Op& op : from) {
      auto* a = std::get_if<AccessOp>(&op.value);
      if (a && promotedOutOf(*a, loop)) addOnce(a->write ? loop.post : loop.pre, *a);
      else kept.push_back(std::move(op));
    }
    from = std::move(kept);
  }

  void promoteLoop(LoopOp& loop) {
    promote(loop.body);
    hoistFrom(loop.header, loop);
    hoistFrom(loop.body, loop);
    for (Op& op : loop.body)
      if (auto* inner = op.loop()) {
        hoistFrom(inner->pre, loop);
        hoistFrom(inner->post, loop);
      }
  }

  /* Drops reads the plan reuses from a register; moves the stores every arm of a branch makes after it. */
  void reuse(Block& block) const {
    Block kept;
    for (Op& op : block) {
      if (const auto* a = std::get_if<AccessOp>(&op.value); a && plan_.reused.count(a->tag)) continue;
      if (auto* l = op.loop()) {
        for (Block* b : {&l->pre, &l->header, &l->body, &l->post}) reuse(*b);
      } else if (auto* f = std::get_if<FrameOp>(&op.value)) {
        reuse(f->body);
      } else if (auto* b = std::get_if<BranchOp>(&op.value)) {
        Block after;
        for (auto& arm : b->arms) {
          reuse(arm.body);
          Block rest;
          for (Op& inner : arm.body) {
            const auto* a = std::get_if<AccessOp>(&inner.value);
            if (a && plan_.sunk.count(a->tag)) addOnce(after, *a);
            else rest.push_back(std::move(inner));
          }
          arm.body = std::move(rest);
        }
        kept.push_back(std::move(op));
        for (Op& sunk : after) kept.push_back(std::move(sunk));
        continue;
      }
      kept.push_back(std::move(op));
    }
    block = std::move(kept);
  }

  void promote(Block& block) {
    for (Op& op : block) {
      if (auto* a = std::get_if<AccessOp>(&op.value)) a->repeat = 1;
      else if (auto* l = op.loop()) {
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

  /* Accesses below "block" that move with "slot" become one access of "factor" iterations;
     members of an SLP group other than its leader disappear into it. */
  void widen(Block& block, int slot, int factor) const {
    Block kept;
    for (Op& op : block) {
      if (auto* a = std::get_if<AccessOp>(&op.value)) {
        if (plan_.merged.count(a->tag) && a->offset.coefficientOf(slot) != 0) continue;
        std::int64_t coefficient = a->offset.coefficientOf(slot);
        if (coefficient > 0 && !a->randomOffset) a->bytes = static_cast<std::uint32_t>(coefficient * factor);
      } else if (auto* l = op.loop()) {
        for (Block* b : {&l->pre, &l->header, &l->body, &l->post}) widen(*b, slot, factor);
      }
      kept.push_back(std::move(op));
    }
    block = std::move(kept);
  }

  /* "loop" as the plan vectorises it: the vector loop, then (maybe) its scalar epilogue. */
  std::vector<LoopOp> vectorizeLoop(LoopOp loop, const LoopDecision& d) const {
    auto start = loop.start.constantValue(), end = loop.end.constantValue(), step = loop.step.constantValue();
    // A value carried from one iteration to the next (a chase, an index one iteration behind) is serial: the loop stays scalar.
    if (!step || *step != 1 || !loop.increasing || loop.tripsFromData || loop.segment || !loop.carried.empty()) return {std::move(loop)};
    std::int64_t chunk = std::int64_t{d.vectorFactor} * d.interleave;
    LoopOp vector = loop;
    if (start && end) {
      std::int64_t trips = std::max<std::int64_t>(0, *end - *start);
      std::int64_t vectorTrips = trips - trips % chunk;
      if (vectorTrips != trips && !d.scalarEpilogue) return {std::move(loop)};
      if (vectorTrips == 0) return {std::move(loop)};
      vector.end = Formula::constant(*start + vectorTrips);
      if (vectorTrips != trips) {
        LoopOp epilogue = std::move(loop);
        epilogue.start = vector.end;
        epilogue.pre.clear();
        std::swap(epilogue.post, vector.post);
        std::vector<LoopOp> out;
        out.push_back(std::move(vector));
        out.back().vectorFactor = d.vectorFactor;
        out.back().step = Formula::constant(d.vectorFactor);
        widen(out.back().body, out.back().slot, d.vectorFactor);
        widen(out.back().header, out.back().slot, d.vectorFactor);
        out.push_back(std::move(epilogue));
        return out;
      }
    } else if (chunk > 1) {
      note("vectorised loops whose trip count varies with an outer loop run every iteration as vector iterations (no scalar epilogue)");
    }
    vector.vectorFactor = d.vectorFactor;
    vector.step = Formula::constant(d.vectorFactor);
    widen(vector.body, vector.slot, d.vectorFactor);
    widen(vector.header, vector.slot, d.vectorFactor);
    return {std::move(vector)};
  }

  void note(const std::string& text) const {
    if (std::find(notes_.begin(), notes_.end(), text) == notes_.end()) notes_.push_back(text);
  }

  void vectorize(Block& block) const {
    Block out;
    for (Op& op : block) {
      if (auto* l = op.loop()) {
        vectorize(l->body);
        const LoopDecision* d = plan_.plan && l->library.empty() ? plan_.plan->loop(l->scope) : nullptr;
        if (d && (d->vectorFactor > 1 || d->slp) && (!d->inOrderReduction || d->vectorLoads)) {
          for (LoopOp& piece : vectorizeLoop(std::move(*l), *d)) out.push_back(Op{std::move(piece)});
          continue;
        }
      } else if (auto* b = std::get_if<BranchOp>(&op.value)) {
        for (auto& arm : b->arms) vectorize(arm.body);
      } else if (auto* f = std::get_if<FrameOp>(&op.value)) {
        vectorize(f->body);
      }
      out.push_back(std::move(op));
    }
    block = std::move(out);
  }
};

}  // namespace

void applyRegisterModel(Block& block, const RegisterPlan& plan, std::vector<std::string>& notes) {
  if (plan.plan) runLibraryIdioms(block, *plan.plan, notes);
  Applier(plan, notes).run(block);
}

}  // namespace cats::sim
