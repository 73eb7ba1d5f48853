// The dependence graph as Graphviz DOT: one node per statement (grouped in a cluster per loop
// nest), one edge per dependence, coloured by kind, labelled with container and distance.
#include "reports/dependences.hpp"

#include <map>

namespace cats::report {

namespace {

/* "text" as a DOT string literal. */
std::string dotString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

const char* colour(const std::string& kind) {
  if (kind == "flow") return "black";
  if (kind == "anti") return "blue";
  return "red";
}

}  // namespace

std::string dependencesDot(const trace::ProgramDependences& deps) {
  std::string out = "digraph dependences {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
  out += "  label=" + dotString(std::string("dependences: flow black, anti blue, output red") +
                             (deps.approximate ? " (approximate)" : "")) + ";\n";
  for (const auto& s : deps.statements)
    out += "  " + dotString(s.name) + " [label=" + dotString(s.name + "\n" + s.function + " " + s.loc.str()) + "];\n";
  for (const auto& d : deps.dependences) {
    std::string label = d.kind + " " + d.container + " " + trace::distanceText(d.distance);
    if (d.carriedBy) label += "\ncarried by " + d.carriedBy->iterator;
    out += "  " + dotString(deps.statements.at(d.source).name) + " -> " + dotString(deps.statements.at(d.sink).name) +
           " [label=" + dotString(label) + ", color=" + colour(d.kind) + (d.carriedBy ? "" : ", style=dashed") + "];\n";
  }
  return out + "}\n";
}

}  // namespace cats::report
