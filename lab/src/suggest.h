// "Did you mean": the valid choice nearest a misspelt one, for the lab's
// messages about an unknown option, scheme, profile or format.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace chbench::lab {

// Levenshtein distance (insertions, deletions, substitutions, each 1) of a
// and b, in O(|a| |b|) time and O(|b|) memory.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The choice nearest `word` by edit_distance when it is close enough to be
// a misspelling: at most 2 edits, and at most half of word's length
// (the first of equals in `choices` order); "" when none is.
std::string nearest(std::string_view word, std::span<const std::string> choices);

// " (did you mean 'x'?)" for nearest(word, choices) = x, else "".
std::string did_you_mean(std::string_view word, std::span<const std::string> choices);

}  // namespace chbench::lab
