// JSON of a simulation (docs/simulation-format.md).
#include "reports/simulation.hpp"

#include "compiler_model_records.hpp"
#include "reports/simulation_observations.hpp"

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
  const std::vector<Group> groups = groupEvents(in.trace, in.result, by, in.plan);
  // Appended, not looked up: the names are distinct, and ordered_json's operator[] scans every
  // key, which made lua's lcode.c (hundreds of thousands of contexts) take minutes and 4 GB.
  auto& object = out.get_ref<ordered_json::object_t&>();
  object.reserve(groups.size());
  for (const Group& g : groups) {
    ordered_json entry;
    for (std::size_t k = 0; k < g.levels.size(); ++k) entry[in.result.levels[k]] = countsJson(g.levels[k]);
    entry["approximate"] = g.approximate;
    object.emplace_back(g.name, std::move(entry));
  }
  return out;
}

ordered_json hierarchyJson(const cache::HierarchyConfig& config) {
  ordered_json out;
  out["inclusion"] = std::string(cache::toString(config.inclusion));
  out["levels"] = ordered_json::array();
  for (const auto& l : config.levels)
    out["levels"].push_back(ordered_json{{"name", l.name},
                                         {"size_bytes", l.sizeBytes},
                                         {"associativity", l.associativity},
                                         {"line_bytes", l.lineBytes},
                                         {"replacement", std::string(cache::toString(l.replacement))},
                                         {"write", std::string(cache::toString(l.write))},
                                         {"allocate", std::string(cache::toString(l.allocate))}});
  return out;
}

ordered_json totalsJson(const sim::SimulationResult& r) {
  ordered_json out = ordered_json::object();
  for (std::size_t k = 0; k < r.levels.size(); ++k) {
    const auto& s = r.levelStats[k];
    ordered_json j = countsJson(r.totals[k]);
    j["evictions"] = s.evictions;
    j["invalidations"] = s.invalidations;
    j["writebacks"] = s.writebacks;
    j["bytes_from_below"] = s.bytesFromBelow;
    j["bytes_to_below"] = s.bytesToBelow;
    out[r.levels[k]] = std::move(j);
  }
  return out;
}

ordered_json setMissesJson(const std::vector<SetMissHistogram>& histograms) {
  ordered_json out = ordered_json::object();
  for (const SetMissHistogram& h : histograms) {
    ordered_json top = ordered_json::array();
    for (const auto& [set, misses] : h.top) top.push_back({{"set", set}, {"misses", misses}});
    out[h.level] = ordered_json{{"sets", h.misses.size()},
                                {"total", h.total},
                                {"sets_with_misses", h.setsWithMisses},
                                {"max", h.max},
                                {"mean", h.mean},
                                {"top", top},
                                {"misses", h.misses}};
  }
  return out;
}

ordered_json reuseJson(const std::vector<ReuseMatrix>& matrices) {
  ordered_json out = ordered_json::object();
  for (const ReuseMatrix& m : matrices)
    out[m.level] = ordered_json{
        {"total", m.total}, {"same_context", m.sameContext}, {"cross_context", m.crossContext}, {"contexts", m.contexts}, {"hits", m.hits}};
  return out;
}

ordered_json trafficJson(const std::vector<LevelTraffic>& traffic) {
  ordered_json out = ordered_json::array();
  for (const LevelTraffic& t : traffic)
    out.push_back(ordered_json{{"upper", t.upper},
                               {"lower", t.lower},
                               {"fill_bytes", t.fillBytes},
                               {"down_bytes", t.downBytes},
                               {"writebacks", t.writebacks},
                               {"writeback_bytes", t.writebackBytes},
                               {"other_down_bytes", t.otherDownBytes}});
  return out;
}

/* The sections of the statistics asked for (minor version 2), each only when asked for. */
void addObservations(ordered_json& out, const SimulationObservations& observations) {
  if (!observations.setMisses.empty()) out["set_misses"] = setMissesJson(observations.setMisses);
  if (!observations.reuse.empty()) out["reuse"] = reuseJson(observations.reuse);
  if (!observations.traffic.empty()) out["traffic"] = trafficJson(observations.traffic);
}

/* ld.so's lazy binding: the functions bound and the loader's own counts. */
ordered_json loaderJson(const sim::SimulationResult& r) {
  ordered_json out;
  out["functions"] = r.boundFunctions;
  for (std::size_t k = 0; k < r.levels.size() && k < r.loader.size(); ++k) out[r.levels[k]] = countsJson(r.loader[k]);
  return out;
}

ordered_json memoryJson(const sim::SimulationResult& r) { return {{"read_bytes", r.memory.readBytes}, {"write_bytes", r.memory.writeBytes}}; }

/* The by_* members of one configuration's report, in their order. */
void addGroups(ordered_json& out, const SimulationReportInput& in) {
  out["by_function"] = groupsJson(in, GroupBy::Function);
  out["by_compiled_function"] = groupsJson(in, GroupBy::CompiledFunction);
  out["by_container"] = groupsJson(in, GroupBy::Container);
  out["by_field"] = groupsJson(in, GroupBy::Field);
  out["by_loop"] = groupsJson(in, GroupBy::Loop);
  out["by_line"] = groupsJson(in, GroupBy::Line);
  out["by_context"] = groupsJson(in, GroupBy::Context);
}

ordered_json reportJson(const SimulationReportInput& in) {
  const auto& r = in.result;
  const SimulationObservations observations = observationsOf(in);
  ordered_json root;
  root["format"] = "cats-static-simulation";
  root["version"] = kSimulationFormatVersion;
  if (!observations.empty()) root["minor_version"] = kSimulationFormatMinorVersion;
  root["levels"] = r.levels;
  root["hierarchy"] = hierarchyJson(in.config);
  root["model"] = in.model == sim::RegisterModel::O0 ? "O0" : "O2";
  if (in.plan) root["compiler"] = in.plan->target.label();
  root["bindings"] = in.trace.bindings;
  root["accesses"] = r.accesses;
  root["approximate"] = r.approximate;
  root["totals"] = totalsJson(r);
  root["memory"] = memoryJson(r);
  if (!r.boundFunctions.empty()) root["loader"] = loaderJson(r);
  addGroups(root, in);
  addObservations(root, observations);
  root["notes"] = r.notes;
  if (in.plan && in.explainModel) root["compiler_model"] = compilerModelJson(in.trace, *in.plan);
  return root;
}

/* Source text need not be UTF-8 (a Latin-1 string literal in an access): bytes that are not
   become U+FFFD instead of failing the whole report. */
std::string dump(const ordered_json& root) { return root.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n"; }

}  // namespace

std::string simulationJson(const SimulationReportInput& in) { return dump(reportJson(in)); }

std::string simulationJson(const ConfigurationsReportInput& in) {
  ordered_json first = reportJson({in.trace, in.results.front(), in.configs.front(), in.model, in.plan, in.explainModel});
  ordered_json root;
  for (auto it = first.begin(); it != first.end(); ++it) {
    root[it.key()] = std::move(it.value());
    if (it.key() == "version") root["minor_version"] = kSimulationFormatMinorVersion;
  }
  root["configurations"] = ordered_json::array();
  for (std::size_t c = 0; c < in.results.size(); ++c) {
    ordered_json entry;
    entry["label"] = configurationLabel(in.configs[c]);
    entry["levels"] = in.results[c].levels;
    entry["hierarchy"] = hierarchyJson(in.configs[c]);
    entry["totals"] = totalsJson(in.results[c]);
    entry["memory"] = memoryJson(in.results[c]);
    if (!in.results[c].boundFunctions.empty()) entry["loader"] = loaderJson(in.results[c]);
    addGroups(entry, {in.trace, in.results[c], in.configs[c], in.model, in.plan, false});
    root["configurations"].push_back(std::move(entry));
  }
  return dump(root);
}

}  // namespace cats::report
