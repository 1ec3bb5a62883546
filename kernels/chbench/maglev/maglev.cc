#include "chbench/maglev/maglev.h"

#include <xxhash.h>

#include <stdexcept>
#include <string>

namespace chbench {

MaglevPermutation maglev_permutation(std::string_view name, uint32_t table_size) noexcept {
  const uint64_t h1 = XXH3_64bits(name.data(), name.size());
  const uint64_t h2 = XXH3_64bits_withSeed(name.data(), name.size(), 1);
  return {static_cast<uint32_t>(h1 % table_size), static_cast<uint32_t>(h2 % (table_size - 1) + 1)};
}

bool is_prime(uint32_t n) noexcept {
  if (n < 2) return false;
  for (uint64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

void validate_maglev(const NodeSet& nodes) {
  validate(nodes);
  const uint32_t m = nodes.table_size;
  if (m > kMaglevMaxTableSize || !is_prime(m))
    throw std::invalid_argument("Maglev's table size must be a prime below 2^31 (got " +
                                std::to_string(m) + "; the default is 65537)");
  if (nodes.size() > m)
    throw std::invalid_argument("Maglev's table size " + std::to_string(m) + " is below the " +
                                std::to_string(nodes.size()) +
                                " nodes (each needs a slot; the paper takes M >= 100 N)");
}

std::vector<uint32_t> maglev_table(const NodeSet& nodes) {
  validate_maglev(nodes);
  std::vector<MaglevPermutation> permutations;
  permutations.reserve(nodes.size());
  for (const auto& name : nodes.names)
    permutations.push_back(maglev_permutation(name, nodes.table_size));
  return maglev_populate(permutations, nodes.table_size);
}

std::vector<uint32_t> maglev_populate(std::span<const MaglevPermutation> permutations,
                                      uint32_t table_size) {
  const uint32_t m = table_size;
  const auto n = static_cast<uint32_t>(permutations.size());
  constexpr uint32_t kEmpty = 0xffffffffu;
  std::vector<uint32_t> entry(m, kEmpty);
  // position[i]: slot permutation[i][next[i]], advanced by skip mod M.
  std::vector<uint32_t> position(n), skip(n);
  for (uint32_t i = 0; i < n; ++i) {
    position[i] = permutations[i].offset;
    skip[i] = permutations[i].skip;
  }
  auto advance = [m](uint32_t c, uint32_t s) {
    const uint64_t next = uint64_t{c} + s;
    return static_cast<uint32_t>(next >= m ? next - m : next);
  };
  uint32_t filled = 0;
  while (true) {
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t c = position[i];
      while (entry[c] != kEmpty) c = advance(c, skip[i]);
      entry[c] = i;
      position[i] = advance(c, skip[i]);
      if (++filled == m) return entry;
    }
  }
}

namespace {

class TableLookupScalar final : public OwnerTable {
 public:
  explicit TableLookupScalar(std::vector<uint32_t> entries) : entries_(std::move(entries)) {
    if (entries_.empty() || entries_.size() > 0xffffffffu)
      throw std::invalid_argument("a lookup table needs 1 ... 2^32 - 1 entries");
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    const uint64_t m = entries_.size();
    const uint32_t* entry = entries_.data();
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = entry[h[i] % m];
  }
  std::size_t memory_bytes() const noexcept override { return entries_.size() * sizeof(uint32_t); }

 private:
  std::vector<uint32_t> entries_;
};

}  // namespace

std::unique_ptr<OwnerTable> make_table_lookup_scalar(std::vector<uint32_t> entries) {
  return std::make_unique<TableLookupScalar>(std::move(entries));
}

}  // namespace chbench
