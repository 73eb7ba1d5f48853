#include "function_table.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace cats::frontend {

bool FunctionTable::defineAgain(const std::string& unit, const std::string& name, const ir::SourceLoc& loc) {
  for (std::size_t i = 0; i < program_.functions.size(); ++i) {
    const ir::Function& f = program_.functions[i];
    if (definitions_[i].unit != unit && f.name == name && f.loc == loc) {
      byUnit_[unit][name] = i;
      return true;
    }
  }
  return false;
}

void FunctionTable::define(const std::string& unit, const std::string& name, bool internal) {
  definitions_.push_back(Definition{unit, internal});
  byUnit_[unit][name] = program_.functions.size() - 1;
}

void FunctionTable::makeNamesUnique(const std::map<std::string, std::vector<std::size_t>>& byName, const std::set<std::string>& shadowed) {
  for (const auto& [name, indices] : byName) {
    if (indices.size() < 2 && !shadowed.count(name)) continue;
    for (std::size_t i : indices) {
      ir::Function& f = program_.functions[i];
      std::string unique = name + "@" + f.loc.file;
      auto taken = [&](const std::string& n) {
        return std::any_of(program_.functions.begin(), program_.functions.end(), [&](const ir::Function& g) { return g.name == n; });
      };
      if (taken(unique)) unique += ":" + std::to_string(f.loc.line);
      f.name = unique;
    }
  }
}

void FunctionTable::reportDuplicates(const std::map<std::string, std::vector<std::size_t>>& externals,
                                     const std::vector<std::string>& entries) {
  for (const auto& [name, indices] : externals) {
    if (indices.size() < 2) continue;
    std::string where;
    bool picked = false;
    for (std::size_t i : indices) {
      const ir::Function& f = program_.functions[i];
      where += (where.empty() ? "" : " and ") + f.loc.str();
      picked = picked || std::find(entries.begin(), entries.end(), f.name) != entries.end();
    }
    bool otherEntry = !entries.empty() && std::find(entries.begin(), entries.end(), name) == entries.end();
    const ir::Function& first = program_.functions[indices.front()];
    ir::Diagnostic d;
    d.loc = program_.functions[indices[1]].loc;
    if (picked || otherEntry) {
      d.severity = ir::Severity::Warning;
      d.message = "function '" + name + "' is defined more than once (" + where + "); calls from other files go to " + first.name +
                  "; the result is approximate";
    } else {
      d.severity = ir::Severity::Error;
      d.message = "function '" + name + "' is defined more than once: " + where + "; choose one with --entry " + first.name;
    }
    program_.diagnostics.push_back(std::move(d));
  }
}

/* Calls "visit" on every call of "block", nested ones included. */
static void forEachCall(ir::Block& block, const std::function<void(ir::Call&)>& visit) {
  for (ir::Node& node : block) {
    if (auto* c = std::get_if<ir::Call>(&node.value)) {
      visit(*c);
    } else if (auto* l = std::get_if<ir::Loop>(&node.value)) {
      forEachCall(l->header, visit);
      forEachCall(l->body, visit);
    } else if (auto* b = std::get_if<ir::Branch>(&node.value)) {
      for (auto& arm : b->arms) forEachCall(arm.body, visit);
    } else if (auto* p = std::get_if<ir::ParallelRegion>(&node.value)) {
      forEachCall(p->body, visit);
    }
  }
}

void FunctionTable::resolve(const std::vector<std::string>& entries) {
  std::map<std::string, std::vector<std::size_t>> byName;
  std::map<std::string, std::vector<std::size_t>> externals;
  for (std::size_t i = 0; i < program_.functions.size(); ++i) {
    byName[program_.functions[i].name].push_back(i);
    if (!definitions_[i].internal) externals[program_.functions[i].name].push_back(i);
  }
  // A static function another file calls by name without defining it is not what that call
  // means: qualify it, so the call stays a call to an unknown function.
  std::set<std::string> shadowed;
  for (std::size_t i = 0; i < program_.functions.size(); ++i) {
    const auto& own = byUnit_[definitions_[i].unit];
    forEachCall(program_.functions[i].body, [&](ir::Call& c) {
      if (!own.count(c.callee) && !externals.count(c.callee) && byName.count(c.callee)) shadowed.insert(c.callee);
    });
  }
  makeNamesUnique(byName, shadowed);
  reportDuplicates(externals, entries);
  for (std::size_t i = 0; i < program_.functions.size(); ++i) {
    const auto& own = byUnit_[definitions_[i].unit];
    forEachCall(program_.functions[i].body, [&](ir::Call& c) {
      if (auto it = own.find(c.callee); it != own.end()) c.callee = program_.functions[it->second].name;
      else if (auto ext = externals.find(c.callee); ext != externals.end()) c.callee = program_.functions[ext->second.front()].name;
    });
  }
}

void modelProgramArguments(ir::Program& program) {
  for (ir::Function& f : program.functions) {
    if (f.name != "main") continue;
    for (std::size_t i = 0; i < f.params.size() && i < 3; ++i) {
      ir::Parameter& p = f.params[i];
      if (i == 0 && !p.isPointer) program.defaults.emplace(p.name, 1);
      if (i == 0 || !p.isPointer || !p.container) continue;
      ir::Container& pointers = f.locals.at(*p.container);
      pointers.sizeBytes = pointers.elementBytes * (i == 1 ? 2 : 1);
    }
  }
}

}  // namespace cats::frontend
