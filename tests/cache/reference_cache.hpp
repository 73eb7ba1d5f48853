// A deliberately simple model of the cache hierarchy, for differential tests against the fast one
// in sim/cache. It shares no code with it (only the configuration types): an LRU or FIFO set is a
// std::list, most recently used (LRU) or newest (FIFO) first, evicting its back; Random and
// tree-PLRU sets are vectors of ways, and tree-PLRU walks index ranges; the miss classifier's
// shadow is a std::list searched linearly. It follows the rules of docs/cache-core.md step by
// step, in the order stated there; it is slow and meant to be obvious.
#pragma once

#include "cache/config.hpp"

#include <algorithm>
#include <cstdint>
#include <list>
#include <set>
#include <utility>
#include <vector>

namespace cats::cache::test {

struct RefStats {
  std::uint64_t reads = 0, writes = 0, readMisses = 0, writeMisses = 0;
  std::uint64_t evictions = 0, invalidations = 0, writebacks = 0;
  std::uint64_t bytesFromBelow = 0, bytesToBelow = 0;
  std::uint64_t readMissClass[3] = {0, 0, 0};  // cold, capacity, conflict
  std::uint64_t writeMissClass[3] = {0, 0, 0};
};

enum RefClass { kNone = 0, kCold = 1, kCapacity = 2, kConflict = 3 };

struct RefOutcome {
  bool accessed = false, isWrite = false, missed = false;
  int missClass = kNone;
  RefStats effects;
};

class ReferenceHierarchy {
 public:
  explicit ReferenceHierarchy(const HierarchyConfig& config) : config_(config) {
    for (std::size_t k = 0; k < config.levels.size(); ++k) {
      const LevelConfig& c = config.levels[k];
      Level level;
      level.lineBytes = c.lineBytes;
      std::uint64_t lines = c.sizeBytes / c.lineBytes;
      level.ways = c.associativity == 0 ? lines : c.associativity;
      level.sets = lines / level.ways;
      level.config = c;
      level.set.resize(level.sets);
      for (RefSet& set : level.set) {
        if (!listed(c)) set.ways.resize(level.ways);
        set.tree.assign(level.ways, 0);
      }
      level.rngState = config.seed ^ (0xD1B54A32D192ED03ull * (k + 1));
      level.capacity = lines;
      levels_.push_back(level);
    }
    stats_.resize(levels_.size());
  }

  void access(std::uint64_t address, std::uint32_t size, bool isWrite) {
    outcome_.assign(levels_.size(), RefOutcome{});
    if (size == 0) size = 1;
    std::uint64_t lineBytes = levels_[0].lineBytes;
    std::uint64_t end = address + size;
    std::uint64_t start = address;
    while (start < end) {
      std::uint64_t lineEnd = (start / lineBytes + 1) * lineBytes;
      std::uint64_t stop = std::min(end, lineEnd);
      std::uint32_t bytes = static_cast<std::uint32_t>(stop - start);
      if (config_.inclusion == Inclusion::Exclusive)
        exclusiveLine(start / lineBytes, bytes, isWrite);
      else if (isWrite)
        write(0, start, bytes);
      else
        read(0, start);
      start = stop;
    }
    for (std::size_t k = 0; k < levels_.size(); ++k) {
      RefOutcome& o = outcome_[k];
      RefStats& s = stats_[k];
      add(s, o.effects);
      if (!o.accessed) continue;
      if (o.isWrite) {
        s.writes++;
        if (o.missed) {
          s.writeMisses++;
          if (o.missClass != kNone) s.writeMissClass[o.missClass - 1]++;
        }
      } else {
        s.reads++;
        if (o.missed) {
          s.readMisses++;
          if (o.missClass != kNone) s.readMissClass[o.missClass - 1]++;
        }
      }
    }
  }

  const std::vector<RefStats>& stats() const { return stats_; }
  const std::vector<RefOutcome>& lastOutcome() const { return outcome_; }

  /* (line address, dirty) of every line level "k" holds, by address. */
  std::vector<std::pair<std::uint64_t, bool>> contents(std::size_t k) const {
    std::vector<std::pair<std::uint64_t, bool>> out;
    for (const RefSet& set : levels_[k].set) {
      for (const Way& w : set.recent) out.emplace_back(w.line * levels_[k].lineBytes, w.dirty);
      for (const Way& w : set.ways)
        if (w.valid) out.emplace_back(w.line * levels_[k].lineBytes, w.dirty);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  struct Way {
    bool valid = false;
    std::uint64_t line = 0;
    bool dirty = false;
  };

  struct RefSet {
    std::list<Way> recent;  // LRU: most recently used first; FIFO: newest first
    std::vector<Way> ways;  // Random, tree-PLRU
    std::vector<int> tree;  // tree-PLRU bits, node n at [n], 0 = go left
  };

  struct Level {
    LevelConfig config;
    std::uint64_t lineBytes = 0, sets = 0, ways = 0, capacity = 0;
    std::vector<RefSet> set;
    std::uint64_t rngState = 0;
    std::set<std::uint64_t> seen;
    std::list<std::uint64_t> shadow;  // most recent first
  };

  static void add(RefStats& to, const RefStats& from) {
    to.reads += from.reads;
    to.writes += from.writes;
    to.readMisses += from.readMisses;
    to.writeMisses += from.writeMisses;
    to.evictions += from.evictions;
    to.invalidations += from.invalidations;
    to.writebacks += from.writebacks;
    to.bytesFromBelow += from.bytesFromBelow;
    to.bytesToBelow += from.bytesToBelow;
    for (int i = 0; i < 3; ++i) {
      to.readMissClass[i] += from.readMissClass[i];
      to.writeMissClass[i] += from.writeMissClass[i];
    }
  }

  bool writeBack(std::size_t k) const { return levels_[k].config.write == WritePolicy::WriteBack; }
  bool writeAllocate(std::size_t k) const { return levels_[k].config.allocate == AllocatePolicy::WriteAllocate; }
  std::size_t count() const { return levels_.size(); }

  static bool listed(const LevelConfig& c) { return c.replacement == Replacement::Lru || c.replacement == Replacement::Fifo; }
  bool listed(std::size_t k) const { return listed(levels_[k].config); }

  RefSet& setOf(std::size_t k, std::uint64_t line) { return levels_[k].set[line % levels_[k].sets]; }

  Way* lookup(std::size_t k, std::uint64_t line) {
    RefSet& set = setOf(k, line);
    for (Way& w : set.recent)
      if (w.line == line) return &w;
    for (Way& w : set.ways)
      if (w.valid && w.line == line) return &w;
    return nullptr;
  }

  std::uint64_t nextRandom(Level& level) {
    std::uint64_t z = (level.rngState += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  void plruTouch(std::size_t k, RefSet& set, std::uint64_t way) {
    std::uint64_t lo = 0, hi = levels_[k].ways, node = 1;
    while (hi - lo > 1) {
      std::uint64_t mid = (lo + hi) / 2;
      if (way < mid) {
        set.tree[node] = 1;
        hi = mid;
        node = 2 * node;
      } else {
        set.tree[node] = 0;
        lo = mid;
        node = 2 * node + 1;
      }
    }
  }

  std::uint64_t plruVictim(std::size_t k, const RefSet& set) {
    std::uint64_t lo = 0, hi = levels_[k].ways, node = 1;
    while (hi - lo > 1) {
      std::uint64_t mid = (lo + hi) / 2;
      if (set.tree[node] == 0) {
        hi = mid;
        node = 2 * node;
      } else {
        lo = mid;
        node = 2 * node + 1;
      }
    }
    return lo;
  }

  std::list<Way>::iterator positionOf(RefSet& set, const Way* w) {
    for (auto it = set.recent.begin(); it != set.recent.end(); ++it)
      if (&*it == w) return it;
    return set.recent.end();
  }

  /* A demand access used "w", a line of "set" of level "k". */
  void used(std::size_t k, RefSet& set, Way* w) {
    switch (levels_[k].config.replacement) {
      case Replacement::Lru:
        set.recent.splice(set.recent.begin(), set.recent, positionOf(set, w));
        break;
      case Replacement::TreePlru:
        plruTouch(k, set, static_cast<std::uint64_t>(w - set.ways.data()));
        break;
      case Replacement::Fifo:
      case Replacement::Random:
        break;
    }
  }

  /* The line a new line of "set" must replace (nullptr if there is room); "slot" is where the new
     line goes in a vector set: the first invalid way, else the victim's. */
  Way* victimFor(std::size_t k, RefSet& set, std::uint64_t& slot) {
    if (listed(k)) return set.recent.size() == levels_[k].ways ? &set.recent.back() : nullptr;
    for (slot = 0; slot < set.ways.size(); ++slot)
      if (!set.ways[slot].valid) return nullptr;
    slot = levels_[k].config.replacement == Replacement::Random ? nextRandom(levels_[k]) % set.ways.size() : plruVictim(k, set);
    return &set.ways[slot];
  }

  void drop(std::size_t k, RefSet& set, Way* w) {
    if (listed(k))
      set.recent.erase(positionOf(set, w));
    else
      *w = Way{};
  }

  Way& put(std::size_t k, RefSet& set, std::uint64_t slot, std::uint64_t line, bool dirty) {
    if (listed(k)) {
      set.recent.push_front(Way{true, line, dirty});
      return set.recent.front();
    }
    set.ways[slot] = Way{true, line, dirty};
    if (levels_[k].config.replacement == Replacement::TreePlru) plruTouch(k, set, slot);
    return set.ways[slot];
  }

  // ---- classification ----

  int classify(std::size_t k, std::uint64_t line, bool hit) {
    if (!config_.classifyMisses) return kNone;
    Level& level = levels_[k];
    bool first = level.seen.insert(line).second;
    if (hit) return kNone;
    if (first) return kCold;
    bool inShadow = std::find(level.shadow.begin(), level.shadow.end(), line) != level.shadow.end();
    return inShadow ? kConflict : kCapacity;
  }

  void shadowUse(std::size_t k, std::uint64_t line, bool allocates) {
    if (!config_.classifyMisses) return;
    std::list<std::uint64_t>& shadow = levels_[k].shadow;
    auto it = std::find(shadow.begin(), shadow.end(), line);
    if (it != shadow.end()) {
      shadow.erase(it);
      shadow.push_front(line);
      return;
    }
    if (!allocates) return;
    shadow.push_front(line);
    if (shadow.size() > levels_[k].capacity) shadow.pop_back();
  }

  void shadowRemove(std::size_t k, std::uint64_t line) {
    if (config_.classifyMisses) levels_[k].shadow.remove(line);
  }

  void demand(std::size_t k, std::uint64_t line, bool hit, bool allocates) {
    int c = classify(k, line, hit);
    RefOutcome& o = outcome_[k];
    if (c != kNone && (o.missClass == kNone || c < o.missClass)) o.missClass = c;
    shadowUse(k, line, allocates);
  }

  // ---- non-inclusive and inclusive ----

  void read(std::size_t k, std::uint64_t address) {
    outcome_[k].accessed = true;
    std::uint64_t line = address / levels_[k].lineBytes;
    Way* w = lookup(k, line);
    demand(k, line, w != nullptr, true);
    if (w) {
      used(k, setOf(k, line), w);
      return;
    }
    outcome_[k].missed = true;
    fill(k, line);
  }

  void write(std::size_t k, std::uint64_t address, std::uint32_t bytes) {
    outcome_[k].accessed = true;
    outcome_[k].isWrite = true;
    std::uint64_t line = address / levels_[k].lineBytes;
    Way* w = lookup(k, line);
    demand(k, line, w != nullptr, writeAllocate(k));
    if (!w) {
      outcome_[k].missed = true;
      if (!writeAllocate(k)) {
        sendWriteDown(k, address, bytes);
        return;
      }
      w = &fill(k, line);
    } else {
      used(k, setOf(k, line), w);
    }
    if (writeBack(k))
      w->dirty = true;
    else
      sendWriteDown(k, address, bytes);
  }

  void sendWriteDown(std::size_t k, std::uint64_t address, std::uint32_t bytes) {
    outcome_[k].effects.bytesToBelow += bytes;
    if (k + 1 < count()) write(k + 1, address, bytes);
  }

  /* Evict a victim if needed, then fetch "line" from below; returns its new way. */
  Way& fill(std::size_t k, std::uint64_t line) {
    RefSet& set = setOf(k, line);
    std::uint64_t slot = 0;
    if (Way* victim = victimFor(k, set, slot)) {
      outcome_[k].effects.evictions++;
      if (config_.inclusion == Inclusion::Inclusive) purgeAbove(k, victim->line);
      std::uint64_t victimLine = victim->line;
      bool dirty = victim->dirty;
      drop(k, set, victim);
      if (dirty) {
        outcome_[k].effects.writebacks++;
        outcome_[k].effects.bytesToBelow += levels_[k].lineBytes;
        writebackInto(k + 1, victimLine * levels_[k].lineBytes, static_cast<std::uint32_t>(levels_[k].lineBytes));
      }
    }
    outcome_[k].effects.bytesFromBelow += levels_[k].lineBytes;
    if (k + 1 < count()) read(k + 1, line * levels_[k].lineBytes);
    return put(k, set, slot, line, false);
  }

  void purgeAbove(std::size_t k, std::uint64_t line) {
    std::uint64_t first = line * levels_[k].lineBytes;
    std::uint64_t end = first + levels_[k].lineBytes;
    for (std::size_t j = 0; j < k; ++j) {
      for (std::uint64_t a = first; a < end; a += levels_[j].lineBytes) {
        std::uint64_t upperLine = a / levels_[j].lineBytes;
        Way* w = lookup(j, upperLine);
        if (!w) continue;
        bool dirty = w->dirty;
        drop(j, setOf(j, upperLine), w);
        shadowRemove(j, upperLine);
        outcome_[j].effects.invalidations++;
        if (dirty) {
          outcome_[j].effects.writebacks++;
          outcome_[j].effects.bytesToBelow += levels_[j].lineBytes;
          writebackInto(j + 1, a, static_cast<std::uint32_t>(levels_[j].lineBytes));
        }
      }
    }
  }

  void writebackInto(std::size_t k, std::uint64_t address, std::uint32_t bytes) {
    if (k >= count()) return;
    outcome_[k].effects.writes++;
    std::uint64_t line = address / levels_[k].lineBytes;
    Way* w = lookup(k, line);
    int c = classify(k, line, w != nullptr);
    if (w && writeBack(k)) {
      w->dirty = true;
      return;
    }
    if (!w) {
      outcome_[k].effects.writeMisses++;
      if (c != kNone) outcome_[k].effects.writeMissClass[c - 1]++;
    }
    outcome_[k].effects.bytesToBelow += bytes;
    writebackInto(k + 1, address, bytes);
  }

  // ---- exclusive ----

  void exclusiveLine(std::uint64_t line, std::uint32_t bytes, bool isWrite) {
    std::uint64_t lineBytes = levels_[0].lineBytes;
    outcome_[0].accessed = true;
    if (isWrite) outcome_[0].isWrite = true;
    bool allocates = !isWrite || writeAllocate(0);
    Way* w = lookup(0, line);
    demand(0, line, w != nullptr, allocates);
    if (w) {
      if (isWrite) writeHere(0, *w, bytes);
      used(0, setOf(0, line), w);
      return;
    }
    outcome_[0].missed = true;
    if (!allocates) {
      outcome_[0].effects.bytesToBelow += bytes;
      for (std::size_t k = 1; k < count(); ++k) {
        outcome_[k].accessed = true;
        outcome_[k].isWrite = true;
        Way* found = lookup(k, line);
        demand(k, line, found != nullptr, false);
        if (found) {
          writeHere(k, *found, bytes);
          used(k, setOf(k, line), found);
          return;
        }
        outcome_[k].missed = true;
        outcome_[k].effects.bytesToBelow += bytes;
      }
      return;
    }
    bool dirty = false;
    std::size_t from = count();
    for (std::size_t k = 1; k < count(); ++k) {
      outcome_[k].accessed = true;
      Way* found = lookup(k, line);
      demand(k, line, found != nullptr, false);
      if (!found) {
        outcome_[k].missed = true;
        continue;
      }
      dirty = found->dirty;
      drop(k, setOf(k, line), found);
      shadowRemove(k, line);
      from = k;
      break;
    }
    for (std::size_t k = 0; k < from; ++k) outcome_[k].effects.bytesFromBelow += lineBytes;
    RefSet& set = setOf(0, line);
    std::uint64_t slot = 0;
    if (Way* victim = victimFor(0, set, slot)) pushDown(0, set, victim);
    Way& placed = put(0, set, slot, line, dirty);
    if (isWrite) writeHere(0, placed, bytes);
  }

  void writeHere(std::size_t k, Way& w, std::uint32_t bytes) {
    if (writeBack(k)) {
      w.dirty = true;
      return;
    }
    for (std::size_t j = k; j < count(); ++j) outcome_[j].effects.bytesToBelow += bytes;
  }

  /* Level "k"'s "victim" (in "set") moves one level down, or leaves the last level. */
  void pushDown(std::size_t k, RefSet& set, Way* victim) {
    Way v = *victim;
    drop(k, set, victim);
    outcome_[k].effects.evictions++;
    if (v.dirty) outcome_[k].effects.writebacks++;
    bool last = k + 1 == count();
    if (v.dirty || !last) outcome_[k].effects.bytesToBelow += levels_[k].lineBytes;
    if (last) return;
    RefSet& below = setOf(k + 1, v.line);
    std::uint64_t slot = 0;
    if (Way* next = victimFor(k + 1, below, slot)) pushDown(k + 1, below, next);
    put(k + 1, below, slot, v.line, v.dirty);
    shadowUse(k + 1, v.line, true);
  }

  HierarchyConfig config_;
  std::vector<Level> levels_;
  std::vector<RefStats> stats_;
  std::vector<RefOutcome> outcome_;
};

}  // namespace cats::cache::test
