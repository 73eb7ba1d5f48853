// The dependence summary as JSON (docs/dependences-format.md).
#include "reports/dependences.hpp"

#include <nlohmann/json.hpp>

namespace cats::report {

namespace {

using nlohmann::ordered_json;

ordered_json distanceJson(const std::vector<trace::DistanceComponent>& distance) {
  ordered_json out = ordered_json::array();
  for (const auto& d : distance) {
    if (d.value) out.push_back(*d.value);
    else out.push_back(d.direction);
  }
  return out;
}

ordered_json loopJson(const trace::LoopRef& l) {
  return {{"function", l.function}, {"file", l.loc.file}, {"line", l.loc.line}, {"iterator", l.iterator}};
}

ordered_json loopsJson(const trace::ProgramDependences& deps) {
  ordered_json out = ordered_json::array();
  for (const auto& v : deps.loops) {
    ordered_json loop = loopJson(v.loop);
    loop["parallel"] = v.parallel;
    loop["reduction"] = v.reduction;
    ordered_json carried = ordered_json::array();
    for (const auto& c : v.carried)
      carried.push_back({{"container", c.container}, {"kind", c.kind}, {"distance", distanceJson(c.distance)}});
    loop["carried"] = carried;
    if (!v.unknown.empty()) loop["unknown"] = v.unknown;
    out.push_back(loop);
  }
  return out;
}

ordered_json dependencesJsonArray(const trace::ProgramDependences& deps) {
  ordered_json out = ordered_json::array();
  for (const auto& d : deps.dependences) {
    ordered_json e = {{"kind", d.kind},
                      {"container", d.container},
                      {"source", deps.statements.at(d.source).name},
                      {"sink", deps.statements.at(d.sink).name},
                      {"distance", distanceJson(d.distance)}};
    e["carried_by"] = d.carriedBy ? loopJson(*d.carriedBy) : ordered_json(nullptr);
    out.push_back(e);
  }
  return out;
}

ordered_json statementsJson(const trace::ProgramDependences& deps) {
  ordered_json out = ordered_json::array();
  for (const auto& s : deps.statements)
    out.push_back({{"name", s.name}, {"function", s.function}, {"file", s.loc.file}, {"line", s.loc.line}});
  return out;
}

ordered_json nestsJson(const trace::ProgramDependences& deps) {
  ordered_json out = ordered_json::array();
  for (const auto& n : deps.nests) {
    ordered_json band = ordered_json::array();
    for (const auto& l : n.band) band.push_back(loopJson(l));
    ordered_json nest = {{"band", band}, {"permutable", n.permutable}, {"interchange_legal", n.interchangeLegal}};
    if (!n.unknown.empty()) nest["unknown"] = n.unknown;
    out.push_back(nest);
  }
  return out;
}

ordered_json fusionJson(const trace::ProgramDependences& deps) {
  ordered_json out = ordered_json::array();
  for (const auto& f : deps.fusion)
    out.push_back({{"first", loopJson(f.first)},
                   {"second", loopJson(f.second)},
                   {"shared", f.shared},
                   {"same_bounds", f.sameBounds},
                   {"legal", f.legal},
                   {"reason", f.reason},
                   {"saved_bytes", sym::print(f.savedBytes)}});
  return out;
}

}  // namespace

std::string dependencesJson(const trace::ProgramDependences& deps) {
  ordered_json recurrences = ordered_json::array();
  for (const auto& r : deps.recurrences) {
    ordered_json names = ordered_json::array();
    for (std::size_t s : r) names.push_back(deps.statements.at(s).name);
    recurrences.push_back(names);
  }
  ordered_json unknown = ordered_json::array();
  for (const auto& u : deps.unknown)
    unknown.push_back({{"function", u.function}, {"file", u.loc.file}, {"line", u.loc.line}, {"text", u.text}, {"reason", u.reason}});
  ordered_json out = {{"format", "cats-static-dependences"},
                      {"version", kDependencesFormatVersion},
                      {"approximate", deps.approximate},
                      {"reasons", deps.reasons},
                      {"coverage", deps.coverage},
                      {"loops", loopsJson(deps)},
                      {"dependences", dependencesJsonArray(deps)},
                      {"statements", statementsJson(deps)},
                      {"nests", nestsJson(deps)},
                      {"fusion", fusionJson(deps)},
                      {"recurrences", recurrences},
                      {"unknown", unknown}};
  return out.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";  // source text need not be UTF-8
}

}  // namespace cats::report
