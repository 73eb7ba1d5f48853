// JSON of a simulation (docs/simulation-format.md).
#include "reports/simulation.hpp"

#include "compiler_model_records.hpp"

#include <nlohmann/json.hpp>

namespace cats::report {

using nlohmann::ordered_json;

namespace {

ordered_json countsJson(const sim::LevelCounts& c) {
  return ordered_json{{"reads", c.reads},
                      {"writes", c.writes},
                      {"read_misses", c.readMisses},
                      {"write_misses", c.writeMisses},
                      {"miss_classes", {{"cold", c.missClass[0]}, {"capacity", c.missClass[1]}, {"conflict", c.missClass[2]}}}};
}

ordered_json groupsJson(const SimulationReportInput& in, GroupBy by) {
  ordered_json out = ordered_json::object();
  for (const Group& g : groupEvents(in.trace, in.result, by, in.plan)) {
    ordered_json entry;
    for (std::size_t k = 0; k < g.levels.size(); ++k) entry[in.result.levels[k]] = countsJson(g.levels[k]);
    entry["approximate"] = g.approximate;
    out[g.name] = std::move(entry);
  }
  return out;
}

}  // namespace

std::string simulationJson(const SimulationReportInput& in) {
  const auto& r = in.result;
  ordered_json root;
  root["format"] = "cats-static-simulation";
  root["version"] = kSimulationFormatVersion;
  root["levels"] = r.levels;
  root["hierarchy"]["inclusion"] = std::string(cache::toString(in.config.inclusion));
  root["hierarchy"]["levels"] = ordered_json::array();
  for (const auto& l : in.config.levels)
    root["hierarchy"]["levels"].push_back(ordered_json{{"name", l.name},
                                                       {"size_bytes", l.sizeBytes},
                                                       {"associativity", l.associativity},
                                                       {"line_bytes", l.lineBytes},
                                                       {"replacement", std::string(cache::toString(l.replacement))},
                                                       {"write", std::string(cache::toString(l.write))},
                                                       {"allocate", std::string(cache::toString(l.allocate))}});
  root["model"] = in.model == sim::RegisterModel::O0 ? "O0" : "O2";
  if (in.plan) root["compiler"] = in.plan->target.label();
  root["bindings"] = in.trace.bindings;
  root["accesses"] = r.accesses;
  root["approximate"] = r.approximate;
  root["totals"] = ordered_json::object();
  for (std::size_t k = 0; k < r.levels.size(); ++k) {
    const auto& s = r.levelStats[k];
    ordered_json j = countsJson(r.totals[k]);
    j["evictions"] = s.evictions;
    j["invalidations"] = s.invalidations;
    j["writebacks"] = s.writebacks;
    j["bytes_from_below"] = s.bytesFromBelow;
    j["bytes_to_below"] = s.bytesToBelow;
    root["totals"][r.levels[k]] = std::move(j);
  }
  root["memory"] = {{"read_bytes", r.memory.readBytes}, {"write_bytes", r.memory.writeBytes}};
  root["by_function"] = groupsJson(in, GroupBy::Function);
  root["by_compiled_function"] = groupsJson(in, GroupBy::CompiledFunction);
  root["by_container"] = groupsJson(in, GroupBy::Container);
  root["by_field"] = groupsJson(in, GroupBy::Field);
  root["by_loop"] = groupsJson(in, GroupBy::Loop);
  root["by_line"] = groupsJson(in, GroupBy::Line);
  root["by_context"] = groupsJson(in, GroupBy::Context);
  root["notes"] = r.notes;
  if (in.plan && in.explainModel) root["compiler_model"] = compilerModelJson(in.trace, *in.plan);
  // Source text need not be UTF-8 (a Latin-1 string literal in an access): bytes that are not
  // become U+FFFD instead of failing the whole report.
  return root.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace cats::report
