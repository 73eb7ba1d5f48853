// Walking the address stream one record at a time with an observer of the program's structure,
// so allocations, scopes and accesses come out in the order the program makes them.
#include "sim/event_trace.hpp"

#include <algorithm>

namespace cats::sim {

namespace {

class Collector final : public StreamObserver {
 public:
  Collector(const trace::Trace& contexts, const Program& program, std::size_t maxEvents)
      : trace_(contexts), program_(program), max_(maxEvents), live_(program.containers.size(), false), base_(program.containers.size(), 0) {}

  bool full() const { return out_.events.size() >= max_; }
  bool dropped() const { return dropped_; }

  void allocated(const AllocOp& op, std::uint64_t address, std::uint64_t bytes) override {
    const std::size_t scope = trace_.events.at(op.tag).scope;
    enterAncestors(scope);
    live_[op.container] = true;
    base_[op.container] = address;
    add(ConcreteEvent{ConcreteEvent::Kind::Allocation, op.tag, scope, op.container, address, 0, bytes, false, false});
  }

  void freed(const FreeOp& op) override {
    if (!live_[op.container]) return;
    const std::size_t scope = trace_.events.at(op.tag).scope;
    enterAncestors(scope);
    live_[op.container] = false;
    add(ConcreteEvent{ConcreteEvent::Kind::Deallocation, op.tag, scope, op.container, base_[op.container], 0, 0, false, false});
  }

  void entered(std::size_t scope) override {
    std::vector<std::size_t> chain = trace_.stack(scope);
    if (chain.empty()) return;
    chain.pop_back();
    moveTo(chain);
    open(scope);
  }

  void exited(std::size_t scope) override {
    if (std::none_of(open_.begin(), open_.end(), [scope](const Open& o) { return o.scope == scope; })) return;
    while (!open_.empty()) {
      const std::size_t top = open_.back().scope;
      close();
      if (top == scope) return;
    }
  }

  void access(const Record& r, std::uint64_t base) {
    const trace::Event& e = trace_.events.at(r.tag);
    const auto container = static_cast<std::uint32_t>(e.container);
    enterAncestors(e.scope);
    if (!live_[container] || base_[container] != base) {
      const std::int64_t size = program_.containers[container].sizeBytes;
      live_[container] = true;
      base_[container] = base;
      add(ConcreteEvent{ConcreteEvent::Kind::Allocation, r.tag, e.scope, container, base, 0, static_cast<std::uint64_t>(std::max<std::int64_t>(size, 0)),
                        false, true});
    }
    if (add(ConcreteEvent{ConcreteEvent::Kind::Access, r.tag, e.scope, container, base, r.address - base, r.bytes, r.write, false})) ++out_.accesses;
  }

  /// The exits of every scope still open, past the cap: entries and exits stay paired.
  ConcreteTrace finish(bool truncated) {
    while (!open_.empty()) close();
    out_.truncated = truncated;
    return std::move(out_);
  }

 private:
  const trace::Trace& trace_;
  const Program& program_;
  std::size_t max_;
  std::vector<bool> live_;
  std::vector<std::uint64_t> base_;
  struct Open {
    std::size_t scope;
    bool written;  // its entry is in the output (the cap had not been reached): its exit must be too
  };
  std::vector<Open> open_;  // scopes entered and not exited, outermost first
  ConcreteTrace out_;
  bool dropped_ = false;

  bool add(const ConcreteEvent& e, bool pastCap = false) {
    if (full() && !pastCap) {
      dropped_ = true;
      return false;
    }
    out_.events.push_back(e);
    return true;
  }

  void open(std::size_t scope) {
    open_.push_back(Open{scope, add(ConcreteEvent{ConcreteEvent::Kind::ScopeEntry, 0, scope, 0, 0, 0, 0, false, false})});
  }

  void close() {
    if (open_.back().written) add(ConcreteEvent{ConcreteEvent::Kind::ScopeExit, 0, open_.back().scope, 0, 0, 0, 0, false, false}, true);
    open_.pop_back();
  }

  /* Opens the parallel regions around "scope" (the stream does not run them as scopes of their
     own: their bodies are inlined). Nothing else: the observer reports functions, loops and arms
     exactly, and an event outside the open scopes of its source is one the compiler model moved
     (a store every arm makes, sunk below the branch): it runs where the stream is. */
  void enterAncestors(std::size_t scope) {
    if (!open_.empty() && open_.back().scope == scope) return;  // the usual case: nothing to open (open_ is a path from the root)
    const std::vector<std::size_t> chain = trace_.stack(scope);
    std::size_t common = commonPrefix(chain);
    if (open_.size() > common) return;
    for (std::size_t k = common; k < chain.size() && trace_.scopes.at(chain[k]).kind == trace::ScopeKind::Parallel; ++k) open(chain[k]);
  }

  /* How many of the open scopes begin "chain". */
  std::size_t commonPrefix(const std::vector<std::size_t>& chain) const {
    std::size_t common = 0;
    while (common < open_.size() && common < chain.size() && open_[common].scope == chain[common]) ++common;
    return common;
  }

  /* Exits the open scopes that are not a prefix of "chain", then enters the rest of it. */
  void moveTo(const std::vector<std::size_t>& chain) {
    std::size_t common = commonPrefix(chain);
    while (open_.size() > common) close();
    for (std::size_t k = common; k < chain.size(); ++k) open(chain[k]);
  }
};

}  // namespace

ConcreteTrace concreteEvents(const trace::Trace& contexts, const Program& program, StreamOptions options, std::size_t maxEvents) {
  Collector collector(contexts, program, std::max<std::size_t>(maxEvents, 1));
  options.observer = &collector;
  options.fastPaths = false;
  options.runLineBytes = 0;
  options.repeatPoints = false;
  options.binding.lazy = false;  // the program's events only: ld.so's lookups are not the program's
  AddressStream stream(program, options);
  Record record;
  bool more = false;
  while (true) {
    if (stream.next(&record, 1) == 0) break;
    if (collector.full()) {
      more = true;
      break;
    }
    const trace::Event& e = contexts.events.at(record.tag);
    collector.access(record, stream.baseOf(static_cast<std::uint32_t>(e.container)).value_or(0));
  }
  return collector.finish(more || collector.dropped());
}

}  // namespace cats::sim
