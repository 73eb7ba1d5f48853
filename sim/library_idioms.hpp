// Loops the compiler replaced by memset or memcpy (sim/compiler/idioms.cpp), run as glibc's
// memset and memcpy run under Cachegrind. Private to sim/.
#pragma once

#include "sim/compiler.hpp"
#include "sim/program.hpp"

#include <string>
#include <vector>

namespace cats::sim {

/// Rewrites every loop of "block" that "plan" replaces by a library call into the accesses of
/// that call; notes what could only be approximated.
void runLibraryIdioms(Block& block, const CompilationPlan& plan, std::vector<std::string>& notes);

}  // namespace cats::sim
