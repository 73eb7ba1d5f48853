// A parallel loop's records cut at its iteration starts (sim/parallel_loop.hpp).
#include "sim/parallel_loop.hpp"

namespace cats::sim {

namespace {

/* Where the stream is relative to the loop: which entry and iteration receive a record. */
class IterationCutter final : public StreamObserver {
 public:
  explicit IterationCutter(std::size_t loop) : loop_(loop) {}

  void allocated(const AllocOp&, std::uint64_t, std::uint64_t) override {}
  void freed(const FreeOp&) override {}
  void entered(std::size_t scope) override {
    if (scope == loop_ && depth_++ == 0) runs_.emplace_back();
  }
  void exited(std::size_t scope) override {
    if (scope == loop_ && depth_ > 0) --depth_;
  }
  void iterationStarted(std::size_t scope) override {
    if (scope == loop_ && depth_ == 1) runs_.back().emplace_back();
  }

  /* The current iteration, if the stream is inside one. */
  cache::Iteration* current() { return depth_ > 0 && !runs_.back().empty() ? &runs_.back().back() : nullptr; }
  std::vector<std::vector<cache::Iteration>> take() { return std::move(runs_); }

 private:
  std::size_t loop_;
  std::size_t depth_ = 0;  // a recursive call may enter the loop again inside itself: only the outer entry counts
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
    cache::Iteration* iteration = cutter.current();
    if (!iteration || record.tag >= contexts.events.size()) continue;
    const trace::Event& e = contexts.events[record.tag];
    if (e.container < isPrivate.size() && isPrivate[e.container]) continue;
    iteration->push_back(cache::CoherenceAccess{record.address, record.bytes, record.tag, record.write});
  }
  return cutter.take();
}

}  // namespace cats::sim
