// Arithmetic formulas from the puzzle specs ("ceil(n / TILE)", "2 * ceil(n / 16)"). The same
// text is shown to students and evaluated, so what they read is what the checker uses.
#pragma once

#include <map>
#include <string>

namespace checker {

using Variables = std::map<std::string, double>;

// Numbers, names from `variables`, + - * / ( ), and ceil, floor, min, max. Division is exact
// (not integer division): write ceil(n / 16) for a count of tiles. Throws engine::Error
// with the formula and what is wrong with it.
double evaluate(const std::string& formula, const Variables& variables);

// The formula with each name that `variables` holds replaced by its value, when that reads
// better to a student: "ceil(n / TILE)" -> "ceil(n / 16)" for {TILE: 16}.
std::string substitute(const std::string& formula, const Variables& variables);

// The formula for people: every part that depends only on `constants` replaced by its value,
// "(BM / TM) * (BN / TN)" -> "256", "2 * ceil(n / TILE)" -> "2 * ceil(n / 16)".
std::string fold_constants(const std::string& formula, const Variables& constants);

}  // namespace checker
