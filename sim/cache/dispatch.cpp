// Instantiates the engine for every combination of its axes (5 replacements x 3 inclusion modes x
// classification on/off) and picks, once per hierarchy, the one its configuration needs.
#include "exclusive.hpp"
#include "requests.hpp"

#include <array>

namespace cats::cache {

using detail::Axes;
using detail::Policy;
using Path = void (Hierarchy::*)(std::uint64_t, std::uint32_t, bool, Outcome&);

/* Hierarchy's friend, to name its private engine instantiations. */
struct detail::Dispatch {
  template <Policy R, Inclusion I>
  static Path pathFor(bool classify) {
    if (classify) return &Hierarchy::accessPath<Axes<R, I, true>>;
    return &Hierarchy::accessPath<Axes<R, I, false>>;
  }

  template <Policy R>
  static Path pathFor(Inclusion inclusion, bool classify) {
    switch (inclusion) {
      case Inclusion::NonInclusive:
        return pathFor<R, Inclusion::NonInclusive>(classify);
      case Inclusion::Inclusive:
        return pathFor<R, Inclusion::Inclusive>(classify);
      case Inclusion::Exclusive:
        return pathFor<R, Inclusion::Exclusive>(classify);
    }
    return nullptr;
  }
};

namespace {

/* The replacement every level shares, or Mixed. */
Policy policyOf(const HierarchyConfig& config) {
  Replacement r = config.levels.front().replacement;
  for (const LevelConfig& level : config.levels)
    if (level.replacement != r) return Policy::Mixed;
  switch (r) {
    case Replacement::Lru:
      return Policy::Lru;
    case Replacement::Fifo:
      return Policy::Fifo;
    case Replacement::TreePlru:
      return Policy::TreePlru;
    case Replacement::Random:
      return Policy::Random;
  }
  return Policy::Mixed;
}

}  // namespace

/* The engine instantiation for "config" (valid: at least one level). */
Hierarchy::Path Hierarchy::pathFor(const HierarchyConfig& config) {
  switch (policyOf(config)) {
    case Policy::Lru:
      return detail::Dispatch::pathFor<Policy::Lru>(config.inclusion, config.classifyMisses);
    case Policy::Fifo:
      return detail::Dispatch::pathFor<Policy::Fifo>(config.inclusion, config.classifyMisses);
    case Policy::TreePlru:
      return detail::Dispatch::pathFor<Policy::TreePlru>(config.inclusion, config.classifyMisses);
    case Policy::Random:
      return detail::Dispatch::pathFor<Policy::Random>(config.inclusion, config.classifyMisses);
    case Policy::Mixed:
      break;
  }
  return detail::Dispatch::pathFor<Policy::Mixed>(config.inclusion, config.classifyMisses);
}

}  // namespace cats::cache
