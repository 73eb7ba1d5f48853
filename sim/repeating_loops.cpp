// Which loops repeat their accesses from one iteration to the next.
#include "sim/repeating_loops.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace cats::sim {

namespace {

class RepeatCheck {
 public:
  RepeatCheck(const Program& program, int slot) : program_(program), slot_(slot) {}

  bool block(const Block& b, bool inFrame) {
    for (const Op& op : b)
      if (!this->op(op, inFrame)) return false;
    return true;
  }

  /// The accesses linear in the loop's counter, and the slots of the loops inside it.
  std::vector<MovingAccess>& moving() { return moving_; }
  const std::vector<int>& innerSlots() const { return innerSlots_; }

 private:
  bool fixed(const Formula& f) const { return !f.dependsOnData() && !f.usesSlot(slot_); }

  bool condition(const Condition& c) const {
    switch (c.kind) {
      case Condition::Kind::Always: return true;
      case Condition::Kind::FromData: return false;  // decided by the branch policy, maybe at random
      case Condition::Kind::Relation: return fixed(c.lhs) && fixed(c.rhs);
      case Condition::Kind::And:
      case Condition::Kind::Or:
      case Condition::Kind::Not: break;
    }
    for (const Condition& operand : c.operands)
      if (!condition(operand)) return false;
    return true;
  }

  bool access(const AccessOp& a) {
    if (a.randomOffset || a.offset.dependsOnData() || a.recordsValue) return false;  // a kept value may differ per iteration
    if (!a.offset.usesSlot(slot_)) return true;
    if (!a.offset.isLinear()) return false;
    moving_.push_back(MovingAccess{&a, a.offset.coefficientOf(slot_), 0});
    return true;
  }

  bool op(const Op& op, bool inFrame) {
    if (const auto* a = std::get_if<AccessOp>(&op.value)) return access(*a);
    if (const auto* loop = op.loop()) {
      if (loop->tripsFromData || loop->segment || !loop->carried.empty()) return false;  // the stream's policy or data decide them
      innerSlots_.push_back(loop->slot);
      return fixed(loop->start) && fixed(loop->end) && fixed(loop->step) && block(loop->pre, inFrame) && block(loop->header, inFrame) &&
             block(loop->body, inFrame) && block(loop->post, inFrame);
    }
    if (const auto* branch = std::get_if<BranchOp>(&op.value)) {
      for (const Arm& arm : branch->arms)
        if (!condition(arm.condition) || !block(arm.body, inFrame)) return false;
      return true;
    }
    if (const auto* frame = std::get_if<FrameOp>(&op.value)) return block(frame->body, true);
    if (const auto* alloc = std::get_if<AllocOp>(&op.value)) {
      if (alloc->function == ir::AllocFunction::StaticArray) return true;
      return alloc->function == ir::AllocFunction::StackArray && inFrame && fixed(alloc->sizeBytes);
    }
    const auto& release = std::get<FreeOp>(op.value);
    const ir::ContainerKind kind = program_.containers[release.container].kind;
    return kind != ir::ContainerKind::Heap && kind != ir::ContainerKind::Pointee;  // the stream frees heap blocks only
  }

  const Program& program_;
  int slot_;
  std::vector<MovingAccess> moving_;
  std::vector<int> innerSlots_;
};

}  // namespace

bool iterationsRepeat(const Program& program, const LoopOp& loop) {
  const auto moving = movingAccesses(program, loop);
  return moving && moving->empty();
}

std::optional<std::vector<MovingAccess>> movingAccesses(const Program& program, const LoopOp& loop) {
  if (loop.tripsFromData || loop.segment || !loop.carried.empty() || loop.body.empty()) return std::nullopt;
  RepeatCheck check(program, loop.slot);
  if (!check.block(loop.header, false) || !check.block(loop.body, false)) return std::nullopt;
  std::vector<MovingAccess> moving = std::move(check.moving());
  for (MovingAccess& m : moving)
    for (const auto& [slot, coefficient] : m.access->offset.terms())
      if (std::find(check.innerSlots().begin(), check.innerSlots().end(), slot) != check.innerSlots().end())
        m.innerGcd = std::gcd(m.innerGcd, static_cast<std::uint64_t>(coefficient < 0 ? -coefficient : coefficient));
  return moving;
}

}  // namespace cats::sim
