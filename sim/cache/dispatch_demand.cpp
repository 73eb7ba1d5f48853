// The engine instantiations for outcomes that get only the demand flags (OutcomeDetail::DemandOnly).
#include "dispatch.hpp"

namespace cats::cache {

template Hierarchy::Path Hierarchy::pathFor<false>(const HierarchyConfig& config);

}  // namespace cats::cache
