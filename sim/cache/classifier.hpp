// Miss classification for one level (the 3C model): a miss is cold on the first access ever to its
// line at this level; otherwise capacity if a fully associative LRU cache with as many lines, shown
// the same accesses, would miss too; otherwise conflict.
#pragma once

#include "cache/stats.hpp"
#include "line_table.hpp"
#include "seen_lines.hpp"

#include <cstdint>
#include <vector>

namespace cats::cache::detail {

class MissClassifier {
 public:
  explicit MissClassifier(std::uint64_t lines);

  /* Record an access to "line"; if it missed in the real level, say why. */
  MissClass access(std::uint64_t line, bool hit);
  /* The shadow sees a use of "line": to the front if present, else inserted when "allocates". */
  void shadowUse(std::uint64_t line, bool allocates);
  /* The level lost "line" to something other than its own replacement; the shadow loses it too. */
  void shadowRemove(std::uint64_t line);
  /* True if "line" is the shadow's most recent line: using it again changes nothing. */
  bool mostRecent(std::uint64_t line) const { return head_ != kNil && nodes_[head_].line == line; }

 private:
  struct Node {
    std::uint64_t line = 0;
    std::uint32_t prev = 0;
    std::uint32_t next = 0;
  };
  static constexpr std::uint32_t kNil = ~std::uint32_t{0};

  void unlink(std::uint32_t node);
  void pushFront(std::uint32_t node);

  SeenLines seen_;
  LineTable where_;          // line -> node of the shadow's list
  std::vector<Node> nodes_;  // the shadow's lines, most recent at head_
  std::vector<std::uint32_t> free_;
  std::uint32_t head_ = kNil;
  std::uint32_t tail_ = kNil;
};

}  // namespace cats::cache::detail
