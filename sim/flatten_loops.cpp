// Writing out small constant loops: the loop's pre block at its first iteration, its body at
// every iteration and its post block after the last, each access with the loop's slot fixed
// at the value the stream would give it there (AddressStream::enterLoop, endOfBlock).
#include "sim/flatten_loops.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace cats::sim {

namespace {

constexpr std::size_t kMaxWrittenOut = 64;  // accesses written out per loop: its code per iteration of the loop around it

/* The slots some formula reads outside every loop that binds them (a value left behind by a
   loop): a loop over such a slot must keep setting it, so it is not written out. */
class EscapingSlots {
 public:
  explicit EscapingSlots(const Program& p) : slots_(std::min(p.slots, kMaxSlots)), draws_(p.draws) {
    block(p.statics, 0);
    block(p.body, 0);
  }
  bool escapes(int slot) const { return (escaping_ >> slot & 1) != 0; }

 private:
  int slots_;
  const std::vector<DrawGroup>& draws_;
  std::uint64_t escaping_ = 0;  // one bit per slot

  void formula(const Formula& f, std::uint64_t bound) {
    for (int s = 0; s < slots_; ++s)
      if ((bound >> s & 1) == 0 && f.usesSlot(s)) escaping_ |= std::uint64_t{1} << s;
  }
  void condition(const Condition& c, std::uint64_t bound) {
    formula(c.lhs, bound);
    formula(c.rhs, bound);
    for (const Condition& o : c.operands) condition(o, bound);
  }
  void block(const Block& b, std::uint64_t bound) {
    for (const Op& op : b) {
      if (const auto* a = std::get_if<AccessOp>(&op.value)) {
        formula(a->offset, bound);
        formula(a->value, bound);  // the value it stores, and the index it draws by, read slots too
        if (a->randomOffset) formula(draws_[a->draw].indexFormula, bound);
      } else if (const auto* al = std::get_if<AllocOp>(&op.value)) {
        formula(al->sizeBytes, bound);
      } else if (const auto* l = op.loop()) {
        for (const Formula* f : {&l->start, &l->end, &l->step, &l->segmentIndex}) formula(*f, bound);
        std::uint64_t inside = bound | std::uint64_t{1} << l->slot;
        for (const Block* inner : {&l->pre, &l->header, &l->body, &l->post}) block(*inner, inside);
      } else if (const auto* br = std::get_if<BranchOp>(&op.value)) {
        for (const Arm& arm : br->arms) {
          condition(arm.condition, bound);
          block(arm.body, bound);
        }
      } else if (const auto* f = std::get_if<FrameOp>(&op.value)) {
        block(f->body, bound);
      }
    }
  }
};

/* True if a draw is the same in every iteration of the loop over "slot": it is renewed by an outer
   loop (or once), which is what AddressStream::drawOf keys it by, and its index does not read the
   slot. Such a draw does not stop the loop from being written out (kmeans's sums[label[i]][d]). */
bool drawOutlives(const DrawGroup& g, int slot) { return std::max(g.refreshSlot, 0) != slot && !g.indexFormula.usesSlot(slot); }

/* What decides whether a loop of the program can be written out. */
struct Writable {
  const std::vector<DrawGroup>& draws;
  EscapingSlots escaping;
  bool keepLibraryLoops;
};

/* Accesses only, each with a linear offset and no draw the loop over "slot" renews: what can be
   written out. */
bool plainAccesses(const Block& b, const std::vector<DrawGroup>& draws, int slot) {
  return std::all_of(b.begin(), b.end(), [&](const Op& op) {
    const auto* a = std::get_if<AccessOp>(&op.value);
    return a && !a->recordsValue && a->offset.isLinear() && (!a->randomOffset || drawOutlives(draws[a->draw], slot));
  });
}

/* The trip count of "l" when it can be written out in at most kMaxWrittenOut accesses. */
std::optional<std::int64_t> writableTrips(const LoopOp& l, const Writable& w) {
  if (w.escaping.escapes(l.slot) || !l.header.empty() || l.tripsFromData || l.segment || !l.carried.empty()) return std::nullopt;
  if (w.keepLibraryLoops && !l.library.empty()) return std::nullopt;
  for (const Block* b : {&l.pre, &l.body, &l.post})
    if (!plainAccesses(*b, w.draws, l.slot)) return std::nullopt;
  auto start = l.start.constantValue(), end = l.end.constantValue(), step = l.step.constantValue();
  if (!start || !end || !step) return std::nullopt;
  // As AddressStream::enterLoop counts them.
  std::int64_t distance = l.increasing ? *end - *start : *start - *end;
  std::int64_t stride = l.increasing ? *step : -*step;
  std::int64_t trips = distance <= 0 || stride <= 0 ? 0 : (distance + stride - 1) / stride;
  if (trips > static_cast<std::int64_t>(kMaxWrittenOut)) return std::nullopt;
  std::size_t made = l.post.size() + (trips > 0 ? l.pre.size() + static_cast<std::size_t>(trips) * l.body.size() : 0);
  if (made > kMaxWrittenOut) return std::nullopt;
  return trips;
}

void appendAt(const Block& from, int slot, std::int64_t value, Block& out) {
  for (const Op& op : from) {
    AccessOp a = std::get<AccessOp>(op.value);
    a.offset = a.offset.withSlotValue(slot, value);
    out.push_back(Op{std::move(a)});
  }
}

bool anySmallLoop(const Block& b, const Writable& w) {
  for (const Op& op : b) {
    if (const auto* l = op.loop()) {
      if (writableTrips(*l, w)) return true;
      for (const Block* inner : {&l->pre, &l->header, &l->body, &l->post})
        if (anySmallLoop(*inner, w)) return true;
    } else if (const auto* br = std::get_if<BranchOp>(&op.value)) {
      for (const Arm& arm : br->arms)
        if (anySmallLoop(arm.body, w)) return true;
    } else if (const auto* f = std::get_if<FrameOp>(&op.value)) {
      if (anySmallLoop(f->body, w)) return true;
    }
  }
  return false;
}

/* Inner loops first, so a loop of small loops can be written out in turn. */
void flatten(Block& b, const Writable& w) {
  Block out;
  out.reserve(b.size());
  for (Op& op : b) {
    if (auto* l = op.loop()) {
      for (Block* inner : {&l->pre, &l->header, &l->body, &l->post}) flatten(*inner, w);
      if (auto trips = writableTrips(*l, w)) {
        std::int64_t start = *l->start.constantValue(), step = *l->step.constantValue();
        if (*trips > 0) {
          appendAt(l->pre, l->slot, start, out);
          for (std::int64_t k = 0; k < *trips; ++k) appendAt(l->body, l->slot, start + k * step, out);
        }
        appendAt(l->post, l->slot, start + *trips * step, out);
        continue;
      }
    } else if (auto* br = std::get_if<BranchOp>(&op.value)) {
      for (Arm& arm : br->arms) flatten(arm.body, w);
    } else if (auto* f = std::get_if<FrameOp>(&op.value)) {
      flatten(f->body, w);
    }
    out.push_back(std::move(op));
  }
  b = std::move(out);
}

}  // namespace

bool hasSmallLoops(const Program& program, bool keepLibraryLoops) {
  const Writable w{program.draws, EscapingSlots(program), keepLibraryLoops};
  return anySmallLoop(program.statics, w) || anySmallLoop(program.body, w);
}

Program flattenSmallLoops(Program program, bool keepLibraryLoops) {
  const Writable w{program.draws, EscapingSlots(program), keepLibraryLoops};
  flatten(program.statics, w);
  flatten(program.body, w);
  return program;
}

}  // namespace cats::sim
