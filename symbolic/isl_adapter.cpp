// Conversion of our integer sets to isl text, parsed by isl: the text form keeps the adapter small
// and makes every set printable in a diagnostic.
#include "isl_adapter.hpp"

#include <isl/options.h>

#include <dlfcn.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>

namespace cats::sym::isl_adapter {

Ctx::Ctx(unsigned long maxOperations) : ctx_(isl_ctx_alloc()) {
  if (!ctx_) throw IslError("cannot allocate an isl context");
  isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(ctx_, maxOperations);
}

Ctx::~Ctx() { isl_ctx_free(ctx_); }

void Ctx::resetBudget() const { isl_ctx_reset_operations(ctx_); }

void checkIslLibrary() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&isl_ctx_alloc), &info) == 0 || !info.dli_fname) return;
  std::string library = info.dli_fname;
  if (library.find("libisl") == std::string::npos)
    throw IslError("isl_ctx_alloc resolves to " + library + ", not libisl: link isl before LLVM (TOOLCHAIN.md)");
}

namespace {

bool isIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

const std::set<std::string>& islKeywords() {
  static const std::set<std::string> words{"and", "or", "not", "exists", "floor", "ceil", "mod", "min", "max",
                                           "true", "false", "infty", "NaN", "implies", "cond", "rat", "domain",
                                           "range", "mul", "div", "floord", "ceild", "xor", "to", "lexmin", "lexmax"};
  return words;
}

std::string numberText(const GiNaC::numeric& n) {
  if (!n.is_integer()) throw IslError("rational coefficient in an affine expression (scale by denominatorLcm)");
  std::ostringstream out;
  out << n;
  return out.str();
}

std::string functionName(const Expr& e) {
  return GiNaC::ex_to<GiNaC::function>(e).get_name();
}

}  // namespace

std::string islName(const std::string& name) {
  if (isIdentifier(name) && islKeywords().count(name) == 0 && name.rfind("v_", 0) != 0) return name;
  std::string out = "v_";
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else {
      static const char* hex = "0123456789abcdef";
      out += '_';
      out += hex[(static_cast<unsigned char>(c) >> 4) & 15];
      out += hex[static_cast<unsigned char>(c) & 15];
    }
  }
  return out;
}

long denominatorLcm(const Expr& e) {
  Expr x = GiNaC::expand(e);
  long l = 1;
  auto visit = [&](const Expr& term) {
    Expr coefficient = term;
    if (GiNaC::is_a<GiNaC::mul>(term)) {
      coefficient = 1;
      for (std::size_t k = 0; k < term.nops(); ++k)
        if (GiNaC::is_a<GiNaC::numeric>(term.op(k))) coefficient = term.op(k);
    }
    if (GiNaC::is_a<GiNaC::numeric>(coefficient)) {
      auto d = GiNaC::ex_to<GiNaC::numeric>(coefficient).denom();
      if (d.is_integer() && d.to_long() > 0) l = std::lcm(l, d.to_long());
    }
  };
  if (GiNaC::is_a<GiNaC::add>(x)) {
    for (std::size_t k = 0; k < x.nops(); ++k) visit(x.op(k));
  } else {
    visit(x);
  }
  return l;
}

std::string affineText(const Expr& input) {
  Expr e = GiNaC::expand(input);
  if (GiNaC::is_a<GiNaC::numeric>(e)) return numberText(GiNaC::ex_to<GiNaC::numeric>(e));
  if (GiNaC::is_a<GiNaC::symbol>(e)) return islName(GiNaC::ex_to<GiNaC::symbol>(e).get_name());
  if (GiNaC::is_a<GiNaC::add>(e)) {
    std::vector<std::string> terms;
    for (std::size_t k = 0; k < e.nops(); ++k) terms.push_back(affineText(e.op(k)));
    std::sort(terms.begin(), terms.end());  // deterministic text
    std::string out;
    for (const auto& t : terms) out += (out.empty() ? "" : " + ") + ("(" + t + ")");
    return out;
  }
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    std::string number = "1";
    std::string factor;
    for (std::size_t k = 0; k < e.nops(); ++k) {
      const Expr& f = e.op(k);
      if (GiNaC::is_a<GiNaC::numeric>(f)) {
        number = numberText(GiNaC::ex_to<GiNaC::numeric>(f));
      } else if (factor.empty()) {
        factor = affineText(f);
      } else {
        throw IslError("not affine: product " + sym::print(e));
      }
    }
    return number + "*(" + factor + ")";
  }
  if (GiNaC::is_a<GiNaC::function>(e)) {
    std::string name = functionName(e);
    if (name == "idiv" || name == "imod") {
      auto divisor = toInteger(e.op(1));
      if (!divisor || *divisor <= 0) throw IslError("not affine: division by a non-constant in " + sym::print(e));
      long scale = denominatorLcm(e.op(0));
      if (name == "idiv")
        return "floor((" + affineText(e.op(0) * scale) + ")/" + std::to_string(*divisor * scale) + ")";
      if (scale != 1) throw IslError("not affine: remainder of a rational expression " + sym::print(e));
      return "((" + affineText(e.op(0)) + ") mod " + std::to_string(*divisor) + ")";
    }
    if (name == "min" || name == "max") {
      if (denominatorLcm(e.op(0)) != 1 || denominatorLcm(e.op(1)) != 1)
        throw IslError("not affine: rational operand of " + sym::print(e));
      return name + "(" + affineText(e.op(0)) + ", " + affineText(e.op(1)) + ")";
    }
  }
  throw IslError("not affine: " + sym::print(e));
}

std::string constraintText(const Constraint& c) {
  long scale = denominatorLcm(c.expr);
  return affineText(c.expr * scale) + (c.equality ? " = 0" : " >= 0");
}

std::string setText(const IntegerSet& set) {
  auto names = [](const std::vector<Symbol>& symbols) {
    std::string out;
    for (const auto& s : symbols) out += (out.empty() ? "" : ", ") + islName(s.get_name());
    return out;
  };
  std::string constraints;
  for (const auto& c : set.constraints) constraints += (constraints.empty() ? "" : " and ") + constraintText(c);
  std::string body;
  if (!set.existentials.empty()) {
    body = " : exists (" + names(set.existentials) + " : " + (constraints.empty() ? "true" : constraints) + ")";
  } else if (!constraints.empty()) {
    body = " : " + constraints;
  }
  std::string tuple = set.name.empty() ? "" : islName(set.name);
  return "[" + names(set.params) + "] -> { " + tuple + "[" + names(set.dims) + "]" + body + " }";
}

isl::set toSet(const Ctx& ctx, const IntegerSet& set) {
  std::string text = setText(set);
  try {
    ctx.resetBudget();
    return isl::set(ctx.get(), text);
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot read ") + text + ": " + e.what());
  }
}

std::int64_t countPoints(const Ctx& ctx, const IntegerSet& set, const ParamValues& values) {
  isl::set s = toSet(ctx, set);
  try {
    for (const auto& param : set.params) {
      auto it = values.find(param.get_name());
      if (it == values.end()) throw IslError("no value for parameter '" + param.get_name() + "'");
      int position = isl_set_find_dim_by_name(s.get(), isl_dim_param, islName(param.get_name()).c_str());
      if (position < 0) continue;  // declared but unused
      s = isl::manage(isl_set_fix_val(s.release(), isl_dim_param, static_cast<unsigned>(position),
                                        isl_val_int_from_si(ctx.raw(), it->second)));
    }
    ctx.resetBudget();
    isl_val* v = isl_set_count_val(s.get());
    isl::val count = isl::manage(v);
    if (!v || isl_ctx_last_error(ctx.raw()) != isl_error_none) {
      isl_ctx_reset_error(ctx.raw());
      throw IslError("isl cannot count " + setText(set));
    }
    if (!count.is_int()) throw IslError("unbounded set " + setText(set));
    return count.get_num_si();
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot count ") + setText(set) + ": " + e.what());
  }
}

}  // namespace cats::sym::isl_adapter

namespace cats::sym::isl_adapter {

std::string mapText(const IntegerSet& domain, const std::string& tuple, const std::string& range,
                    const std::vector<Expr>& outputs) {
  IntegerSet renamed = domain;
  renamed.name = tuple;
  std::string text = setText(renamed);
  std::string values;
  for (const auto& e : outputs) values += (values.empty() ? "" : ", ") + affineText(e);
  auto close = text.find(']', text.find("{ "));
  return text.substr(0, close + 1) + " -> " + (range.empty() ? "" : islName(range)) + "[" + values + "]" +
         text.substr(close + 1);
}

isl::map toMap(const Ctx& ctx, const std::string& text) {
  try {
    return isl::map(ctx.get(), text);
  } catch (const isl::exception& e) {
    throw IslError(std::string("isl cannot read ") + text + ": " + e.what());
  }
}

isl::map projection(const Ctx& ctx, unsigned n, unsigned first, unsigned count) {
  std::string in, out;
  for (unsigned k = 0; k < n; ++k) in += (k ? ", x" : "x") + std::to_string(k);
  for (unsigned k = first; k < first + count; ++k) out += (k > first ? ", x" : "x") + std::to_string(k);
  return toMap(ctx, "{ [" + in + "] -> [" + out + "] }");
}

namespace {

std::optional<std::int64_t> finite(const isl::val& v) {
  if (v.is_null() || !v.is_int()) return std::nullopt;
  return v.get_num_si();
}

}  // namespace

ValueRange coordinateRange(const isl::set& set, int pos) {
  return {finite(set.dim_min_val(pos)), finite(set.dim_max_val(pos))};
}

}  // namespace cats::sym::isl_adapter
