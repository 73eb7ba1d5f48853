// Picks, once per hierarchy, the engine instantiation its configuration needs, among every
// combination of the axes (5 replacements x 3 inclusion modes x observing on/off: miss classes,
// per-set misses or fillers). The outcome detail (effects recorded or not) is the template
// argument of Hierarchy::pathFor; the two halves are instantiated in dispatch_full.cpp and
// dispatch_demand.cpp, compiled in parallel.
#pragma once

#include "exclusive.hpp"
#include "requests.hpp"

namespace cats::cache {

/* Hierarchy's friend, to name its private engine instantiations. */
struct detail::Dispatch {
  using Path = Hierarchy::Path;

  template <Policy R, Inclusion I, bool E>
  static Path pathFor(bool observe) {
    if (observe) return &Hierarchy::accessPath<Axes<R, I, true, E>>;
    return &Hierarchy::accessPath<Axes<R, I, false, E>>;
  }

  template <Policy R, bool E>
  static Path pathFor(Inclusion inclusion, bool observe) {
    switch (inclusion) {
      case Inclusion::NonInclusive:
        return pathFor<R, Inclusion::NonInclusive, E>(observe);
      case Inclusion::Inclusive:
        return pathFor<R, Inclusion::Inclusive, E>(observe);
      case Inclusion::Exclusive:
        return pathFor<R, Inclusion::Exclusive, E>(observe);
    }
    return nullptr;
  }

  /* The replacement every level shares, or Mixed. */
  static Policy policyOf(const HierarchyConfig& config) {
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
};

/* The engine instantiation for "config" (valid: at least one level), recording effects if "E". */
template <bool E>
Hierarchy::Path Hierarchy::pathFor(const HierarchyConfig& config) {
  using detail::Dispatch;
  using detail::Policy;
  switch (Dispatch::policyOf(config)) {
    case Policy::Lru:
      return Dispatch::pathFor<Policy::Lru, E>(config.inclusion, config.observes());
    case Policy::Fifo:
      return Dispatch::pathFor<Policy::Fifo, E>(config.inclusion, config.observes());
    case Policy::TreePlru:
      return Dispatch::pathFor<Policy::TreePlru, E>(config.inclusion, config.observes());
    case Policy::Random:
      return Dispatch::pathFor<Policy::Random, E>(config.inclusion, config.observes());
    case Policy::Mixed:
      break;
  }
  return Dispatch::pathFor<Policy::Mixed, E>(config.inclusion, config.observes());
}

}  // namespace cats::cache
