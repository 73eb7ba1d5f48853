// Tree pseudo-LRU: a binary tree of ways-1 bits per set (heap order, node 1 is the root, node n has
// children 2n and 2n+1, leaf ways+w is way w). A bit says on which side the victim search goes:
// 0 left, 1 right; using a way turns every bit on its path away from it.
#pragma once

#include <cstdint>

namespace cats::cache::detail::plru {

/* Point the bits of "tree" (a set of "ways" ways, a power of two) away from "way". */
inline void touch(std::uint8_t* tree, std::uint32_t ways, std::uint32_t way) {
  std::uint32_t node = ways + way;
  while (node > 1) {
    std::uint32_t parent = node / 2;
    tree[parent] = (node & 1) ? 0 : 1;
    node = parent;
  }
}

/* The way the bits of "tree" lead to. */
inline std::uint32_t victim(const std::uint8_t* tree, std::uint32_t ways) {
  std::uint32_t node = 1;
  while (node < ways) node = 2 * node + tree[node];
  return node - ways;
}

}  // namespace cats::cache::detail::plru
