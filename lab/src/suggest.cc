#include "suggest.h"

#include <algorithm>
#include <vector>

namespace chbench::lab {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];  // row[i - 1][j - 1]
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string nearest(std::string_view word, std::span<const std::string> choices) {
  std::string best;
  std::size_t best_distance = 3;  // past 2 edits: no suggestion
  for (const std::string& choice : choices) {
    const std::size_t d = edit_distance(word, choice);
    if (d < best_distance && 2 * d <= word.size()) {
      best = choice;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view word, std::span<const std::string> choices) {
  const std::string n = nearest(word, choices);
  return n.empty() ? std::string() : " (did you mean '" + n + "'?)";
}

}  // namespace chbench::lab
