// The trace compiled for simulation: a tree of operations in program order whose formulas
// are bound to numbers, ready to be walked millions of times per second.
#pragma once

#include "ir/ir.hpp"
#include "sim/formula.hpp"
#include "symbolic/condition.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cats::sim {

struct Op;
using Block = std::vector<Op>;

struct AccessOp {
  std::uint32_t tag = 0;        // trace event index: statistics are keyed by it
  std::uint32_t container = 0;
  Formula offset;               // randomOffset: the part that needs no data (field offset, iterator terms)
  std::uint32_t bytes = 0;
  bool write = false;
  bool randomOffset = false;    // data-dependent: element drawn uniformly over the container
  std::uint32_t draw = 0;       // randomOffset: its draw group in Program::draws (one index, one element)
  std::int64_t drawStride = 0;  // randomOffset: bytes per element of the drawn index (the struct size)
  std::uint32_t repeat = 1;     // identical accesses of one iteration (O0 multiplicity)
  std::uint32_t scalarBytes = 0;  // bytes of the source access before vectorisation
  // A write to a container the program reads as an index or a bound (Program::valueContainers):
  // the stream keeps the integer it stores ("value", when readsMemory or data-free), or forgets
  // what was there (hasValue false). Such writes keep their loop off the fast paths.
  bool recordsValue = false;
  bool hasValue = false;
  Formula value;
};

struct AllocOp {
  std::uint32_t tag = 0;  // trace event index of the allocation (calloc's zeroing is counted there)
  std::uint32_t container = 0;
  Formula sizeBytes;
  std::int64_t alignment = 16;
  ir::AllocFunction function = ir::AllocFunction::Malloc;
};

struct FreeOp {
  std::uint32_t container = 0;
  std::uint32_t tag = 0;  // trace event index of the free (an event export names its place)
};

/// A branch condition with bound parameters; data-dependent parts cannot be decided.
struct Condition {
  enum class Kind { Always, Relation, And, Or, Not, FromData };
  Kind kind = Kind::Always;
  sym::ConditionOp relation = sym::ConditionOp::Less;
  Formula lhs, rhs;
  std::vector<Condition> operands;
  bool fromValues = false;  // FromData relation whose sides read only loads and carried values (Formula::readsMemory)

  /// True/false with iterator values "slots"; nullopt when it depends on data.
  std::optional<bool> evaluate(const std::int64_t* slots) const;
  /// The same with loads and carried values answered by "memory" and "slots" where they can be.
  std::optional<bool> evaluate(const std::int64_t* slots, const ValueMemory* memory) const;
};

struct LoopOp {
  int slot = 0;
  std::size_t scope = 0;     // the trace's Loop scope: the compiler's decisions are keyed by it
  Formula start, end, step;  // end is exclusive in the direction of the step
  bool increasing = true;
  int vectorFactor = 1;             // iterations one vector instruction does (docs/register-model.md)
  std::string library;              // the memset/memcpy the compiler made of this loop (its loop decisions no longer apply), else empty
  bool tripsFromData = false;       // bounds hold loaded values: tripsWhenUnknown iterations
  std::int64_t tripsWhenUnknown = 1;
  bool tripsGiven = false;          // tripsWhenUnknown is the user's (--trips): it wins over stored bounds
  // CSR-style segment loop: start = load(c, k*e), end = load(c, (k+1)*e): iteration range
  // [k*segmentLength, (k+1)*segmentLength) with k = start formula / e.
  bool segment = false;
  Formula segmentIndex;
  std::int64_t segmentLength = 0;
  // Values the loop carries that the stream computes (ir::Recurrence): slot "slot" holds "start"
  // (evaluated at entry) in the first iteration and "next" (at the end of each) in the next one;
  // kUnknownCarried when a load found no stored value.
  struct Carried {
    int slot = 0;
    Formula start, next;
  };
  std::vector<Carried> carried;
  // An unknown trip count with a condition the stream can compute (from carried or stored values,
  // or the iterator): the loop runs while "test" holds, unless --trips gave its count. Where the
  // test has no value, tripsWhenUnknown iterations in all (or none more, if it ran them).
  bool tested = false;
  bool testAfterBody = false;  // a do-while: the first iteration runs before any test
  Condition test;
  Block pre;     // hoisted loads, once before the first iteration (O2)
  Block header;  // condition accesses, every iteration and once more at the exit (O0)
  Block body;
  Block post;    // sunk stores, once after the last iteration (O2)
};

struct Arm {
  Condition condition;
  Block body;
  std::size_t scope = 0;  // the trace's Branch scope of this arm (an event export enters it)
};

struct BranchOp {
  std::vector<Arm> arms;
};

/// A function activation: stack arrays inside it live in its frame.
struct FrameOp {
  Block body;
  std::size_t scope = 0;  // the trace's Function or Call scope (an event export enters it)
};

/// A value kept on the heap, copied and moved as a value. An Op holds its loop this way: a LoopOp
/// is about 1 KB and an access about 300 bytes, and a real program has an Op per event (lua's
/// lparser.c a million), so inline loops made every Op as large as a loop. A moved-from Boxed
/// holds nothing, as a moved-from std::unique_ptr: it may only be assigned to or destroyed.
template <typename T>
class Boxed {
 public:
  Boxed(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT(google-explicit-constructor): Op{LoopOp{...}}
  Boxed(const Boxed& other) : value_(std::make_unique<T>(*other.value_)) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    value_ = std::make_unique<T>(*other.value_);
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  ~Boxed() = default;
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  std::unique_ptr<T> value_;
};

struct Op {
  std::variant<AccessOp, AllocOp, FreeOp, Boxed<LoopOp>, BranchOp, FrameOp> value;

  /// The loop this operation is, or null.
  LoopOp* loop() {
    auto* boxed = std::get_if<Boxed<LoopOp>>(&value);
    return boxed ? &**boxed : nullptr;
  }
  const LoopOp* loop() const {
    const auto* boxed = std::get_if<Boxed<LoopOp>>(&value);
    return boxed ? &**boxed : nullptr;
  }
  /// The loop this operation is; std::bad_variant_access if it is none.
  LoopOp& asLoop() { return *std::get<Boxed<LoopOp>>(value); }
  const LoopOp& asLoop() const { return *std::get<Boxed<LoopOp>>(value); }
};

struct ContainerPlan {
  std::string name;
  ir::ContainerKind kind = ir::ContainerKind::Global;
  std::int64_t sizeBytes = -1;  // -1: unknown
  std::int64_t alignment = 16;
  std::optional<std::uint64_t> fixedAddress;  // --place
  bool scalar = false;  // a scalar (a stack slot at -O0: docs/register-model.md)
};

/// Accesses through one data-dependent index: one random element per iteration of a loop.
struct DrawGroup {
  int refreshSlot = -1;  // a new draw for every iteration of the loop at this slot; -1: one draw
  // The index is a value the loop carries (unknown to the analysis: a chase through a linked
  // structure): one run of the loop visits distinct elements, as a chase that revisits never ends.
  bool distinct = false;
  std::string index;     // the index as printed (diagnostics, tests)
  // The index holds only loads of containers whose stored values the stream keeps: it is read
  // from them ("indexFormula"), and drawn only where no value was stored.
  bool fromStoredValues = false;
  Formula indexFormula;
  std::string where;     // the first access through it, "x[col[j]] at file:line:col" (notes)
};

/// Calls "visit" on every operation of "block" and of the blocks nested in it, in program order
/// (a loop's pre, header, body and post blocks; a branch's arms; a frame's body).
template <typename B, typename Visit>
void forEachOp(B& block, const Visit& visit) {
  for (auto& op : block) {
    visit(op);
    if (auto* loop = op.loop()) {
      for (auto* inner : {&loop->pre, &loop->header, &loop->body, &loop->post}) forEachOp(*inner, visit);
    } else if (auto* branch = std::get_if<BranchOp>(&op.value)) {
      for (auto& arm : branch->arms) forEachOp(arm.body, visit);
    } else if (auto* frame = std::get_if<FrameOp>(&op.value)) {
      forEachOp(frame->body, visit);
    }
  }
}

struct Program {
  std::vector<ContainerPlan> containers;
  Block statics;  // allocation of globals and statics, before the entries
  Block body;     // the entry functions, one FrameOp each
  int slots = 0;  // loop slots used
  std::vector<DrawGroup> draws;
  std::vector<bool> valueContainers;  // per container: read as data by some index or bound, so its stored integers are kept
  std::vector<std::string> notes;  // modelling choices that make the result approximate
  bool approximate = false;

  /// forEachOp over the statics, then the entries.
  template <typename Visit>
  void forEachOp(const Visit& visit) {
    sim::forEachOp(statics, visit);
    sim::forEachOp(body, visit);
  }
  template <typename Visit>
  void forEachOp(const Visit& visit) const {
    sim::forEachOp(statics, visit);
    sim::forEachOp(body, visit);
  }
};

}  // namespace cats::sim
