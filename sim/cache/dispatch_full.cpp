// The engine instantiations for outcomes that record every level's effects (OutcomeDetail::Full).
#include "dispatch.hpp"

namespace cats::cache {

template Hierarchy::Path Hierarchy::pathFor<true>(const HierarchyConfig& config);

}  // namespace cats::cache
