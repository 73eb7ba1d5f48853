// A random permutation of [0, n) evaluated one position at a time, in constant memory: the
// order in which a chase through a linked structure visits its n nodes.
#pragma once

#include <cstdint>

namespace cats::sim {

/// The element at "position" (< n) of the permutation of [0, n) chosen by "key"; a bijection
/// on [0, n) for every key (a Feistel network on the next power of 4, cycle-walking into range).
std::uint64_t permute(std::uint64_t position, std::uint64_t n, std::uint64_t key);

}  // namespace cats::sim
