// The stream's state machine: a stack of frames (blocks, loops in one of their phases),
// each remembering where it is, so next() can stop whenever the caller's buffer is full.
#include "sim/stream.hpp"

#include "sim/divide.hpp"
#include "sim/flatten_loops.hpp"
#include "sim/permutation.hpp"

#include "sim/repeating_loops.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <limits>

namespace cats::sim {

namespace {

// Iterations of one run of a chase at most (a list of 2^28 nodes is gigabytes): a cycle in the
// modelled data would run forever.
constexpr std::int64_t kChaseLimit = std::int64_t{1} << 28;

constexpr std::int64_t kMinRun = 2;  // shorter runs cost more (a batch ends per offer) than they save (the speed corpus, measured: docs/performance.md)

bool isLeafBody(const LoopOp& loop) {
  if (!loop.header.empty() || loop.body.empty()) return false;
  for (const Op& op : loop.body) {
    const auto* a = std::get_if<AccessOp>(&op.value);
    if (!a || a->randomOffset || a->recordsValue || !a->offset.isLinear()) return false;
  }
  return true;
}

/* Accesses (linear or random) and branches of such blocks: what runBranchyLeaf handles. */
bool isBranchyBlock(const Block& block) {
  for (const Op& op : block) {
    if (const auto* a = std::get_if<AccessOp>(&op.value)) {
      if ((!a->randomOffset && !a->offset.isLinear()) || a->recordsValue) return false;  // kept values are written on the plain path
      continue;
    }
    const auto* b = std::get_if<BranchOp>(&op.value);
    if (!b || b->arms.size() > 64) return false;  // armMask's width
    for (const Arm& arm : b->arms)
      if (!isBranchyBlock(arm.body)) return false;
  }
  return true;
}

/* "program" with its small loops written out, when the stream runs it so: with the fast paths,
   and without an observer (it is told of every loop entered). */
std::optional<Program> writtenOut(const Program& program, const StreamOptions& options) {
  if (!options.fastPaths || options.observer || !hasSmallLoops(program, options.binding.lazy)) return std::nullopt;
  return flattenSmallLoops(program, options.binding.lazy);
}

/* The layout the simulated process has: libm, when mapped, moves libc and mmapped blocks up. */
LayoutConstants processLayout(const StreamOptions& options) { return options.binding.libm ? withLibm(options.layout) : options.layout; }

}  // namespace

AddressStream::AddressStream(const Program& program, const StreamOptions& options)
    : flattened_(writtenOut(program, options)),
      program_(flattened_ ? *flattened_ : program),
      options_(options),
      slots_(kMaxSlots, 0),
      base_(program.containers.size(), 0),
      placed_(program.containers.size(), false),
      staticAddress_(program.containers.size(), 0),
      frameAddress_(program.containers.size()),
      heap_(processLayout(options)),
      stack_(options.layout.stackTop),
      leafAccesses_(kMaxSlots),
      branchyLeaves_(kMaxSlots),
      iteration_(kMaxSlots, 0),
      loopEntry_(kMaxSlots, 0),
      draws_(program.draws.size()),
      values_(program.containers.size()),
      indexes_{0, 0, 0, 0, 0, 0, std::vector<std::uint64_t>(program.draws.size(), 0), std::vector<std::uint64_t>(program.draws.size(), 0), {}},
      rng_(options.seed * 0x9E3779B97F4A7C15ull + 1),
      lazyNext_(options.layout.parameterBase) {
  if (options.binding.lazy) binding_.emplace(processLayout(options), options.binding.libm);
  layoutStatics();
  for (std::uint32_t c = 0; c < program.containers.size(); ++c) {
    const ContainerPlan& plan = program.containers[c];
    if (plan.kind == ir::ContainerKind::Parameter) baseFor(c);
  }
  if (!program_.body.empty()) frames_.push_back(Frame{&program_.body});  // the written-out program's, when there is one
  if (!program_.statics.empty()) frames_.push_back(Frame{&program_.statics});
}

std::uint64_t AddressStream::random() {
  std::uint64_t z = (rng_ += 0x9E3779B97F4A7C15ull);  // splitmix64: small, fast, seeded
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* GCC emits .bss objects in declaration order at -O0 and in reverse order when optimising. */
void AddressStream::layoutStatics() {
  std::vector<const AllocOp*> statics;
  for (const Op& op : program_.statics)
    if (const auto* a = std::get_if<AllocOp>(&op.value)) statics.push_back(a);
  if (options_.model == RegisterModel::O2) std::reverse(statics.begin(), statics.end());
  StaticModel model(options_.layout.staticBase);
  for (const AllocOp* a : statics) {
    const ContainerPlan& plan = program_.containers[a->container];
    std::int64_t bytes = std::max<std::int64_t>(plan.sizeBytes, 0);
    staticAddress_[a->container] = plan.fixedAddress.value_or(model.place(static_cast<std::uint64_t>(bytes), plan.alignment));
  }
}

/* Arrays of one frame: the first declared highest at -O0, the reverse when optimising. At -O0
   the scalars' slots come first, below the return address and the saved frame pointer, each
   naturally aligned in allocation order (GCC's -O0 frame: docs/register-model.md). */
void AddressStream::layoutFrame(const Block& body) {
  std::vector<const AllocOp*> arrays, slots;
  for (const Op& op : body)
    if (const auto* a = std::get_if<AllocOp>(&op.value); a && a->function == ir::AllocFunction::StackArray && !a->sizeBytes.dependsOnData() &&
                                                          a->sizeBytes.terms().empty())
      (options_.model == RegisterModel::O0 && program_.containers[a->container].scalar ? slots : arrays).push_back(a);
  if (options_.model == RegisterModel::O2) std::reverse(arrays.begin(), arrays.end());
  std::uint64_t framePointer = stack_.mark() - 16;
  std::uint64_t slot = framePointer;
  for (const AllocOp* a : slots) {
    std::uint64_t bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(a->sizeBytes.evaluate(slots_.data()), 1));
    slot = alignDown(slot - bytes, std::min<std::uint64_t>(bytes, 16));
    frameAddress_[a->container] = slot;
  }
  stack_.push(std::max<std::uint64_t>(64, alignUp(stack_.mark() - slot, 16)), 16);  // return address, saved registers, scalars
  for (const AllocOp* a : arrays) {
    std::uint64_t bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(a->sizeBytes.evaluate(slots_.data()), 0));
    frameAddress_[a->container] = stack_.push(bytes, std::max<std::int64_t>(a->alignment, 16));
  }
}

std::optional<std::uint64_t> AddressStream::baseOf(std::uint32_t container) const {
  if (!placed_[container]) return std::nullopt;
  return base_[container];
}

/* A container used before any allocation gets its own page-aligned block (entry parameters, pointees). */
std::uint64_t AddressStream::placeFirst(std::uint32_t container) {
  const ContainerPlan& plan = program_.containers[container];
  std::uint64_t bytes = plan.sizeBytes > 0 ? static_cast<std::uint64_t>(plan.sizeBytes) : (1ull << 30);
  base_[container] = plan.fixedAddress.value_or(lazyNext_);
  if (!plan.fixedAddress) lazyNext_ = alignUp(lazyNext_ + bytes, 4096) + 4096;
  placed_[container] = true;
  return base_[container];
}

std::uint64_t AddressStream::addressOf(const AccessOp& a) {
  std::uint64_t base = baseFor(a.container);
  if (!a.randomOffset) {
    lastOffset_ = a.offset.evaluate(slots_.data());
    return base + static_cast<std::uint64_t>(*lastOffset_);
  }
  std::int64_t size = program_.containers[a.container].sizeBytes;
  std::uint64_t stride = static_cast<std::uint64_t>(std::max<std::int64_t>(a.drawStride, 1));
  std::uint64_t elements = size > 0 ? quotient(static_cast<std::uint64_t>(size), stride) : 1;
  std::uint64_t element = 0;
  const std::int64_t rest = a.offset.evaluate(slots_.data());  // the field offset and iterator terms
  const DrawGroup& g = program_.draws[a.draw];
  std::optional<std::int64_t> stored =
      g.fromStoredValues && g.indexFormula.mayHaveValue(values_) ? g.indexFormula.evaluate(slots_.data(), values_) : std::nullopt;
  if (stored && *stored >= 0 && (size <= 0 || static_cast<std::uint64_t>(*stored) < elements)) {
    element = static_cast<std::uint64_t>(*stored);  // the program's own index
    ++indexes_.read;
    ++indexes_.readByGroup[a.draw];
    lastOffset_ = static_cast<std::int64_t>(element * stride) + rest;
  } else {
    element = drawElement(a.draw, std::max<std::uint64_t>(elements, 1));
    lastOffset_.reset();
  }
  return base + element * stride + static_cast<std::uint64_t>(rest);
}

std::uint64_t AddressStream::drawElement(std::uint32_t group, std::uint64_t elements) {
  usedPolicy_ = true;
  if (program_.draws[group].fromStoredValues) {
    ++indexes_.drawn;
    ++indexes_.drawnByGroup[group];
  }
  return remainder(drawOf(group, elements), elements);
}

bool AddressStream::drawnOnly(const AccessOp& a) const {
  const DrawGroup& g = program_.draws[a.draw];
  return a.randomOffset && a.offset.isLinear() && !(g.fromStoredValues && g.indexFormula.mayHaveValue(values_));
}

std::uint64_t AddressStream::drawnAddress(const LeafItem& item, std::int64_t i) {
  return item.base + static_cast<std::uint64_t>(item.stride * i) + drawElement(item.access->draw, item.elements) * item.drawStride;
}

/* Write "a", whose address was just computed: the value it stores is kept (each lane's, for a
   vector store of a vectorised loop), or what was there is forgotten. Hoisted and sunk stores
   (pre and post blocks) run at another iteration than the source's: forgotten. */
void AddressStream::recordValue(const AccessOp& a, Phase phase) {
  const std::uint32_t c = a.container;
  if (!lastOffset_) return values_.clear(c);  // written at a drawn place: anything in it may have changed
  const std::uint32_t scalar = a.scalarBytes != 0 ? a.scalarBytes : a.bytes;
  const std::uint32_t lanes = std::max<std::uint32_t>(a.bytes / std::max<std::uint32_t>(scalar, 1), 1);
  const bool inPlace = phase != Phase::Pre && phase != Phase::Post;
  if (lanes == 1) {
    std::optional<std::int64_t> v = a.hasValue && inPlace ? a.value.evaluate(slots_.data(), values_) : std::nullopt;
    if (v) values_.store(c, *lastOffset_, *v);
    else values_.forget(c, *lastOffset_);
    return;
  }
  const Frame* vector = nullptr;  // the innermost vectorised loop: lane k is its counter moved k source steps
  for (auto it = frames_.rbegin(); it != frames_.rend() && !vector; ++it)
    if (it->loop && it->loop->vectorFactor > 1 && it->phase == Phase::Body) vector = &*it;
  if (!vector || !a.hasValue || !inPlace || a.randomOffset || static_cast<std::int64_t>(lanes) != vector->loop->vectorFactor) {
    for (std::uint32_t k = 0; k < lanes; ++k) values_.forget(c, *lastOffset_ + static_cast<std::int64_t>(k * scalar));
    return;
  }
  const auto slot = static_cast<std::size_t>(vector->loop->slot);
  const std::int64_t saved = slots_[slot];
  const std::int64_t laneStep = vector->step / vector->loop->vectorFactor;
  for (std::uint32_t k = 0; k < lanes; ++k) {
    slots_[slot] = saved + static_cast<std::int64_t>(k) * laneStep;
    const std::int64_t offset = a.offset.evaluate(slots_.data());
    if (auto v = a.value.evaluate(slots_.data(), values_)) values_.store(c, offset, *v);
    else values_.forget(c, offset);
  }
  slots_[slot] = saved;
}

/* The group's random value, drawn again when its loop has started another iteration; a
   distinct group takes the next element of a random permutation of "elements" per loop run. */
std::uint64_t AddressStream::drawOf(std::uint32_t group, std::uint64_t elements) {
  const DrawGroup& g = program_.draws[group];
  std::uint64_t now = g.refreshSlot >= 0 ? iteration_[static_cast<std::size_t>(g.refreshSlot)] : 0;
  const Draw& d = draws_[group];
  if (d.done && d.iteration == now) return d.value;
  return drawAgain(group, elements, now);
}

std::uint64_t AddressStream::drawAgain(std::uint32_t group, std::uint64_t elements, std::uint64_t now) {
  const DrawGroup& g = program_.draws[group];
  std::size_t slot = static_cast<std::size_t>(std::max(g.refreshSlot, 0));
  Draw& d = draws_[group];
  d.done = true;
  d.iteration = now;
  if (!g.distinct) {
    d.value = random();
    return d.value;
  }
  if (d.run != loopEntry_[slot] || d.position >= elements) {
    d.run = loopEntry_[slot];
    d.key = random();
    d.position = 0;
  }
  d.value = permute(d.position++, elements, d.key);
  return d.value;
}

void AddressStream::allocate(const AllocOp& a) {
  const ContainerPlan& plan = program_.containers[a.container];
  std::uint64_t address;
  std::int64_t bytes = 0;
  if (!a.sizeBytes.dependsOnData()) {
    bytes = a.sizeBytes.evaluate(slots_.data());
  } else if (auto stored = a.sizeBytes.readsMemory() ? a.sizeBytes.evaluate(slots_.data(), values_) : std::nullopt) {
    bytes = *stored;  // malloc(nnz * sizeof(int)) with nnz = rowptr[n]
    ++indexes_.sizesRead;
  } else {
    bytes = std::max<std::int64_t>(plan.sizeBytes, 0);
    if (a.sizeBytes.readsMemory()) ++indexes_.sizesModelled;
  }
  bytes = std::max<std::int64_t>(bytes, 0);
  switch (a.function) {
    case ir::AllocFunction::StaticArray: address = staticAddress_[a.container]; break;
    case ir::AllocFunction::StackArray:
      address = frameAddress_[a.container] ? *frameAddress_[a.container] : stack_.push(static_cast<std::uint64_t>(bytes), a.alignment);
      break;
    default:
      callLibrary(std::string(ir::toString(a.function)));
      address = heap_.allocate(static_cast<std::uint64_t>(bytes), static_cast<std::uint64_t>(a.alignment));
      if (a.function == ir::AllocFunction::Calloc && !heap_.isMapped(address) && !plan.fixedAddress)
        zeroing_ = Zeroing{address, address + static_cast<std::uint64_t>(bytes), a.tag};
      break;
  }
  if (plan.fixedAddress) address = *plan.fixedAddress;
  values_.reset(a.container, static_cast<std::uint64_t>(bytes));  // new memory: nothing stored in it yet
  base_[a.container] = address;
  placed_[a.container] = true;
  if (options_.observer) options_.observer->allocated(a, address, static_cast<std::uint64_t>(bytes));
}

void AddressStream::release(const FreeOp& f) {
  if (!placed_[f.container]) return;
  values_.reset(f.container, 0);
  if (options_.observer) options_.observer->freed(f);
  const ContainerPlan& plan = program_.containers[f.container];
  if (plan.kind == ir::ContainerKind::Heap || plan.kind == ir::ContainerKind::Pointee) {
    callLibrary("free");
    heap_.release(base_[f.container]);
  }
}

/* A call of the C library function "function": with lazy binding, its first call runs ld.so's
   lookup first, with the stack pointer below the current frames. */
void AddressStream::callLibrary(const std::string& function) {
  if (!binding_) return;
  std::vector<LoaderAccess> lookup = binding_->call(function, stack_.mark() - options_.layout.callFrameBytes);
  if (lookup.empty()) return;
  if (loaderNext_ == loader_.size()) {
    loader_.clear();
    loaderNext_ = 0;
  }
  loader_.insert(loader_.end(), lookup.begin(), lookup.end());
}

void AddressStream::enterLoop(const LoopOp& loop) {
  if (options_.observer) options_.observer->entered(loop.scope);
  if (!loop.library.empty()) callLibrary(loop.library);
  loopEntry_[static_cast<std::size_t>(loop.slot)] = ++iterations_;
  // Built in place: a copy of the finished frame cost cholesky's loop entries a third of their
  // time (its wide loads waited for the narrow stores that had just written it).
  Frame& f = frames_.emplace_back();
  f.loop = &loop;
  f.entry = iterations_;
  std::int64_t start = 0, trips = 0, step = 1;
  auto count = [&](std::int64_t end) {
    std::int64_t distance = loop.increasing ? end - start : start - end;
    std::int64_t stride = loop.increasing ? step : -step;
    trips = distance <= 0 || stride <= 0
                ? 0
                : static_cast<std::int64_t>(quotient(static_cast<std::uint64_t>(distance) + static_cast<std::uint64_t>(stride) - 1,
                                                     static_cast<std::uint64_t>(stride)));
  };
  for (const LoopOp::Carried& c : loop.carried) slots_[c.slot] = c.start.evaluate(slots_.data(), values_).value_or(kUnknownCarried);
  std::optional<std::int64_t> storedStart, storedEnd, storedStep;
  if ((loop.segment || loop.tripsFromData) && !loop.tripsGiven && (loop.start.readsMemory() || loop.end.readsMemory())) {
    // Bounds loaded from values the program stored (a CSR row's rowptr[r], rowptr[r + 1]).
    storedStart = loop.start.evaluate(slots_.data(), values_);
    storedEnd = loop.end.evaluate(slots_.data(), values_);
    storedStep = loop.step.evaluate(slots_.data(), values_);
    const bool read = storedStart && storedEnd && storedStep;
    countBounds(loop.scope, read);
  }
  if (storedStart && storedEnd && storedStep) {
    start = *storedStart;
    step = *storedStep;
    count(*storedEnd);
  } else if (loop.segment) {
    start = loop.segmentIndex.evaluate(slots_.data()) * loop.segmentLength;
    trips = loop.segmentLength;
    usedPolicy_ = true;
  } else if (loop.tripsFromData) {
    start = loop.start.dependsOnData() ? 0 : loop.start.evaluate(slots_.data());
    trips = loop.tripsWhenUnknown;
    std::optional<bool> holds;  // its condition, from carried and stored values: a chase runs until it fails
    if (loop.tested && !loop.tripsGiven) {
      slots_[loop.slot] = start;
      holds = loop.testAfterBody ? std::optional<bool>(true) : loop.test.evaluate(slots_.data(), &values_);
      f.chase = holds && *holds;
      if (holds) trips = *holds ? kChaseLimit : 0;
      if (!f.chase) countBounds(loop.scope, holds.has_value());  // a chase is counted when it ends (endChase)
    }
    usedPolicy_ = usedPolicy_ || !holds;
  } else {
    start = loop.start.evaluate(slots_.data());
    std::int64_t end = loop.end.evaluate(slots_.data());
    step = loop.step.evaluate(slots_.data());
    count(end);
  }
  f.step = loop.tripsFromData && !loop.segment && !storedStart ? 1 : step;
  f.current = start;
  f.remaining = trips;
  slots_[loop.slot] = start;
  const bool carries = !loop.carried.empty() || f.chase;  // values computed at the end of every iteration: the plain path
  if (options_.fastPaths && !carries) {
    LoopShape& shape = shapes_[(std::hash<const LoopOp*>{}(&loop) >> 6) & (shapes_.size() - 1)];
    if (shape.loop != &loop) {
      const bool leaf = isLeafBody(loop);
      shape = LoopShape{&loop, leaf, !leaf && loop.header.empty() && !loop.body.empty() && isBranchyBlock(loop.body)};
    }
    f.leaf = shape.leaf || shape.branchy;
    f.branchy = shape.branchy;
  }
  if (options_.repeatPoints && !f.leaf && !carries && trips > 2) {
    auto [known, inserted] = moving_.try_emplace(&loop);
    if (inserted) known->second = movingAccesses(program_, loop);
    const auto& moving = known->second;
    f.repeats = moving && moving->empty();
    if (moving && !moving->empty() && options_.lineRunBytes != 0) f.moving = &*moving;
  }
  if (trips > 0) {
    f.phase = Phase::Pre;
    f.block = &loop.pre;
  } else {
    f.phase = Phase::Final;
    f.block = &loop.header;
  }
}

void AddressStream::enterBranch(const BranchOp& branch) {
  std::vector<const Arm*>& chosen = chosenArms_;  // members: no allocation per branch (5 % of nussinov)
  std::vector<const Arm*>& undecided = undecidedArms_;
  chosen.clear();
  undecided.clear();
  for (const Arm& arm : branch.arms) {
    auto value = arm.condition.evaluate(slots_.data());
    if (value && *value) {
      chosen.push_back(&arm);
      break;
    }
    if (!value) undecided.push_back(&arm);
  }
  if (chosen.empty() && !undecided.empty()) {
    usedPolicy_ = true;
    switch (options_.branches.kind) {
      case BranchPolicy::Kind::Both: chosen = undecided; break;
      case BranchPolicy::Kind::Then: chosen.push_back(undecided.front()); break;
      case BranchPolicy::Kind::Else: chosen.push_back(undecided.back()); break;
      case BranchPolicy::Kind::Probability: {
        double draw = static_cast<double>(random() >> 11) / static_cast<double>(1ull << 53);
        if (draw < options_.branches.probability) chosen.push_back(undecided.front());
        else if (undecided.size() > 1) chosen.push_back(undecided[1 + random() % (undecided.size() - 1)]);
        break;
      }
    }
  }
  for (auto it = chosen.rbegin(); it != chosen.rend(); ++it) {
    frames_.emplace_back().block = &(*it)->body;  // in place, as enterLoop's
    if (options_.observer) frames_.back().scope = (*it)->scope;
  }
  if (options_.observer && !chosen.empty()) {
    frames_.back().announced = true;
    options_.observer->entered(chosen.front()->scope);
  }
}

/* A function or arm frame ended: the observer hears it, and the start of the next arm the branch
   policy chose (policy "both" runs every undecided arm, one after the other). */
void AddressStream::exitArmOrFunction(std::size_t scope) {
  if (!options_.observer) return;
  options_.observer->exited(scope);
  if (frames_.empty() || !frames_.back().scope || frames_.back().announced) return;
  frames_.back().announced = true;
  options_.observer->entered(*frames_.back().scope);
}

void AddressStream::execute(const Op& op) {
  if (const auto* loop = op.loop()) return enterLoop(*loop);
  if (const auto* branch = std::get_if<BranchOp>(&op.value)) return enterBranch(*branch);
  if (const auto* frame = std::get_if<FrameOp>(&op.value)) {
    Frame f{&frame->body};
    f.stackMark = stack_.mark();
    if (options_.observer) {
      f.scope = frame->scope;
      f.announced = true;
      options_.observer->entered(frame->scope);
    }
    layoutFrame(frame->body);
    frames_.push_back(f);
    return;
  }
  if (const auto* a = std::get_if<AllocOp>(&op.value)) return allocate(*a);
  if (const auto* f = std::get_if<FreeOp>(&op.value)) return release(*f);
}

/* The current frame's block is done: a loop moves to its next phase, anything else ends. */
void AddressStream::endOfBlock() {
  Frame& f = frames_.back();
  f.pc = 0;
  if (!f.loop) {
    if (f.stackMark) stack_.restore(*f.stackMark);
    std::optional<std::size_t> scope = f.scope;
    frames_.pop_back();
    if (scope) exitArmOrFunction(*scope);
    return;
  }
  const LoopOp& loop = *f.loop;
  switch (f.phase) {
    case Phase::Pre:
      f.phase = Phase::Header;
      f.block = &loop.header;
      slots_[loop.slot] = f.current;
      startIteration(loop.slot);
      if (options_.observer) options_.observer->iterationStarted(loop.scope, f.current, f.step, loop.vectorFactor);
      return;
    case Phase::Header:
      f.phase = Phase::Body;
      f.block = &loop.body;
      if (f.leaf && f.branchy) f.leaf = prepareBranchyLeaf(f);
      else if (f.leaf) prepareLeaf(f);
      return;
    case Phase::Body:
      if (!loop.carried.empty()) advanceCarried(loop);
      f.current += f.step;
      slots_[loop.slot] = f.current;
      startIteration(loop.slot);
      if (f.chase) endChase(f);
      if (--f.remaining > 0) {
        f.phase = Phase::Header;
        f.block = &loop.header;
        if (options_.observer) options_.observer->iterationStarted(loop.scope, f.current, f.step, loop.vectorFactor);
        if (f.repeats) {
          repeatPoint_ = RepeatPoint{f.entry, frames_.size() - 1, f.remaining, -1, &loop};
        } else if (f.moving != nullptr) {
          // A point where a line run starts or goes on, and one after it to compare with.
          const std::int64_t same = lineRunLength(f);
          if (same > 0 || f.pointed) repeatPoint_ = RepeatPoint{f.entry, frames_.size() - 1, f.remaining, same, &loop};
          f.pointed = same > 0;
        }
      } else {
        f.phase = Phase::Final;
        f.block = &loop.header;
      }
      return;
    case Phase::Final:
      f.phase = Phase::Post;
      f.block = &loop.post;
      return;
    case Phase::Post:
    case Phase::Block:
      frames_.pop_back();
      if (options_.observer) options_.observer->exited(loop.scope);
      return;
  }
}

/* The values "loop" carries into its next iteration, all computed from this one's. */
void AddressStream::advanceCarried(const LoopOp& loop) {
  std::array<std::int64_t, kMaxSlots> next{};
  for (std::size_t k = 0; k < loop.carried.size(); ++k) next[k] = loop.carried[k].next.evaluate(slots_.data(), values_).value_or(kUnknownCarried);
  for (std::size_t k = 0; k < loop.carried.size(); ++k) slots_[static_cast<std::size_t>(loop.carried[k].slot)] = next[k];
}

/* Before the next iteration of a chase: its test decides whether there is one. A test without a
   value (a load found nothing) gives the loop --unknown-trips iterations in all (or ends it, if
   it ran them), and a chase at its limit ends; both count as modelled. */
void AddressStream::endChase(Frame& f) {
  const std::optional<bool> holds = f.loop->test.evaluate(slots_.data(), &values_);
  if (holds && *holds && f.remaining > 1) return;
  const std::int64_t done = kChaseLimit - f.remaining + 1;
  f.remaining = !holds && done < f.loop->tripsWhenUnknown ? f.loop->tripsWhenUnknown - done + 1 : 1;
  f.chase = false;
  const bool read = holds && !*holds;
  countBounds(f.loop->scope, read);
  if (!read) usedPolicy_ = true;
}

/* One entry of loop "scope" whose trip count was read from stored values ("read") or modelled. */
void AddressStream::countBounds(std::size_t scope, bool read) {
  ++(read ? indexes_.boundsRead : indexes_.boundsModelled);
  auto& perLoop = indexes_.boundsByLoop[scope];
  ++(read ? perLoop.first : perLoop.second);
}

/* The leaf loop's accesses with every slot but its own fixed: address = base + stride * i. */
void AddressStream::prepareLeaf(Frame& f) {
  const LoopOp& loop = *f.loop;
  std::size_t depth = static_cast<std::size_t>(loop.slot);
  auto& accesses = leafAccesses_[depth];
  accesses.clear();
  std::int64_t saved = slots_[loop.slot];
  slots_[loop.slot] = 0;
  for (const Op& op : loop.body) {
    const auto& a = std::get<AccessOp>(op.value);
    accesses.push_back(LeafAccess{baseFor(a.container) + static_cast<std::uint64_t>(a.offset.evaluate(slots_.data())),
                                  a.offset.coefficientOf(loop.slot), a.bytes, a.tag, a.repeat, a.write});
  }
  slots_[loop.slot] = saved;
  f.leafScratch = depth;
  findRuns(f);
}

/* Whether the linear leaf in leafAccesses_[f.leafScratch] may offer runs of same-line iterations. */
void AddressStream::findRuns(Frame& f) {
  const auto& accesses = leafAccesses_[f.leafScratch];
  f.leafSingle = std::all_of(accesses.begin(), accesses.end(), [](const LeafAccess& a) { return a.repeat == 1; });
  // A block holds an access in every iteration if its size is a power of two that divides the
  // block, its address now and the bytes it moves per iteration (a vector loop's step is its
  // width: a 16-byte access whose slot moves by 2 with 8 bytes per unit moves 16 bytes).
  const std::uint64_t block = options_.spanBlockBytes;
  f.leafSpan = options_.leafSpans && f.leafSingle && (block == 0 || std::all_of(accesses.begin(), accesses.end(), [block, &f](const LeafAccess& a) {
                                                       return a.staysInBlocks(f.current, f.step, block);
                                                     }));
  const auto line = static_cast<std::int64_t>(options_.runLineBytes);
  // A run is offered only when more than kMinRun iterations follow one: shorter loops need no
  // look at all (runLength was 13 % of kmeans with its 4-iteration feature loops).
  f.leafRuns = line > 0 && f.leafSingle && f.remaining > kMinRun + 1 && std::all_of(accesses.begin(), accesses.end(), [&](const LeafAccess& a) {
                 std::int64_t bytesPerIteration = a.stride * f.step;
                 return bytesPerIteration > -line && bytesPerIteration < line;
               });
}

/* Iterations after iteration "i" (at most "limit") whose every access stays in the line it
   used in iteration i; 0 if an access straddles two lines. */
std::int64_t AddressStream::runLength(const LeafAccess* accesses, std::size_t count, std::int64_t i, std::int64_t step,
                                      std::int64_t limit) const {
  std::int64_t best = limit;
  for (std::size_t k = 0; k < count; ++k) {
    const LeafAccess& a = accesses[k];
    const std::int64_t room = a.sameLineAfter(i, step, options_.runLineBytes);
    if (room < 0) return 0;
    best = std::min(best, room);
    if (best == 0) return 0;
  }
  return best;
}

/* For each moving access, the addresses it takes inside one iteration differ by multiples of g,
   the gcd of the line size and its inner loops' strides (all such multiples are assumed to
   occur), so it stays in its lines while its offset modulo g stays within g; the others take the
   same addresses in every iteration. */
std::int64_t AddressStream::lineRunLength(const Frame& f) const {
  const std::uint64_t line = options_.lineRunBytes;
  std::int64_t best = f.remaining - 1;
  for (const MovingAccess& m : *f.moving) {
    const AccessOp& a = *m.access;
    if (!placed_[a.container]) return 0;
    // gcd(line, innerGcd) without std::gcd's divisions: the line is a power of two, so it is the
    // smaller of the line and innerGcd's lowest set bit.
    const std::uint64_t g = m.innerGcd == 0 ? line : std::min<std::uint64_t>(line, m.innerGcd & (~m.innerGcd + 1));
    const std::uint64_t address = base_[a.container] + static_cast<std::uint64_t>(a.offset.evaluate(slots_.data()));
    const std::int64_t room = movesWithinBlock(address, a.bytes, m.bytesPerStep * f.step, g - 1);
    if (room < 0) return 0;
    best = std::min(best, room);
    if (best <= 0) return 0;
  }
  return best;
}

/* Called after iteration "i" when "remaining" reached the frame's next look: the first
   iteration in which some access entered a new line. The lines of iteration i are looked at
   once, and the next look is where one of them changes. True when a run of the iterations that
   stay in i's lines is offered now (the caller counts it in bulk if the first level still holds
   those lines after iteration i: docs/performance.md, "Bulk hits"). */
bool AddressStream::offerRun(Frame& f, const LeafAccess* accesses, std::size_t count, std::int64_t i, std::int64_t remaining) {
  const std::int64_t same = runLength(accesses, count, i, f.step, remaining);
  f.nextRunCheck = remaining - same - 1;
  if (same <= kMinRun) return false;
  run_ = LeafRun{count, same};
  return true;
}

void AddressStream::skipIterations(std::int64_t count) {
  Frame& f = frames_.back();  // the loop of the repeat point: nothing ran since
  if (repeatPoint_.remaining == 0 || count <= 0 || count > f.remaining) return;
  advanceLoop(f, count);
  slots_[f.loop->slot] = f.current;  // the next iteration's header reads it
  repeatPoint_ = RepeatPoint{};
}

void AddressStream::resolveRun(bool take) {
  if (run_.repeats == 0) return;
  Frame& f = frames_.back();  // the leaf that offered the run: nothing ran since
  if (take) advanceLoop(f, run_.repeats);  // declined: the run's iterations come one by one; the next look is at its end either way
  run_ = LeafRun{};
}

/* A branchy leaf body flattened, with every slot but the loop's own fixed. Containers first
   touched inside an arm would be placed at another time than on the plain path: no fast path. */
bool AddressStream::prepareBranchyLeaf(Frame& f) {
  const LoopOp& loop = *f.loop;
  const auto depth = static_cast<std::size_t>(loop.slot);
  BranchyLeaf& leaf = branchyLeaves_[depth];
  leaf.items.clear();
  leaf.arms.clear();
  const auto armsPlaced = [this](const auto& self, const Block& block, bool inArm) -> bool {
    for (const Op& op : block) {
      if (const auto* a = std::get_if<AccessOp>(&op.value)) {
        if (inArm && !placed_[a->container]) return false;
        continue;
      }
      for (const Arm& arm : std::get<BranchOp>(op.value).arms)
        if (!self(self, arm.body, true)) return false;
    }
    return true;
  };
  if (!armsPlaced(armsPlaced, loop.body, false)) return false;
  std::int64_t saved = slots_[loop.slot];
  slots_[loop.slot] = 0;
  flatten(loop.body, leaf, loop.slot);
  slots_[loop.slot] = saved;
  f.leafScratch = depth;
  f.leafMax = 0;
  for (const LeafItem& item : leaf.items)
    if (item.kind != LeafItem::Kind::Branch) f.leafMax += item.repeat;
  if (steadyArms(leaf, loop.slot)) {
    leafAccesses_[depth].clear();
    linearize(leaf, 0, static_cast<std::uint32_t>(leaf.items.size()), leafAccesses_[depth]);
    f.branchy = false;  // this run of the loop only: the next entry looks again
    findRuns(f);
  } else if (drawnSpanLeaf(f, leaf)) {
    leafAccesses_[depth].clear();
    linearize(leaf, 0, static_cast<std::uint32_t>(leaf.items.size()), leafAccesses_[depth]);
    f.drawnSpan = f.leafSpan = true;
    // An item's offset is its group's value modulo its element count, times its stride: the
    // same in every iteration for items that agree on all three, which share a slot.
    drawnSlots_.assign(leaf.items.size(), 0);
    slotLeaders_.clear();
    for (std::size_t k = 0; k < leaf.items.size(); ++k) {
      const LeafItem& item = leaf.items[k];
      if (item.kind != LeafItem::Kind::Random) continue;
      const auto same = std::find_if(slotLeaders_.begin(), slotLeaders_.end(), [&](std::uint32_t j) {
        const LeafItem& other = leaf.items[j];
        return other.access->draw == item.access->draw && other.elements == item.elements && other.drawStride == item.drawStride;
      });
      const auto slot = static_cast<std::uint32_t>(same - slotLeaders_.begin());
      if (same == slotLeaders_.end()) slotLeaders_.push_back(static_cast<std::uint32_t>(k));
      drawnSlots_[k] = slot + 1;
    }
  }
  return true;
}

/* Whether a branchy leaf is handed over as drawn spans: accesses only, each once per iteration,
   every random one drawn (LeafItem::drawn); with spanBlockBytes, each in one block whatever it
   draws (its size, a power of two, also divides its draw stride). */
bool AddressStream::drawnSpanLeaf(const Frame& f, const BranchyLeaf& leaf) const {
  const std::uint64_t block = options_.spanBlockBytes;
  return options_.leafSpans && std::all_of(leaf.items.begin(), leaf.items.end(), [&](const LeafItem& item) {
           if (item.kind == LeafItem::Kind::Branch || item.repeat != 1 || (item.kind == LeafItem::Kind::Random && !item.drawn)) return false;
           const LeafAccess a{item.base, item.stride, item.bytes, item.tag, item.repeat, item.write};
           const std::uint64_t low = std::max<std::uint64_t>(item.bytes, 1) - 1;
           return block == 0 || (a.staysInBlocks(f.current, f.step, block) && (item.kind == LeafItem::Kind::Linear || (item.drawStride & low) == 0));
         });
}

/* Draws in the order runBranchyLeaf makes them: per iteration a new one for the groups this loop
   renews, then each drawn item's element in item order (only a slot's first item draws: the
   others take the group's value of this iteration too). At most kDrawnTable offsets at a time. */
LeafSpan AddressStream::drawnSpan(const Frame& f, std::int64_t iterations) {
  constexpr std::size_t kDrawnTable = 2048;  // 16 KB: the table stays in the first-level cache
  const BranchyLeaf& leaf = branchyLeaves_[f.leafScratch];
  const std::size_t width = slotLeaders_.size() + 1;
  if (drawnFor_.entry != f.entry || drawnFor_.current != f.current || drawnFor_.iterations == 0) {
    const auto n = std::min<std::int64_t>(iterations, static_cast<std::int64_t>(std::max<std::size_t>(kDrawnTable / width, 1)));
    drawnOffsets_.resize(static_cast<std::size_t>(n) * width);
    slotBits_.assign(width, 0);
    std::uint64_t* out = drawnOffsets_.data();
    for (std::int64_t t = 0; t < n; ++t, out += width) {
      startIteration(f.loop->slot);
      out[0] = 0;
      for (std::size_t s = 1; s < width; ++s) {
        const LeafItem& item = leaf.items[slotLeaders_[s - 1]];
        out[s] = remainder(drawOf(item.access->draw, item.elements), item.elements) * item.drawStride;
        slotBits_[s] |= out[s];
      }
    }
    for (const LeafItem& item : leaf.items)  // counted as drawElement counts each
      if (item.kind == LeafItem::Kind::Random) {
        usedPolicy_ = usedPolicy_ || n > 0;
        if (program_.draws[item.access->draw].fromStoredValues) {
          indexes_.drawn += static_cast<std::uint64_t>(n);
          indexes_.drawnByGroup[item.access->draw] += static_cast<std::uint64_t>(n);
        }
      }
    drawnFor_ = DrawnFor{f.entry, f.current, n};
  }
  const auto& accesses = leafAccesses_[f.leafScratch];
  LeafSpan span{accesses.data(), accesses.size(), f.current, f.step, std::min(iterations, drawnFor_.iterations), 0};
  span.drawnOffsets = drawnOffsets_.data();
  span.drawnWidth = width;
  span.drawnSlots = drawnSlots_.data();
  span.drawnBits = slotBits_.data();
  return span;
}

namespace {

bool usesSlot(const Condition& c, int slot) {
  if (c.kind == Condition::Kind::Relation) return c.lhs.usesSlot(slot) || c.rhs.usesSlot(slot);
  return std::any_of(c.operands.begin(), c.operands.end(), [&](const Condition& o) { return usesSlot(o, slot); });
}

}  // namespace

/* Whether every iteration of the leaf runs the same arms: no draws (the policy takes both, the
   first or the last undecided arm), no random offsets, and no condition that names the loop's
   own iterator (the others are fixed while it runs). Then the leaf is a linear one, with runs
   of same-line iterations counted in bulk (docs/performance.md, "Branchy leaves with steady
   arms"). lcs, floyd_warshall and nussinov under the default --branch both. */
bool AddressStream::steadyArms(const BranchyLeaf& leaf, int loopSlot) const {
  if (options_.branches.kind == BranchPolicy::Kind::Probability) return false;
  for (const LeafItem& item : leaf.items) {
    if (item.kind == LeafItem::Kind::Random) return false;
    if (item.kind == LeafItem::Kind::Branch)
      for (const Arm& arm : item.branch->arms)
        if (usesSlot(arm.condition, loopSlot)) return false;
  }
  return true;
}

/* The accesses one iteration of a leaf with steady arms makes, in order: the arms armMask takes
   (evaluated once, as the first iteration's would be). */
void AddressStream::linearize(const BranchyLeaf& leaf, std::uint32_t begin, std::uint32_t end, std::vector<LeafAccess>& out) {
  for (std::uint32_t k = begin; k < end;) {
    const LeafItem& item = leaf.items[k];
    if (item.kind == LeafItem::Kind::Branch) {
      std::uint64_t mask = armMask(*item.branch);
      for (std::uint32_t arm = 0; mask != 0; ++arm, mask >>= 1)
        if (mask & 1) linearize(leaf, leaf.arms[item.armsBegin + arm].first, leaf.arms[item.armsBegin + arm].second, out);
      k = item.end;
      continue;
    }
    out.push_back(LeafAccess{item.base, item.stride, item.bytes, item.tag, item.repeat, item.write});
    ++k;
  }
}

void AddressStream::flatten(const Block& block, BranchyLeaf& leaf, std::int64_t loopSlot) {
  for (const Op& op : block) {
    if (const auto* a = std::get_if<AccessOp>(&op.value)) {
      LeafItem& item = leaf.items.emplace_back();  // in place: a copy of a finished one stalled on its stores
      item.write = a->write;
      item.bytes = a->bytes;
      item.tag = a->tag;
      item.repeat = a->repeat;
      item.base = baseFor(a->container);
      if (a->randomOffset) {
        item.kind = LeafItem::Kind::Random;
        item.access = a;  // drawn by addressOf, as on the plain path (draw groups, permutations)
        // The value memory stays as it is while a branchy leaf runs (it records no value): an
        // index drawn now is drawn in every iteration, and its address is mostly precomputed.
        if (drawnOnly(*a)) {
          const std::int64_t size = program_.containers[a->container].sizeBytes;
          item.drawn = true;
          item.base += static_cast<std::uint64_t>(a->offset.evaluate(slots_.data()));
          item.stride = a->offset.coefficientOf(static_cast<int>(loopSlot));
          item.drawStride = static_cast<std::uint64_t>(std::max<std::int64_t>(a->drawStride, 1));
          item.elements = std::max<std::uint64_t>(size > 0 ? quotient(static_cast<std::uint64_t>(size), item.drawStride) : 1, 1);
        }
      } else {
        item.base += static_cast<std::uint64_t>(a->offset.evaluate(slots_.data()));
        item.stride = a->offset.coefficientOf(static_cast<int>(loopSlot));
      }
      continue;
    }
    const auto& branch = std::get<BranchOp>(op.value);
    const std::size_t at = leaf.items.size();
    const auto armsBegin = static_cast<std::uint32_t>(leaf.arms.size());
    LeafItem& item = leaf.items.emplace_back();
    item.kind = LeafItem::Kind::Branch;
    item.branch = &branch;
    item.armsBegin = armsBegin;
    leaf.arms.resize(leaf.arms.size() + branch.arms.size());
    for (std::size_t k = 0; k < branch.arms.size(); ++k) {  // "item" may move: the arms push items
      auto begin = static_cast<std::uint32_t>(leaf.items.size());
      flatten(branch.arms[k].body, leaf, loopSlot);
      leaf.arms[armsBegin + k] = {begin, static_cast<std::uint32_t>(leaf.items.size())};
    }
    leaf.items[at].end = static_cast<std::uint32_t>(leaf.items.size());
  }
}

/* The arms enterBranch() would run, as bits: the same evaluations and draws in the same order. */
std::uint64_t AddressStream::armMask(const BranchOp& branch) {
  std::uint64_t undecided = 0;
  for (std::size_t k = 0; k < branch.arms.size(); ++k) {
    auto value = branch.arms[k].condition.evaluate(slots_.data());
    if (value && *value) return std::uint64_t{1} << k;
    if (!value) undecided |= std::uint64_t{1} << k;
  }
  if (undecided == 0) return 0;
  usedPolicy_ = true;
  const std::uint64_t first = undecided & (~undecided + 1);
  switch (options_.branches.kind) {
    case BranchPolicy::Kind::Both: return undecided;
    case BranchPolicy::Kind::Then: return first;
    case BranchPolicy::Kind::Else: return std::uint64_t{1} << (63 - std::countl_zero(undecided));
    case BranchPolicy::Kind::Probability: {
      double draw = static_cast<double>(random() >> 11) / static_cast<double>(1ull << 53);
      if (draw < options_.branches.probability) return first;
      const auto count = static_cast<std::uint64_t>(std::popcount(undecided));
      if (count < 2) return 0;
      std::uint64_t pick = 1 + random() % (count - 1);  // the pick-th undecided arm, from 0
      std::uint64_t rest = undecided;
      for (; pick > 0; --pick) rest &= rest - 1;
      return rest & (~rest + 1);
    }
  }
  return 0;
}

/* Items [begin, end) of one iteration "i" into "out" (room for leafMax records). */
std::size_t AddressStream::emitItems(const BranchyLeaf& leaf, std::uint32_t begin, std::uint32_t end, std::int64_t i, Record* out) {
  std::size_t n = 0;
  for (std::uint32_t k = begin; k < end;) {
    const LeafItem& item = leaf.items[k];
    if (item.kind == LeafItem::Kind::Branch) {
      std::uint64_t mask = armMask(*item.branch);
      for (std::uint32_t arm = 0; mask != 0; ++arm, mask >>= 1)
        if (mask & 1) {
          const auto& range = leaf.arms[item.armsBegin + arm];
          n += emitItems(leaf, range.first, range.second, i, out + n);
        }
      k = item.end;
      continue;
    }
    std::uint64_t address;
    if (item.kind == LeafItem::Kind::Linear) {
      address = item.base + static_cast<std::uint64_t>(item.stride * i);
    } else {
      address = item.drawn ? drawnAddress(item, i) : addressOf(*item.access);
    }
    for (std::uint32_t r = 0; r < item.repeat; ++r) out[n++] = Record{address, item.bytes, item.tag, item.write};
    ++k;
  }
  return n;
}

/* Whole iterations of a branchy leaf straight into the buffer; when one may not fit, the
   iteration goes to pending_ and the buffer takes what fits of it. */
std::size_t AddressStream::runBranchyLeaf(Frame& f, Record* out, std::size_t capacity) {
  const LoopOp& loop = *f.loop;
  const BranchyLeaf& leaf = branchyLeaves_[f.leafScratch];
  const auto count = static_cast<std::uint32_t>(leaf.items.size());
  std::size_t n = 0;
  bool spill = false;
  while (f.remaining > 0) {
    Record* target = out + n;
    if (capacity - n < f.leafMax) {
      if (n > 0) break;  // the caller's buffer goes back as it is
      pending_.resize(f.leafMax);
      target = pending_.data();
      spill = true;
    }
    slots_[loop.slot] = f.current;
    startIteration(loop.slot);  // a new iteration for the draw groups refreshed by this loop
    std::size_t made = emitItems(leaf, 0, count, f.current, target);
    f.current += f.step;
    --f.remaining;
    if (spill) {
      pending_.resize(made);
      std::size_t taken = std::min(made, capacity);
      std::copy_n(pending_.begin(), taken, out);
      pendingNext_ = taken;
      n = taken;
      break;
    }
    n += made;
  }
  slots_[loop.slot] = f.current;
  if (f.remaining == 0) {
    f.phase = Phase::Final;
    f.block = &loop.header;
  }
  return n;
}

/* The fast path: whole iterations of a leaf body straight into the buffer. */
std::size_t AddressStream::runLeaf(Frame& f, Record* out, std::size_t capacity) {
  const LoopOp& loop = *f.loop;
  const LeafAccess* accesses = leafAccesses_[f.leafScratch].data();
  const std::size_t count = leafAccesses_[f.leafScratch].size();
  std::size_t n = 0;
  if (f.leafSingle && f.pc == 0) {
    std::int64_t current = f.current, remaining = f.remaining;
    const std::int64_t step = f.step;
    while (remaining > 0 && n + count <= capacity) {
      for (std::size_t k = 0; k < count; ++k) out[n + k] = accesses[k].at(current);
      n += count;
      current += step;
      --remaining;
      if (f.leafRuns && remaining > 0 && remaining <= f.nextRunCheck && offerRun(f, accesses, count, current - step, remaining))
        break;  // the batch ends here: the caller simulates this iteration first
    }
    f.current = current;
    f.remaining = remaining;
    if (remaining == 0) {
      slots_[loop.slot] = current;
      f.phase = Phase::Final;
      f.block = &loop.header;
      return n;
    }
    if (run_.repeats != 0) return n;
  }
  while (n < capacity) {
    const LeafAccess& a = accesses[f.pc];
    const std::uint64_t address = a.addressAt(f.current);
    while (f.repeatsDone < a.repeat && n < capacity) {
      out[n++] = Record{address, a.bytes, a.tag, a.write};
      ++f.repeatsDone;
    }
    if (f.repeatsDone < a.repeat) break;
    f.repeatsDone = 0;
    if (++f.pc < count) continue;
    f.pc = 0;
    f.current += f.step;
    if (--f.remaining == 0) {
      slots_[loop.slot] = f.current;
      f.phase = Phase::Final;
      f.block = &loop.header;
      break;
    }
  }
  return n;
}

LeafSpan AddressStream::leafSpan(std::int64_t limit) {
  run_ = LeafRun{};  // as next(): an offer not resolved is declined
  repeatPoint_ = RepeatPoint{};
  atSpan_ = false;
  if (pendingNext_ < pending_.size() || loaderNext_ < loader_.size() || zeroing_.next < zeroing_.end || frames_.empty()) return {};
  const Frame& f = frames_.back();
  if (!spanStartsAt(f) || f.remaining <= 0) return {};
  if (f.drawnSpan) return drawnSpan(f, spanIterations(f, limit));
  const auto& accesses = leafAccesses_[f.leafScratch];
  return LeafSpan{accesses.data(), accesses.size(), f.current, f.step, spanIterations(f, limit), f.leafRuns ? options_.runLineBytes : 0};
}

/* Whether loop "f" is at the start of a leaf iteration that leafSpan() hands over. */
bool AddressStream::spanStartsAt(const Frame& f) const {
  return f.leaf && (!f.branchy || f.drawnSpan) && f.leafSpan && f.phase == Phase::Body && f.pc == 0;
}

/* Loop "f" past "iterations" more iterations; at its end, on to its final header. True if it ended. */
bool AddressStream::advanceLoop(Frame& f, std::int64_t iterations) {
  f.current += iterations * f.step;
  f.remaining -= iterations;
  if (f.remaining != 0) return false;
  slots_[f.loop->slot] = f.current;
  f.phase = Phase::Final;
  f.block = &f.loop->header;
  return true;
}

bool AddressStream::finishLeafSpan(LeafSpan& span, std::int64_t limit) {
  Frame& f = frames_.back();
  if (advanceLoop(f, span.iterations)) return false;
  if (f.drawnSpan) {
    drawnFor_.iterations = 0;  // a drawn span is its whole table: the next one draws anew
    span = drawnSpan(f, spanIterations(f, limit));
    return true;
  }
  span.current = f.current;
  span.iterations = spanIterations(f, limit);
  return true;
}

std::size_t AddressStream::next(Record* out, std::size_t capacity) {
  std::size_t n = 0;
  run_ = LeafRun{};  // an offer not resolved is declined
  repeatPoint_ = RepeatPoint{};
  atSpan_ = false;
  while (n < capacity && pendingNext_ < pending_.size()) out[n++] = pending_[pendingNext_++];
  if (pendingNext_ == pending_.size()) {
    pending_.clear();
    pendingNext_ = 0;
  }
  if (n > 0) return n;
  while (n < capacity && (!frames_.empty() || zeroing_.next < zeroing_.end || loaderNext_ < loader_.size())) {
    if (loaderNext_ < loader_.size()) {  // before calloc's zeroing: the lookup runs before the function
      const LoaderAccess& a = loader_[loaderNext_++];
      out[n++] = Record{a.address, 8, options_.binding.tag, a.write};
      continue;
    }
    if (zeroing_.next < zeroing_.end) {
      std::uint64_t bytes = std::min<std::uint64_t>(32, zeroing_.end - zeroing_.next);
      out[n++] = Record{zeroing_.next, static_cast<std::uint32_t>(bytes), zeroing_.tag, true};
      zeroing_.next += bytes;
      continue;
    }
    Frame& f = frames_.back();
    if (spanStartsAt(f)) {
      atSpan_ = true;  // the caller takes it with leafSpan()
      break;
    }
    if (f.leaf && f.phase == Phase::Body) {
      if (!f.branchy) {
        n += runLeaf(f, out + n, capacity - n);
        if (run_.repeats != 0) break;
        continue;
      }
      const std::size_t made = runBranchyLeaf(f, out + n, capacity - n);
      n += made;
      if (pendingNext_ < pending_.size()) break;  // the buffer is full
      continue;
    }
    if (f.pc >= f.block->size()) {
      endOfBlock();
      if (repeatPoint_.remaining == 0) continue;
      break;  // the caller sees the state at the iteration's start (maybe after no records at all)
    }
    const Op& op = (*f.block)[f.pc];
    if (const auto* a = std::get_if<AccessOp>(&op.value)) {
      if (f.repeatsDone == 0) {
        f.address = addressOf(*a);  // once per access: a random offset draws once, whatever the buffer
        if (a->recordsValue) recordValue(*a, f.phase);
      }
      while (f.repeatsDone < a->repeat && n < capacity) {
        out[n++] = Record{f.address, a->bytes, a->tag, a->write};
        ++f.repeatsDone;
      }
      if (f.repeatsDone < a->repeat) break;
      f.repeatsDone = 0;
      ++f.pc;
      continue;
    }
    ++f.pc;
    execute(op);
  }
  return n;
}

}  // namespace cats::sim
