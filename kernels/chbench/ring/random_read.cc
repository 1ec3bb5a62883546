// The random-read floor, listed as kernel "ring/random_read" (scheme.h:
// random_read_floor()): a table as large as the ring's (N x V tokens of 8
// bytes, in whole 64-byte lines) and, per key, one read of the line the key
// hash picks (floors.h: random_read_owner). Lines at positions from the hash
// defeat every hardware prefetcher, and the keys are independent, so the
// plain loop lets the out-of-order core keep as many reads in flight as its
// miss buffers hold: the cost of the one cache-line miss a key that a ring
// kernel cannot avoid.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>

#include "chbench/floors.h"
#include "chbench/kernel_glue.h"
#include "chbench/memory.h"
#include "chbench/ring/table.h"
#include "chbench/scheme.h"

namespace chbench {

namespace {

constexpr uint64_t kWordsPerLine = 8;

class RandomReadTable final : public OwnerTable {
 public:
  RandomReadTable(uint64_t tokens, uint32_t n)
      : lines_(floors::random_read_lines(tokens)),
        words_(allocate_table<uint64_t>(lines_ * kWordsPerLine)) {
    uint64_t owner = 0;  // word w holds w mod n
    for (uint64_t w = 0; w < lines_ * kWordsPerLine; ++w) {
      words_[w] = owner;
      if (++owner == n) owner = 0;
    }
  }
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    glue::check_sizes(h, out);
    const uint64_t* in = h.data();
    const uint64_t* words = words_.get();
    uint32_t* o = out.data();
    for (std::size_t i = 0, count = h.size(); i < count; ++i) {
      const uint64_t line = floors::random_read_line(in[i], lines_);
      o[i] = static_cast<uint32_t>(words[line * kWordsPerLine + (in[i] & 7)]);
    }
  }
  std::size_t memory_bytes() const noexcept override {
    return lines_ * kWordsPerLine * sizeof(uint64_t);
  }

 private:
  uint64_t lines_;
  TableArray<uint64_t> words_;
};

// The table's lines: 8 bytes a token, rounded up to 64.
uint64_t random_read_bytes(const Fleet& f) {
  return glue::saturating_mul(floors::random_read_lines(glue::ring_tokens(f)),
                              kWordsPerLine * sizeof(uint64_t));
}

std::unique_ptr<OwnerTable> make_random_read(const Fleet& f, unsigned knob);

constinit const KernelInfo kRandomRead{
    .scheme = Scheme::kRing,
    .name = "random_read",
    .summary =
        "no lookup: one 64-byte line a key at a random place in a table of the ring's "
        "size (the random-read floor)",
    .simd = false,
    .baseline = false,
    .rank = -1,
    .knob = nullptr,
    .make = &make_random_read,
    .table_bytes = &random_read_bytes,
    .floor = "random_read",
};

std::unique_ptr<OwnerTable> make_random_read(const Fleet& f, unsigned knob) {
  glue::no_knob(kRandomRead, knob);
  if (f.size() == 0) throw std::invalid_argument("ring/random_read needs at least one node");
  const uint64_t tokens = glue::ring_tokens(f);
  if (tokens > (uint64_t{1} << 40))
    throw std::invalid_argument("ring/random_read: more tokens than a table can hold");
  return std::make_unique<RandomReadTable>(tokens, f.size());
}

}  // namespace

const KernelInfo& random_read_floor() noexcept { return kRandomRead; }

}  // namespace chbench
