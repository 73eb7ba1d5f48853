// The O2 register model (docs/register-model.md): private to sim/.
#pragma once

#include "sim/program.hpp"

namespace cats::sim {

/// Rewrites "block" as an optimising compiler would keep values in registers.
void applyRegisterModel(Block& block);

}  // namespace cats::sim
