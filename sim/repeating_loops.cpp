// Which loops repeat their accesses from one iteration to the next.
#include "sim/repeating_loops.hpp"

namespace cats::sim {

namespace {

class RepeatCheck {
 public:
  RepeatCheck(const Program& program, int slot) : program_(program), slot_(slot) {}

  bool block(const Block& b, bool inFrame) const {
    for (const Op& op : b)
      if (!this->op(op, inFrame)) return false;
    return true;
  }

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

  bool op(const Op& op, bool inFrame) const {
    if (const auto* a = std::get_if<AccessOp>(&op.value)) return !a->randomOffset && fixed(a->offset);
    if (const auto* loop = std::get_if<LoopOp>(&op.value)) {
      if (loop->tripsFromData || loop->segment) return false;  // the stream's policy decides them
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
};

}  // namespace

bool iterationsRepeat(const Program& program, const LoopOp& loop) {
  if (loop.tripsFromData || loop.segment || loop.body.empty()) return false;
  const RepeatCheck check(program, loop.slot);
  return check.block(loop.header, false) && check.block(loop.body, false);
}

}  // namespace cats::sim
