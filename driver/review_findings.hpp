// The finders of `cats-static review` (docs/review.md): each kind of finding looks at the
// simulated program and its dependences, builds the transformed variants of the model and
// keeps the ones whose simulation saves misses. One file per kind (review_KIND.cpp); the
// command runs every finder of reviewFinders() in order.
#pragma once

#include "simulate_command.hpp"

#include "reports/review.hpp"
#include "cache/config.hpp"
#include "sim/miss_model.hpp"
#include "tracer/dependences.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::driver {

/// The program traced with its parameters free (the formulas of the size) and its miss model.
struct SizeModel {
  trace::Trace contexts;  // the calling contexts of the polyhedral model
  sim::MissModel misses;
};

/// What every finder reads: the program as simulated, its dependences and the one hierarchy.
struct ReviewInput {
  const SimulationRun& run;                          // run.contexts is what variants transform
  const trace::Trace& modelContexts;                 // the same sources traced for the polyhedral model
  const trace::ProgramDependences& deps;             // computed on modelContexts
  const std::vector<cache::HierarchyConfig>& configs;  // exactly one
  std::uint32_t threads = 4;                         // --threads: the cores a parallel loop runs on (false sharing)
  const SizeModel* sizes = nullptr;                  // when a size is a parameter (sizeModelOf)

  std::int64_t lineBytes() const { return configs.front().levels.front().lineBytes; }
  std::uint64_t sets() const { return cache::geometryOf(configs.front().levels.front()).sets; }
};

/// A finding of "kind" at "loc" in "function", the rest to be filled by its finder.
report::Finding findingAt(std::string kind, std::string function, const ir::SourceLoc& loc);
/// Sets f.legal to "legal" and appends to f.message why the transformation is illegal, of
/// unknown legality ("why") or not evaluated ("notEvaluated", when non-empty).
void appendVerdict(report::Finding& f, const std::optional<bool>& legal, const std::string& why, const std::string& notEvaluated);
/// 'a', 'b', 'c'.
std::string quotedList(const std::vector<std::string>& names);

/// "items" grouped by equal "keyOf", each group in order and the groups in the order of their
/// first member: the candidates (or accesses, loops) of one source place reached through
/// several calling contexts, which a fix of the source changes together.
template <typename Item, typename KeyOf>
std::vector<std::vector<const Item*>> groupedBy(const std::vector<Item>& items, KeyOf keyOf) {
  std::vector<std::vector<const Item*>> groups;
  std::map<std::string, std::size_t> byKey;
  for (const Item& item : items) {
    auto [found, isNew] = byKey.try_emplace(keyOf(item), groups.size());
    if (isNew) groups.emplace_back();
    groups[found->second].push_back(&item);
  }
  return groups;
}

/// What a group of candidates (legal, legality, notEvaluated) says together: the weakest
/// verdict (trace::legalityRank) with its reason; not evaluated when one is not.
struct GroupVerdict {
  std::optional<bool> legal;
  std::string legality, notEvaluated;
};
template <typename Candidate>
GroupVerdict verdictOf(const std::vector<const Candidate*>& group) {
  const Candidate* weakest = group.front();
  GroupVerdict v;
  for (const Candidate* c : group) {
    if (trace::legalityRank(c->legal) < trace::legalityRank(weakest->legal)) weakest = c;
    if (v.notEvaluated.empty()) v.notEvaluated = c->notEvaluated;
  }
  v.legal = weakest->legal;
  v.legality = weakest->legality;
  return v;
}
/// Appends to f.message that its loops run in "contexts" calling contexts, all changed (when
/// more than one).
void noteContexts(report::Finding& f, std::size_t contexts);

/// Simulates "variant" like the program into f.predicted (per level, before and after);
/// whether the variant has fewer first-level misses than the program.
bool predictGain(report::Finding& f, const ReviewInput& in, const trace::Trace& variant);
/// predictGain() that also fills f.accesses (first-level accesses before and after): whether
/// the variant has fewer first-level misses or fewer first-level accesses than the program.
bool predictAccessGain(report::Finding& f, const ReviewInput& in, const trace::Trace& variant);

/// The size model of "sources" for "config" when a value of "bindings" binds a parameter of
/// "boundContexts" (a size the formulas can follow; a macro is a number by then); none
/// otherwise, or when the sources cannot be modelled.
std::optional<SizeModel> sizeModelOf(SourceArgs sources, const trace::Trace& boundContexts, const cache::HierarchyConfig& config,
                                     const std::map<std::string, std::int64_t>& bindings);
/// Where the first level stops holding the reuse of "container" as a parameter grows (layer
/// conditions, up to four times its bound value): sentences for Finding::sizes; none without
/// in.sizes.
std::vector<std::string> capacitySizes(const ReviewInput& in, const std::string& container);
/// The sizes near the bound ones (half to twice) where the reuse of "container" maps to too few
/// sets of the first level: a sentence per parameter.
std::vector<std::string> resonanceSizes(const ReviewInput& in, const std::string& container);
/// The bytes access "event" of in.run.contexts moves per iteration of "loop" as a formula of the
/// parameters ("8*n"), when it is one: a sentence.
std::vector<std::string> strideSizes(const ReviewInput& in, const trace::Event& event, const trace::Scope& loop);

using ReviewFinder = std::vector<report::Finding> (*)(const ReviewInput&);

std::vector<report::Finding> interchangeFindings(const ReviewInput& in);
std::vector<report::Finding> paddingFindings(const ReviewInput& in);
std::vector<report::Finding> fusionFindings(const ReviewInput& in);
std::vector<report::Finding> tilingFindings(const ReviewInput& in);
std::vector<report::Finding> layoutFindings(const ReviewInput& in);
std::vector<report::Finding> hoistingFindings(const ReviewInput& in);
std::vector<report::Finding> indirectFindings(const ReviewInput& in);
std::vector<report::Finding> falseSharingFindings(const ReviewInput& in);

/// Every finder, in the order their findings are listed before sorting.
std::vector<ReviewFinder> reviewFinders();

/// The findings of every finder, sorted as the reports list them (largest D1 gain first).
/// Throws sim::BindingError and sim::OptionError as simulateVariant does.
std::vector<report::Finding> reviewFindings(const ReviewInput& in);

}  // namespace cats::driver
