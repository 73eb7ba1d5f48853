// The address stream of a simulation program, produced lazily in program order: next()
// fills a caller's buffer and keeps its place, so memory stays bounded however many
// accesses the program makes.
#pragma once

#include "sim/concretize.hpp"
#include "sim/divide.hpp"
#include "sim/lazy_binding.hpp"
#include "sim/placement.hpp"
#include "sim/program.hpp"
#include "sim/repeating_loops.hpp"
#include "sim/value_memory.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <unordered_map>
#include <vector>

namespace cats::sim {

struct Record {
  std::uint64_t address = 0;
  std::uint32_t bytes = 0;
  std::uint32_t tag = 0;  // trace event index
  bool write = false;
};

/// Told of the program's structure as the stream walks it (an event export: sim/event_trace.hpp),
/// in program order relative to the records when the caller asks for one record per batch and
/// turns fastPaths off (the fast paths run whole iterations without entering their branches).
class StreamObserver {
 public:
  virtual ~StreamObserver() = default;
  virtual void allocated(const AllocOp& op, std::uint64_t address, std::uint64_t bytes) = 0;
  virtual void freed(const FreeOp& op) = 0;
  /// A Function, Call, Loop or Branch scope of the trace starts (a loop: once per entry, not per
  /// iteration) or ends.
  virtual void entered(std::size_t scope) = 0;
  virtual void exited(std::size_t scope) = 0;
  /// An iteration of the Loop scope "scope" starts (before its header's accesses), with the
  /// iterator at "iterator", moving by "step" per iteration and doing "width" source iterations
  /// (a vectorised loop's vector factor); the per-thread streams of a parallel loop
  /// (sim/parallel_loop.hpp) are cut there. Most observers ignore it.
  virtual void iterationStarted(std::size_t scope, std::int64_t iterator, std::int64_t step, int width) {
    (void)scope, (void)iterator, (void)step, (void)width;
  }
};

struct StreamOptions {
  std::uint64_t seed = 1;
  BranchPolicy branches;
  RegisterModel model = RegisterModel::O2;  // decides the order the compiler lays out arrays
  LayoutConstants layout;
  bool fastPaths = true;          // leaf loops (branchy ones too) without the frame machine; false: the plain path, for tests
  std::uint32_t runLineBytes = 0;  // first-level line size: offer runs of same-line iterations (0: never; docs/performance.md)
  bool repeatPoints = false;       // end a batch where an iteration of a loop that repeats its accesses starts (warping)
  std::uint32_t lineRunBytes = 0;  // with repeatPoints, the smallest line size: repeat points at line runs of outer iterations too (0: none)
  bool leafSpans = false;          // next() stops before a leaf that leafSpan() can hand over (the caller takes spans)
  std::uint64_t spanBlockBytes = 0;  // with leafSpans: only leaves whose every access stays in one aligned block of this many bytes (0: any)
  // simulate() on two threads, of a program whose accesses may cross lines: parts of the largest
  // blocks the sets allow, accesses straddling them settled after each span's walk, warps decided
  // by both parts together. False: such a program runs on one thread (for tests and comparisons).
  bool warpTogether = true;
  StreamObserver* observer = nullptr;  // told of allocations, frees and scopes (not owned)
  BindingOptions binding;          // lazy: ld.so's accesses at each library function's first call, tagged binding.tag
};

/// Offered by the stream at the end of a batch: the last "count" records (one leaf iteration)
/// repeat the same lines, in the same order, "repeats" more times.
struct LeafRun {
  std::size_t count = 0;
  std::int64_t repeats = 0;
};

/// Where the last batch ended with repeatPoints: the start of an iteration of a loop whose every
/// iteration makes the same accesses (docs/performance.md, "Warping").
struct RepeatPoint {
  std::uint64_t entry = 0;  // the loop's run: a number new at every entry of a loop
  std::size_t depth = 0;    // the loop's place in the stream's frame stack (outer loops lower)
  std::int64_t remaining = 0;  // iterations left, the one starting now included (0: no repeat point)
  // -1: the loop repeats (every iteration the same accesses). Else a line run: this many of the
  // iterations after this one use this one's lines in the same order (docs/performance.md).
  std::int64_t sameAfter = -1;
  const LoopOp* loop = nullptr;  // the loop's identity across its runs
};

/// How many more moves by "d" bytes keep the "bytes" at "first" inside their aligned block of
/// mask + 1 bytes (a power of two): -1 if they straddle two blocks already, the maximum if d is 0.
/// Masks and shifts, not divisions, where the stride is a power of two too (most are): four 64-bit
/// divisions per access were a third of lcs's and a fifth of matmul_ikj's time.
inline std::int64_t movesWithinBlock(std::uint64_t first, std::uint32_t bytes, std::int64_t d, std::uint64_t mask) {
  const std::uint64_t last = first + std::max<std::uint32_t>(bytes, 1) - 1;
  if (((first ^ last) & ~mask) != 0) return -1;
  if (d == 0) return std::numeric_limits<std::int64_t>::max();
  const std::uint64_t left = d > 0 ? mask - (last & mask) : first & mask;  // bytes it may still move
  const auto moves = static_cast<std::uint64_t>(d > 0 ? d : -d);
  if (moves > left) return 0;  // a column walk: out of the block at once, without a division
  return static_cast<std::int64_t>(quotient(left, moves));
}

/// One access of a leaf loop with every slot but the loop's own fixed: address = base + stride * i.
struct LeafAccess {
  std::uint64_t base;
  std::int64_t stride;
  std::uint32_t bytes;
  std::uint32_t tag;
  std::uint32_t repeat;
  bool write;

  std::uint64_t addressAt(std::int64_t i) const { return base + static_cast<std::uint64_t>(stride * i); }
  /// The record this access makes in iteration "i".
  Record at(std::int64_t i) const { return Record{addressAt(i), bytes, tag, write}; }
  /// Iterations after iteration "i" (moving "step" per iteration) in which this access stays in
  /// its line of "lineBytes" (a power of two); -1 if it already spans two lines.
  std::int64_t sameLineAfter(std::int64_t i, std::int64_t step, std::uint64_t lineBytes) const {
    return movesWithinBlock(addressAt(i), bytes, stride * step, lineBytes - 1);
  }
  /// True if from iteration "i" on (moving "step" per iteration) this access lies within one
  /// aligned block of "blockBytes" (a power of two) in every iteration: its size (at least 1) is
  /// a power of two no larger than the block, dividing its address now and the bytes it moves.
  bool staysInBlocks(std::int64_t i, std::int64_t step, std::uint64_t blockBytes) const {
    // Masks, not std::has_single_bit and "%": a library call for popcount (no -mpopcnt) and two
    // divisions per access and span were 4 % of floyd_warshall.
    const std::uint64_t size = std::max<std::uint64_t>(bytes, 1), low = size - 1;
    return (size & low) == 0 && size <= blockBytes && (addressAt(i) & low) == 0 && (static_cast<std::uint64_t>(stride * step) & low) == 0;
  }
};

/// Iterations of a leaf loop the caller simulates straight from its accesses, without records
/// (docs/performance.md, "Leaf loops in place"): iteration j (0 <= j < iterations) makes
/// accesses[0..count) in order, access k at accesses[k].base + accesses[k].stride * (current + j * step).
/// The caller looks for runs of same-line iterations itself (docs/performance.md, "Bulk hits").
struct LeafSpan {
  const LeafAccess* accesses = nullptr;
  std::size_t count = 0;
  std::int64_t current = 0;
  std::int64_t step = 0;
  std::int64_t iterations = 0;  // 0: the stream is not at such a leaf (call next())
  std::uint32_t runLineBytes = 0;  // runs of iterations in the same lines of this size may be counted in bulk (0: none)
  // A leaf with drawn indexes (kmeans's sums[label[i]][d]): iteration j's offsets are the
  // drawnWidth entries from drawnOffsets[j * drawnWidth], the first 0; access k is
  // drawnOffsets[j * drawnWidth + drawnSlots[k]] bytes further (slot 0: a linear access).
  // Accesses with the same slot draw the same offset in every iteration. drawnBits[s]: the bits
  // any of slot s's offsets in this span has (ORed). Null: none. Never offered runs.
  const std::uint64_t* drawnOffsets = nullptr;
  std::size_t drawnWidth = 0;
  const std::uint32_t* drawnSlots = nullptr;
  const std::uint64_t* drawnBits = nullptr;

  /// The drawn offset of access "k" in iteration "j" of the span (0 without draws).
  std::uint64_t drawnOffset(std::int64_t j, std::size_t k) const {
    return drawnOffsets ? drawnOffsets[static_cast<std::size_t>(j) * drawnWidth + drawnSlots[k]] : 0;
  }
};

class AddressStream {
 public:
  AddressStream(const Program& program, const StreamOptions& options);

  /// Writes up to "capacity" records (capacity >= 1) to "out"; 0 means the stream has ended,
  /// except with repeatPoints, where a batch may end at a repeat point with no records.
  std::size_t next(Record* out, std::size_t capacity);
  /// Where next() would run a leaf loop whose accesses each happen once per iteration (each
  /// inside one block of spanBlockBytes, if set), with nothing before them: its next iterations,
  /// at most "limit", for the caller to simulate in place of next(); else iterations 0. Like
  /// next(), it ends the last batch's offer and repeat point. A span is never offered a run:
  /// its runLineBytes lets the caller find them.
  LeafSpan leafSpan(std::int64_t limit);
  /// The caller accounted for all of "span" (from leafSpan or the last call): the stream goes
  /// past it. True if the leaf goes on: "span" is then its next iterations (at most "limit").
  bool finishLeafSpan(LeafSpan& span, std::int64_t limit);
  /// True if a batch of "made" records from next() means the stream has ended.
  bool ended(std::size_t made) const { return made == 0 && repeatPoint_.remaining == 0 && !atSpan_; }

  /// Base address each container had when last allocated (nullopt: never placed).
  std::optional<std::uint64_t> baseOf(std::uint32_t container) const;
  /// A random draw or a branch policy decided part of the stream.
  bool usedPolicy() const { return usedPolicy_; }
  /// The run offered at the end of the last batch (repeats 0: none); only with runLineBytes.
  const LeafRun& offeredRun() const { return run_; }
  /// The caller simulated the offered iteration: all first-level hits with no other effect
  /// ("take": the stream skips the run, the caller counts it) or not (the stream goes on).
  void resolveRun(bool take);
  /// The repeat point the last batch ended at (remaining 0: none).
  const RepeatPoint& repeatPoint() const { return repeatPoint_; }
  /// Right after a repeat point: skip "count" (at most remaining) whole iterations of its loop.
  void skipIterations(std::int64_t count);
  /// Indexes and loop bounds read from the values the program stored ("read"), and those that
  /// found no stored value and were drawn or modelled instead ("drawn"), so far.
  struct StoredValueUse {
    std::uint64_t read = 0, drawn = 0, boundsRead = 0, boundsModelled = 0, sizesRead = 0, sizesModelled = 0;
    std::vector<std::uint64_t> drawnByGroup;  // per Program::draws group
    std::vector<std::uint64_t> readByGroup;   // per Program::draws group
    std::unordered_map<std::size_t, std::pair<std::uint64_t, std::uint64_t>> boundsByLoop;  // loop scope -> (read, modelled)
  };
  const StoredValueUse& storedValueUse() const { return indexes_; }
  /// With lazy binding, the library functions the program called so far (docs/register-model.md, "Lazy binding").
  const LazyBinding* binding() const { return binding_ ? &*binding_ : nullptr; }

 private:
  enum class Phase : std::uint8_t { Block, Pre, Header, Body, Final, Post };
  struct Frame {
    const Block* block = nullptr;
    std::size_t pc = 0;
    std::uint32_t repeatsDone = 0;
    std::uint64_t address = 0;  // of the access being repeated
    const LoopOp* loop = nullptr;
    Phase phase = Phase::Block;
    std::int64_t current = 0;
    std::int64_t step = 1;
    std::int64_t remaining = 0;
    bool leaf = false;           // body is linear accesses only: the fast path applies
    std::size_t leafScratch = 0;  // index of this loop's precomputed bases
    bool leafSingle = false;      // every leaf access happens once per iteration
    bool leafSpan = false;        // leafSpan() hands it over (leafSingle, and StreamOptions::leafSpans and spanBlockBytes allow)
    bool branchy = false;         // a leaf body with branches or random offsets: runBranchyLeaf
    bool drawnSpan = false;       // a branchy body of accesses only, each index drawn: leafSpan() hands it over with drawnOffsets
    bool leafRuns = false;        // runs of same-line iterations are possible and offered
    bool repeats = false;         // every iteration makes the same accesses: repeat points at their starts
    const std::vector<MovingAccess>* moving = nullptr;  // else line runs: the accesses that move with the counter
    bool pointed = false;         // a line-run point was made at the last iteration's start
    bool chase = false;           // runs while its test holds (LoopOp::tested), not a count
    std::uint64_t entry = 0;      // the loopEntry_ number of this run of the loop
    std::size_t leafMax = 0;      // records of one branchy iteration at most
    // Runs are looked for once per line change, not per iteration: the "remaining" value of the next look.
    std::int64_t nextRunCheck = std::numeric_limits<std::int64_t>::max();
    std::optional<std::uint64_t> stackMark{};  // "{}" keeps "Frame{block}" free of missing-initializer warnings
    std::optional<std::size_t> scope{};        // a function's or an arm's trace scope, for the observer
    bool announced = false;                    // the observer was told "scope" started (arms wait their turn)
  };

  std::optional<Program> flattened_;  // the program with small loops written out (with the fast paths)
  const Program& program_;
  StreamOptions options_;
  std::vector<std::int64_t> slots_;
  std::vector<std::uint64_t> base_;
  std::vector<bool> placed_;
  std::vector<std::uint64_t> staticAddress_;
  std::vector<std::optional<std::uint64_t>> frameAddress_;  // stack arrays laid out at frame entry
  HeapModel heap_;
  StackModel stack_;
  std::vector<Frame> frames_;
  std::vector<std::vector<LeafAccess>> leafAccesses_;  // per nesting depth of leaf loops
  /// A branchy leaf body, flattened in program order: an access (linear or random) or a branch
  /// whose arms are item ranges (arms_[armsBegin + arm]) and which ends at item "end".
  struct LeafItem {
    enum class Kind : std::uint8_t { Linear, Random, Branch } kind = Kind::Linear;
    bool write = false;
    std::uint32_t bytes = 0, tag = 0, repeat = 1;
    std::uint64_t base = 0;
    std::int64_t stride = 0;
    const AccessOp* access = nullptr;  // Random: the access addressOf draws for
    // Random, when "drawn" (its index is drawn throughout this run of the leaf: drawnOnly):
    // address = base + stride * i + element * drawStride, element drawn among "elements".
    bool drawn = false;
    std::uint64_t drawStride = 1, elements = 1;
    const BranchOp* branch = nullptr;
    std::uint32_t armsBegin = 0, end = 0;
  };
  struct BranchyLeaf {
    std::vector<LeafItem> items;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> arms;
  };
  std::vector<BranchyLeaf> branchyLeaves_;  // per nesting depth
  std::vector<Record> pending_;  // the rest of a branchy iteration that did not fit the caller's buffer
  std::size_t pendingNext_ = 0;
  LeafRun run_;
  std::vector<const Arm*> chosenArms_, undecidedArms_;  // enterBranch's scratch
  bool atSpan_ = false;  // the last batch stopped before a leaf for leafSpan() (with leafSpans)
  // A drawn span's offsets (LeafSpan::drawnOffsets), drawn for the iterations from "current" of
  // the loop run "entry": a span offered again is not drawn again.
  std::vector<std::uint64_t> drawnOffsets_;
  std::vector<std::uint32_t> drawnSlots_;   // LeafSpan::drawnSlots of the drawn leaf being run
  std::vector<std::uint32_t> slotLeaders_;  // per slot from 1: its first item, which draws it
  std::vector<std::uint64_t> slotBits_;     // LeafSpan::drawnBits of drawnOffsets_
  struct DrawnFor {
    std::uint64_t entry = 0;
    std::int64_t current = 0, iterations = 0;
  } drawnFor_;
  RepeatPoint repeatPoint_;
  // movingAccesses(), once per loop: none moving means the loop repeats.
  std::unordered_map<const LoopOp*, std::optional<std::vector<MovingAccess>>> moving_;
  /// Whether a loop's body is a linear leaf, or a branchy one (isLeafBody, isBranchyBlock), for
  /// the loops entered last: walking the body's ops at every entry touched lines the simulation
  /// had pushed out of the cache (floyd_warshall: 9 % of its time). A small table by the loop's
  /// address (ops are larger than 64 bytes), not a hash map: a bucket there is a division, which
  /// cost as much; a loop whose slot another took is looked at again.
  struct LoopShape {
    const LoopOp* loop = nullptr;
    bool leaf = false, branchy = false;
  };
  std::array<LoopShape, 64> shapes_{};
  std::vector<std::uint64_t> iteration_;  // per slot: a number new at every iteration its loop starts
  std::uint64_t iterations_ = 0;
  std::vector<std::uint64_t> loopEntry_;  // per slot: a number new at every entry of its loop
  struct Draw {
    std::uint64_t iteration = 0;  // the iteration_ of the group's refresh slot when drawn
    std::uint64_t value = 0;
    bool done = false;
    std::uint64_t run = 0;        // distinct groups: the loopEntry_ their permutation belongs to
    std::uint64_t key = 0;        // distinct groups: the permutation of this run
    std::uint64_t position = 0;   // distinct groups: draws made in this run
  };
  std::vector<Draw> draws_;  // per Program::draws group
  ValueMemory values_;       // the integers stored in Program::valueContainers
  std::optional<std::int64_t> lastOffset_;  // offset in its container of the access addressOf placed last (none: drawn)
  StoredValueUse indexes_;
  std::uint64_t rng_;
  std::uint64_t lazyNext_;
  bool usedPolicy_ = false;
  struct Zeroing {
    std::uint64_t next = 0, end = 0;
    std::uint32_t tag = 0;
  } zeroing_;  // calloc clearing a recycled heap block, 32-byte stores as glibc's memset does
  std::optional<LazyBinding> binding_;
  std::vector<LoaderAccess> loader_;  // ld.so binding the function being called, before the call's own records
  std::size_t loaderNext_ = 0;

  void callLibrary(const std::string& function);

  std::uint64_t random();
  void layoutStatics();
  void layoutFrame(const Block& body);
  std::uint64_t baseFor(std::uint32_t container) { return placed_[container] ? base_[container] : placeFirst(container); }
  /// baseFor() of a container not placed yet.
  std::uint64_t placeFirst(std::uint32_t container);
  std::uint64_t addressOf(const AccessOp& a);
  /// addressOf() of a random item whose index is drawn (LeafItem::drawn), from its precomputed parts.
  std::uint64_t drawnAddress(const LeafItem& item, std::int64_t i);
  /// True if "a" takes its index from a draw in every access while the value memory stays as it is.
  bool drawnOnly(const AccessOp& a) const;
  void recordValue(const AccessOp& a, Phase phase);
  std::uint64_t drawOf(std::uint32_t group, std::uint64_t elements);
  /// drawOf() when the group's last draw is older than "now" (its refresh loop's iteration).
  [[gnu::noinline]] std::uint64_t drawAgain(std::uint32_t group, std::uint64_t elements, std::uint64_t now);
  /// A drawn index among "elements" (at least 1) for group "group", counted as drawn.
  std::uint64_t drawElement(std::uint32_t group, std::uint64_t elements);
  void startIteration(int slot) { iteration_[static_cast<std::size_t>(slot)] = ++iterations_; }
  void execute(const Op& op);
  void enterLoop(const LoopOp& loop);
  void advanceCarried(const LoopOp& loop);
  void endChase(Frame& f);
  void countBounds(std::size_t scope, bool read);
  void enterBranch(const BranchOp& branch);
  void allocate(const AllocOp& a);
  void release(const FreeOp& f);
  void endOfBlock();
  void exitArmOrFunction(std::size_t scope);
  void prepareLeaf(Frame& f);
  bool prepareBranchyLeaf(Frame& f);
  void findRuns(Frame& f);
  bool steadyArms(const BranchyLeaf& leaf, int loopSlot) const;
  bool drawnSpanLeaf(const Frame& f, const BranchyLeaf& leaf) const;
  /// The drawn span of loop "f" from its current iteration, at most "iterations" of them.
  LeafSpan drawnSpan(const Frame& f, std::int64_t iterations);
  void linearize(const BranchyLeaf& leaf, std::uint32_t begin, std::uint32_t end, std::vector<LeafAccess>& out);
  void flatten(const Block& block, BranchyLeaf& leaf, std::int64_t loopSlot);
  std::size_t runLeaf(Frame& f, Record* out, std::size_t capacity);
  std::size_t runBranchyLeaf(Frame& f, Record* out, std::size_t capacity);
  std::size_t emitItems(const BranchyLeaf& leaf, std::uint32_t begin, std::uint32_t end, std::int64_t i, Record* out);
  std::uint64_t armMask(const BranchOp& branch);
  /// Iterations after the one starting now in frame "f" that use its lines in the same order.
  std::int64_t lineRunLength(const Frame& f) const;
  std::int64_t runLength(const LeafAccess* accesses, std::size_t count, std::int64_t i, std::int64_t step, std::int64_t limit) const;
  bool offerRun(Frame& f, const LeafAccess* accesses, std::size_t count, std::int64_t i, std::int64_t remaining);
  static std::int64_t spanIterations(const Frame& f, std::int64_t limit) { return std::min(limit, f.remaining); }
  bool advanceLoop(Frame& f, std::int64_t iterations);
  bool spanStartsAt(const Frame& f) const;
};

}  // namespace cats::sim
