// What the AnchorHash kernels share: the CRC-32C of the cpp-anchorhash
// profile, the fleet checks, and the packed table built from a fleet's
// history (anchor.h).
#include "chbench/anchor/anchor.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chbench/kernel_glue.h"
#include "chbench/nodes.h"
#include "chbench/scenario.h"

namespace chbench {

namespace {

// Slicing-by-8 tables of the reflected CRC-32C (polynomial 0x82F63B78).
constexpr std::array<uint64_t, 2048> crc32c_tables() {
  std::array<uint64_t, 2048> t{};
  for (uint32_t x = 0; x < 256; ++x) {
    uint32_t c = x;
    for (int bit = 0; bit < 8; ++bit) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
    t[x] = c;
  }
  for (uint32_t k = 1; k < 8; ++k)
    for (uint32_t x = 0; x < 256; ++x) {
      const auto prev = static_cast<uint32_t>(t[(k - 1) * 256 + x]);
      t[k * 256 + x] = (prev >> 8) ^ t[prev & 0xffu];
    }
  return t;
}

constexpr std::array<uint64_t, 2048> kCrc32cTables = crc32c_tables();

}  // namespace

const uint64_t* anchor_crc32c_table() noexcept { return kCrc32cTables.data(); }

uint32_t anchor_crc32c(uint64_t data, uint32_t crc) noexcept {
  // The register meets the first four bytes; byte i then has 7 - i bytes
  // after it, so it is looked up in table 7 - i.
  const uint64_t x = data ^ crc;
  uint64_t c = 0;
  for (int i = 0; i < 8; ++i) c ^= kCrc32cTables[(7 - i) * 256 + ((x >> (8 * i)) & 0xffu)];
  return static_cast<uint32_t>(c);
}

// ---- fleets ---------------------------------------------------------------------

uint64_t anchor_capacity_estimate(const Fleet& fleet) noexcept {
  const uint64_t initial = fleet.named() ? fleet.initial().size() : fleet.size();
  return fleet.nodes().capacity != 0 ? fleet.nodes().capacity : 10 * initial;
}

uint32_t check_anchor(const Fleet& fleet) {
  validate(fleet.nodes());
  const uint32_t a = fleet_capacity(fleet, kAnchorMaxCapacity);
  // The stack R: `removed` buckets pushed by removals on top of the a - used
  // initially unused ones not yet added back.
  uint64_t used = fleet.initial().size(), removed = 0;
  for (const FleetChange& c : fleet.history()) {
    if (c.kind == FleetChange::Kind::kLeave) {
      ++removed;
    } else if (removed > 0) {
      --removed;
    } else if (used < a) {
      ++used;
    } else {
      throw std::invalid_argument("node '" + c.node + "' joins an anchor whose " +
                                  std::to_string(a) +
                                  " buckets are all in use (raise the capacity)");
    }
  }
  return static_cast<uint32_t>(used);
}

namespace {

// The anchor's arrays A and K packed into `entries` (A low, K high) for the
// buckets that ever work, N, and the stack R: the buckets pushed by
// removals on top of the initially unused ones, which INITANCHOR pushes from
// a - 1 down to N0 and which therefore pop as N0, N0 + 1, ... (kept as a
// counter, not stored).
class AnchorBuilder {
 public:
  AnchorBuilder(uint32_t a, uint32_t used, uint32_t n0) : n_(n0), next_unused_(n0) {
    t_.capacity = a;
    t_.used = used;
    t_.entries = allocate_table<uint64_t>(used);
    // INITANCHOR: K[b] = b; A[b] = 0 while working, A[b] = b for b >= N0.
    for (uint32_t b = 0; b < used; ++b) t_.entries[b] = uint64_t{b} << 32 | (b < n0 ? 0 : b);
  }

  // REMOVEBUCKET(b) as the mem/ variant: K[b] = BUCKETATVIEW(N - 1, N).
  void remove(uint32_t b) {
    removed_.push_back(b);
    uint32_t h = n_ - 1;
    while (a_of(h) >= n_) h = k_of(h);
    --n_;
    t_.entries[b] = uint64_t{h} << 32 | n_;
  }

  // ADDBUCKET(): the last removed bucket, or the next initially unused one.
  // Precondition: a bucket is free (check_anchor counted `used` for it).
  uint32_t add() {
    uint32_t b;
    if (!removed_.empty()) {
      b = removed_.back();
      removed_.pop_back();
    } else {
      b = next_unused_++;
    }
    ++n_;
    t_.entries[b] = uint64_t{b} << 32;
    return b;
  }

  // Puts the owner index of every working bucket in its K half. `owner(b)`
  // gives bucket b's owner index.
  template <class Owner>
  AnchorTable finish(const Owner& owner) {
    for (uint32_t b = 0; b < t_.used; ++b)
      if (a_of(b) == 0) t_.entries[b] = uint64_t{owner(b)} << 32;
    return std::move(t_);
  }

 private:
  uint32_t a_of(uint32_t b) const { return static_cast<uint32_t>(t_.entries[b]); }
  uint32_t k_of(uint32_t b) const { return static_cast<uint32_t>(t_.entries[b] >> 32); }

  AnchorTable t_;
  uint32_t n_, next_unused_;
  std::vector<uint32_t> removed_;
};

}  // namespace

AnchorTable anchor_table(const Fleet& fleet) {
  const uint32_t used = check_anchor(fleet);
  const auto& initial = fleet.initial();
  const auto n0 = static_cast<uint32_t>(initial.size());
  AnchorBuilder builder(fleet_capacity(fleet, kAnchorMaxCapacity), used, n0);
  if (fleet.history().empty()) return builder.finish([](uint32_t b) { return b; });
  // The bucket of every node in service, by name (views of the fleet's own
  // strings, which outlive the build).
  std::unordered_map<std::string_view, uint32_t> bucket;
  bucket.reserve(n0);
  for (uint32_t b = 0; b < n0; ++b) bucket.emplace(initial[b], b);
  for (const FleetChange& c : fleet.history()) {
    if (c.kind == FleetChange::Kind::kLeave) {
      const auto it = bucket.find(c.node);
      builder.remove(it->second);
      bucket.erase(it);
    } else {
      bucket.emplace(c.node, builder.add());
    }
  }
  std::vector<uint32_t> owner(used);
  const auto& names = fleet.nodes().names;
  for (uint32_t i = 0; i < names.size(); ++i) owner[bucket.at(names[i])] = i;
  return builder.finish([&](uint32_t b) { return owner[b]; });
}

uint64_t anchor_table_bytes(const Fleet& fleet) noexcept {
  using glue::saturating_add;
  using glue::saturating_mul;
  // Entries for the buckets that ever work: at most the initial nodes plus
  // one per join, and at most a.
  const uint64_t used = std::min(anchor_capacity_estimate(fleet),
                                 saturating_add(fleet.initial().size(), fleet.history().size()));
  uint64_t bytes = saturating_mul(used, sizeof(uint64_t));
  if (!fleet.history().empty()) {
    // The owner array, the removal stack, and the name map (a node of a
    // view, a bucket and a hash, and its bucket slot: 64 bytes is generous).
    const uint64_t names = fleet.initial().size() + fleet.history().size();
    bytes = saturating_add(bytes, saturating_mul(used, sizeof(uint32_t)));
    bytes = saturating_add(bytes, saturating_mul(fleet.history().size(), sizeof(uint32_t)));
    bytes = saturating_add(bytes, saturating_mul(names, 64));
  }
  return bytes;
}

}  // namespace chbench
