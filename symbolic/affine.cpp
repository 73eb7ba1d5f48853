// Splits an expanded offset into iterator coefficients, parameter part and the rest.
#include "symbolic/affine.hpp"

namespace cats::sym {

Expr AffineForm::coefficientOf(const Symbol& iterator) const {
  for (const auto& [it, coefficient] : coefficients)
    if (it.is_equal(iterator)) return coefficient;
  return 0;
}

/* True if "term" holds a load, an unknown, or an opaque function. */
static bool isIndirectTerm(const Expr& term, const Context& ctx) {
  return !containersIn(term).empty() || containsUnknown(term, ctx);
}

/* Adds "term" (one summand of an expanded offset) to "form". */
static void classifyTerm(const Expr& term, const std::vector<Symbol>& iterators, const Context& ctx, AffineForm& form) {
  if (isIndirectTerm(term, ctx)) {
    form.indirectPart += term;
    return;
  }
  std::vector<Symbol> present;
  for (const auto& it : iterators)
    if (term.has(it)) present.push_back(it);
  if (present.empty()) {
    form.parameterPart += term;
    return;
  }
  if (present.size() == 1 && term.is_polynomial(present[0]) && term.degree(present[0]) == 1) {
    Expr coefficient = term.coeff(present[0], 1);
    if (!coefficient.has(present[0])) {
      for (auto& [it, c] : form.coefficients)
        if (it.is_equal(present[0])) {
          c += coefficient;
          return;
        }
      form.coefficients.emplace_back(present[0], coefficient);
      return;
    }
  }
  form.nonAffinePart += term;
}

AffineForm decompose(const Expr& offset, const std::vector<Symbol>& iterators, const Context& ctx, const Budget& budget) {
  AffineForm form;
  auto expanded = expandWithin(offset, budget);
  if (!expanded) {
    form.exceededBudget = true;
    form.nonAffinePart = offset;
    return form;
  }
  if (GiNaC::is_a<GiNaC::add>(*expanded)) {
    for (std::size_t i = 0; i < expanded->nops(); ++i) classifyTerm(expanded->op(i), iterators, ctx, form);
  } else {
    classifyTerm(*expanded, iterators, ctx, form);
  }
  std::erase_if(form.coefficients, [](const auto& entry) { return entry.second.is_zero(); });
  return form;
}

}  // namespace cats::sym
