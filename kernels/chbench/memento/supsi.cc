// SUPSI's MementoEngine as a profile (supsi.h).
#include "chbench/memento/supsi.h"

#include <xxhash.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace chbench {

uint32_t supsi_xx32(std::string_view key, int32_t seed) {
  if (seed == 0) return XXH32(key.data(), key.size(), 0);
  std::string bytes(key);
  const auto s = static_cast<uint32_t>(seed);
  for (int shift = 24; shift >= 0; shift -= 8) bytes.push_back(static_cast<char>(s >> shift));
  return XXH32(bytes.data(), bytes.size(), 0);
}

int32_t guava_consistent_hash(int64_t input, int32_t buckets) {
  uint64_t state = static_cast<uint64_t>(input);
  int32_t candidate = 0;
  for (;;) {
    state = 2862933555777941757ULL * state + 1;
    // (int)(state >>> 33) + 1 in Java's int: 2^31 wraps to -2^31.
    const uint32_t top = static_cast<uint32_t>(state >> 33) + 1;
    const double next_double = static_cast<double>(static_cast<int32_t>(top)) / 0x1.0p31;
    const double next = static_cast<double>(candidate + 1) / next_double;
    // (int) next is in [0, buckets) exactly when next is: Java's cast
    // truncates and saturates, and a negative divisor makes next <= -1.
    if (!(next >= 0.0 && next < static_cast<double>(buckets))) return candidate;
    candidate = static_cast<int32_t>(next);
  }
}

SupsiMemento::SupsiMemento(uint32_t size) : state_(size) { refresh(); }

void SupsiMemento::remove_bucket(uint32_t b) {
  state_.remove(b);
  refresh();
}

uint32_t SupsiMemento::add_bucket() {
  const uint32_t b = state_.add();
  refresh();
  return b;
}

void SupsiMemento::refresh() {
  std::vector<uint32_t> self(state_.array_size());
  for (uint32_t b = 0; b < self.size(); ++b) self[b] = b;
  slots_ = memento_slots(state_, self);
}

uint32_t SupsiMemento::bucket(std::string_view key) const {
  const auto b = static_cast<uint32_t>(
      guava_consistent_hash(supsi_xx32(key), static_cast<int32_t>(slots_.size)));
  return memento_walk(slots_.slot.get(), b, [key](uint32_t bucket, uint32_t replacer) {
    return supsi_xx32(key, static_cast<int32_t>(bucket)) % replacer;
  });
}

}  // namespace chbench
