// The coherence model (cache/coherence.hpp): per line, which cores hold a valid copy, which held
// one once, and which bytes each thread wrote.
#include "cache/coherence.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cats::cache {

namespace {

struct LineState {
  std::vector<bool> valid;    // per core: its copy is up to date
  std::vector<bool> held;     // per core: it had the line at some point
  std::map<std::uint32_t, std::vector<bool>> writtenBytes;  // per writing thread: the bytes of the line it wrote
  std::set<std::uint32_t> writeTags;
  std::uint64_t coherenceMisses = 0;
};

class Cores {
 public:
  explicit Cores(const CoherenceOptions& options) : options_(options) {}

  /* Core "core" makes "a": one access per line it touches. */
  void access(std::uint32_t core, const CoherenceAccess& a) {
    const std::uint64_t line = options_.lineBytes;
    const std::uint64_t last = a.address + std::max<std::uint32_t>(a.bytes, 1) - 1;
    for (std::uint64_t first = a.address / line; first <= last / line; ++first) {
      const std::uint64_t from = std::max(a.address, first * line), to = std::min(last, first * line + line - 1);
      touch(core, first, a, from - first * line, to - first * line);
    }
  }

  /* The totals over every line. */
  CoherenceStats stats() const {
    CoherenceStats out;
    std::set<std::uint32_t> tags;
    for (const auto& [line, state] : lines_) {
      out.coherenceMisses += state.coherenceMisses;
      if (state.writtenBytes.size() < 2) continue;
      ++out.sharedLines;
      if (!bytesOverlap(state)) {
        ++out.falselySharedLines;
        out.falseSharingMisses += state.coherenceMisses;
        tags.insert(state.writeTags.begin(), state.writeTags.end());
      }
    }
    out.falseSharingTags.assign(tags.begin(), tags.end());
    return out;
  }

 private:
  /* Bytes [from, to] of "line" accessed by "core" as "a" says. */
  void touch(std::uint32_t core, std::uint64_t line, const CoherenceAccess& a, std::uint64_t from, std::uint64_t to) {
    LineState& state = lineState(line);
    if (!state.valid[core] && state.held[core]) ++state.coherenceMisses;
    state.valid[core] = true;
    state.held[core] = true;
    if (!a.write) return;
    for (std::uint32_t other = 0; other < options_.threads; ++other)
      if (other != core) state.valid[other] = false;
    std::vector<bool>& bytes = state.writtenBytes[core];
    if (bytes.empty()) bytes.assign(options_.lineBytes, false);
    for (std::uint64_t b = from; b <= to; ++b) bytes[b] = true;
    state.writeTags.insert(a.tag);
  }

  LineState& lineState(std::uint64_t line) {
    auto [it, added] = lines_.try_emplace(line);
    if (added) {
      it->second.valid.assign(options_.threads, false);
      it->second.held.assign(options_.threads, false);
    }
    return it->second;
  }

  /* Whether two threads wrote one byte of the line: true sharing. */
  static bool bytesOverlap(const LineState& state) {
    std::vector<int> writers;
    for (const auto& [thread, bytes] : state.writtenBytes) {
      if (writers.empty()) writers.assign(bytes.size(), 0);
      for (std::size_t b = 0; b < bytes.size(); ++b)
        if (bytes[b] && ++writers[b] > 1) return true;
    }
    return false;
  }

  const CoherenceOptions& options_;
  std::map<std::uint64_t, LineState> lines_;
};

/* The positions in "run" of each thread's iterations, in the order the thread runs them. */
std::vector<std::vector<std::size_t>> dealt(const std::vector<Iteration>& run, const CoherenceOptions& options) {
  std::int64_t sourceIterations = 0;
  for (const Iteration& it : run) sourceIterations = std::max(sourceIterations, it.first + it.count);
  std::vector<std::vector<std::size_t>> perThread(options.threads);
  for (std::size_t k = 0; k < run.size(); ++k) perThread[ownerThread(run[k].first, sourceIterations, options)].push_back(k);
  return perThread;
}

}  // namespace

std::uint32_t ownerThread(std::int64_t index, std::int64_t iterations, const CoherenceOptions& options) {
  const std::int64_t threads = std::max<std::int64_t>(options.threads, 1);
  if (options.chunk > 0) return static_cast<std::uint32_t>((index / options.chunk) % threads);
  const std::int64_t block = std::max<std::int64_t>((iterations + threads - 1) / threads, 1);
  return static_cast<std::uint32_t>(std::min(index / block, threads - 1));
}

CoherenceStats simulateCoherence(const std::vector<std::vector<Iteration>>& runs, const CoherenceOptions& options) {
  Cores cores(options);
  for (const std::vector<Iteration>& run : runs) {
    const std::vector<std::vector<std::size_t>> perThread = dealt(run, options);
    std::size_t rounds = 0;
    for (const auto& mine : perThread) rounds = std::max(rounds, mine.size());
    for (std::size_t r = 0; r < rounds; ++r)
      for (std::uint32_t t = 0; t < options.threads; ++t)
        if (r < perThread[t].size())
          for (const CoherenceAccess& a : run[perThread[t][r]].accesses) cores.access(t, a);
  }
  return cores.stats();
}

}  // namespace cats::cache
