// The dependence summary of `cats-static deps`: text for people, JSON for tools
// ("format": "cats-static-dependences", "version": 1; docs/dependences-format.md) and a Graphviz
// DOT graph (statements as nodes, dependences as edges).
#pragma once

#include "tracer/dependences.hpp"

#include <string>

namespace cats::report {

inline constexpr int kDependencesFormatVersion = 1;

std::string dependencesText(const trace::ProgramDependences& deps);
std::string dependencesJson(const trace::ProgramDependences& deps);
std::string dependencesDot(const trace::ProgramDependences& deps);

}  // namespace cats::report
