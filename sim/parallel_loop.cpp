// A parallel loop's records cut at its iteration starts (sim/parallel_loop.hpp).
#include "sim/parallel_loop.hpp"

#include <algorithm>

namespace cats::sim {

namespace {

/* Where the stream is relative to the loop: which entry and iteration receive a record. */
class IterationCutter final : public StreamObserver {
 public:
  explicit IterationCutter(std::size_t loop) : loop_(loop) {}

  void allocated(const AllocOp&, std::uint64_t, std::uint64_t) override { justExited_ = false; }
  void freed(const FreeOp&) override { justExited_ = false; }
  /* A vectorised loop's scalar epilogue is a second loop of the same scope entered right after
     the vector loop exits: it continues that entry. */
  void entered(std::size_t scope) override {
    if (scope == loop_ && depth_++ == 0 && !justExited_) runs_.emplace_back();
    justExited_ = false;
  }
  void exited(std::size_t scope) override {
    justExited_ = scope == loop_ && depth_ == 1;
    if (scope == loop_ && depth_ > 0) --depth_;
  }
  /* A record of the stream outside the loop: an entry after it is a new one. */
  void outside() { justExited_ = false; }
  /* The source iteration an iteration starts at counts from the entry's first one, the
     epilogue's too. */
  void iterationStarted(std::size_t scope, std::int64_t iterator, std::int64_t step, int width) override {
    justExited_ = false;
    if (scope != loop_ || depth_ != 1) return;
    std::vector<cache::Iteration>& run = runs_.back();
    const std::int64_t count = std::max(width, 1);
    if (run.empty()) {
      origin_ = iterator;
      sourceStep_ = step / count != 0 ? step / count : 1;
    }
    run.push_back(cache::Iteration{(iterator - origin_) / sourceStep_, count, {}});
  }

  /* The current iteration's accesses, if the stream is inside one. */
  std::vector<cache::CoherenceAccess>* current() { return depth_ > 0 && !runs_.back().empty() ? &runs_.back().back().accesses : nullptr; }
  std::vector<std::vector<cache::Iteration>> take() { return std::move(runs_); }

 private:
  std::size_t loop_;
  std::size_t depth_ = 0;  // a recursive call may enter the loop again inside itself: only the outer entry counts
  bool justExited_ = false;      // nothing happened since the outer entry exited
  std::int64_t origin_ = 0;      // the iterator's value at the entry's first iteration
  std::int64_t sourceStep_ = 1;  // what one source iteration moves it by
  std::vector<std::vector<cache::Iteration>> runs_;
};

/* Per container: whether it is allocated inside "loop" (every thread has its own copy). */
std::vector<bool> privateContainers(const trace::Trace& contexts, std::size_t loop) {
  std::vector<bool> out(contexts.containers.size(), false);
  for (const trace::Event& e : contexts.events)
    if (e.kind == trace::EventKind::Alloc && e.container < out.size() && contexts.encloses(loop, e.scope)) out[e.container] = true;
  return out;
}

}  // namespace

std::vector<std::vector<cache::Iteration>> parallelLoopIterations(const trace::Trace& contexts, const Program& program,
                                                                  StreamOptions options, std::size_t loop) {
  IterationCutter cutter(loop);
  options.observer = &cutter;
  options.fastPaths = false;
  options.runLineBytes = 0;
  options.repeatPoints = false;
  const std::vector<bool> isPrivate = privateContainers(contexts, loop);
  AddressStream stream(program, options);
  Record record;
  while (stream.next(&record, 1) != 0) {
    std::vector<cache::CoherenceAccess>* iteration = cutter.current();
    if (!iteration) cutter.outside();
    if (!iteration || record.tag >= contexts.events.size()) continue;
    const trace::Event& e = contexts.events[record.tag];
    if (e.container < isPrivate.size() && isPrivate[e.container]) continue;
    iteration->push_back(cache::CoherenceAccess{record.address, record.bytes, record.tag, record.write});
  }
  return cutter.take();
}

}  // namespace cats::sim
