// The review's findings as a SARIF 2.1.0 log (docs/review.md): one rule per finding kind, one
// result per finding; the predicted misses ride along in the result's properties.
#include "reports/review.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace cats::report {

namespace {

using nlohmann::ordered_json;

/* What each kind of finding means, for the rules of the log. */
const std::map<std::string, std::string>& ruleDescriptions() {
  static const std::map<std::string, std::string> descriptions = {
      {"interchange", "The innermost loop of a perfectly nested band walks a container with a stride of a cache line or more; another loop "
                      "order walks it element by element."},
      {"padding", "An array is walked down a column whose rows are a multiple of many cache lines long: the column's lines fall in few "
                  "sets and evict each other; one cache line of padding per row spreads them over the sets."},
      {"fusion", "Two adjacent loops run over the same containers, too large for the first cache level: the second loop brings them "
                 "in again; one loop running both bodies uses each element while its line is cached."},
      {"layout", "A loop walks an array of structs using a small part of each element: most of every line it fetches holds fields "
                 "it does not use; a structure of arrays fetches only the fields it uses."},
      {"hoisting", "An access does not move in its loop but is loaded or stored every iteration, because another access through a "
                   "pointer may alias it; declaring the pointer parameter restrict would let the compiler keep it in a register."},
      {"indirect", "A gather through an index array misses often and uses little of each line it fetches; sorting or blocking the "
                   "indices would visit the gathered array in order (the prediction is approximate: index values are drawn)."},
      {"tiling", "A loop band reuses data across an outer loop, but one iteration of that loop touches more lines than the cache "
                 "holds; tiling the band keeps each tile's data cached until it is reused."},
      {"false-sharing", "Threads of an OpenMP parallel loop write different bytes of the same cache lines: each write invalidates "
                        "the line in the other cores; padding per-thread data or a larger chunk keeps each line with one thread."},
  };
  return descriptions;
}

ordered_json ruleJson(const std::string& kind) {
  auto known = ruleDescriptions().find(kind);
  std::string text = known != ruleDescriptions().end() ? known->second : kind;
  // No "name": SARIF wants it omitted when it would repeat the id (the kind is already readable).
  return {{"id", kind}, {"shortDescription", {{"text", text}}}};
}

ordered_json resultJson(const Finding& f, std::size_t ruleIndex) {
  std::string text = f.message + (f.recommendation.empty() ? std::string() : " Recommendation: " + f.recommendation);
  ordered_json region = {{"startLine", std::max(f.line, 1)}};
  ordered_json location = {{"physicalLocation", {{"artifactLocation", {{"uri", f.file}}}, {"region", region}}},
                           {"logicalLocations", ordered_json::array({{{"name", f.function}, {"kind", "function"}}})}};
  ordered_json result = {{"ruleId", f.kind}, {"ruleIndex", ruleIndex},
                         // Recommended fixes warn; what the dependences forbid or the model could not evaluate is a note.
                         {"level", f.recommendation.empty() ? "note" : "warning"},
                         {"message", {{"text", text}}},
                         {"locations", ordered_json::array({location})}};
  ordered_json properties = ordered_json::object();
  properties["legal"] = f.legal ? ordered_json(*f.legal) : ordered_json(nullptr);
  if (!f.sizes.empty()) properties["sizes"] = f.sizes;
  ordered_json predicted = ordered_json::array();
  for (const PredictedMisses& p : f.predicted) predicted.push_back({{"level", p.level}, {"before", p.before}, {"after", p.after}});
  properties["predicted"] = predicted;
  result["properties"] = properties;
  return result;
}

}  // namespace

std::string reviewSarif(const std::vector<Finding>& findings, const std::string& toolVersion) {
  std::map<std::string, std::size_t> ruleIndex;  // by kind, in order of first appearance in the sorted findings' kinds
  std::vector<std::string> kinds;
  for (const Finding& f : findings)
    if (ruleIndex.emplace(f.kind, kinds.size()).second) kinds.push_back(f.kind);
  ordered_json rules = ordered_json::array();
  for (const std::string& kind : kinds) rules.push_back(ruleJson(kind));
  ordered_json results = ordered_json::array();
  for (const Finding& f : findings) results.push_back(resultJson(f, ruleIndex.at(f.kind)));
  ordered_json driver = {{"name", "cats-static"}, {"version", toolVersion},
                         {"rules", rules}};
  ordered_json log = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                      {"version", "2.1.0"},
                      {"runs", ordered_json::array({{{"tool", {{"driver", driver}}}, {"results", results}}})}};
  return log.dump(2) + "\n";
}

}  // namespace cats::report
