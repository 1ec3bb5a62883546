// The random-read floor, listed as kernel "ring/random_read" (scheme.h:
// random_read_floor()): a table as large as the ring's (N x V tokens of 8
// bytes, in whole 64-byte lines) and, per key, one read of the line the key
// hash picks (floors.h: random_read_owner). Lines at positions from the hash
// defeat every hardware prefetcher. The keys are independent, so the
// out-of-order core overlaps their reads, and from a table past 256 KiB the
// line of the key a distance ahead is prefetched too, at ring/bucketed's
// default distances (32 keys up to 16 MiB, 128 above), so that the floor
// keeps at least as many reads in flight as the fastest ring kernel: the
// cost of the one cache-line miss a key that a ring kernel cannot avoid.
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

// Keys ahead whose line is prefetched, by the table's bytes: none while it
// fits a core's L2, then ring/bucketed's default prefetch distances.
std::size_t prefetch_distance(uint64_t bytes) {
  if (bytes <= (uint64_t{256} << 10)) return 0;
  return bytes <= (uint64_t{16} << 20) ? 32 : 128;
}

class RandomReadTable final : public OwnerTable {
 public:
  RandomReadTable(uint64_t tokens, uint32_t n)
      : lines_(floors::random_read_lines(tokens)),
        distance_(prefetch_distance(lines_ * kWordsPerLine * sizeof(uint64_t))),
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
    const std::size_t count = h.size();
    auto read = [&](std::size_t i) {
      const uint64_t line = floors::random_read_line(in[i], lines_);
      o[i] = static_cast<uint32_t>(words[line * kWordsPerLine + (in[i] & 7)]);
    };
    std::size_t i = 0;
    if (distance_ != 0)
      for (; i + distance_ < count; ++i) {
        __builtin_prefetch(words +
                           floors::random_read_line(in[i + distance_], lines_) * kWordsPerLine);
        read(i);
      }
    for (; i < count; ++i) read(i);
  }
  std::size_t memory_bytes() const noexcept override {
    return lines_ * kWordsPerLine * sizeof(uint64_t);
  }

 private:
  uint64_t lines_;
  std::size_t distance_;
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
