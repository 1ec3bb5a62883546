// The profile of SUPSI's MementoEngine: SUPSI-DTI-ISIN/
// java-consistent-hashing-algorithms at 68803f8 (consistenthash/memento/
// MementoEngine.java with its default hash function, XX), on String keys,
// bucket for bucket (tests/vectors/supsi/memento_vectors.csv). The buckets
// change by the paper's rules, as the scheme's (MementoBuckets); the lookup is
// the scalar kernel's loop (memento_walk) with the engine's hashes in place of
// the scheme's: Guava's consistentHash over the key's 32-bit xxHash for the
// jump, and the xxHash of the key seeded with the bucket, modulo the replacer,
// for the rehash. docs/schemes/memento.md says where this differs.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "chbench/memento/memento.h"

namespace chbench {

// The framework's hash(String key, int seed) with XX (commons-codec XXHash32,
// seed 0): XXH32 of the key's bytes followed by the seed's four bytes, big
// endian; a seed of 0 is no seed (the key's bytes alone). In [0, 2^32).
uint32_t supsi_xx32(std::string_view key, int32_t seed = 0);

// Guava's Hashing.consistentHash(input, buckets): Lamping and Veach's jump
// with Guava's LCG double, (candidate + 1) / ((int)(state >>> 33) + 1) / 2^31,
// the int addition wrapping as Java's does. Precondition: buckets >= 1.
int32_t guava_consistent_hash(int64_t input, int32_t buckets);

// MementoEngine(size, XX) and its removeBucket, addBucket and getBucket.
class SupsiMemento {
 public:
  // Precondition: 1 <= size <= kMementoMaxBuckets.
  explicit SupsiMemento(uint32_t size);

  // removeBucket(b). Precondition: b is working and not the last working one.
  void remove_bucket(uint32_t b);
  // addBucket(): the bucket restored or added.
  uint32_t add_bucket();
  // getBucket(key): the bucket of a String key, given by its UTF-8 bytes.
  uint32_t bucket(std::string_view key) const;

  const MementoBuckets& buckets() const noexcept { return state_; }

 private:
  void refresh();

  MementoBuckets state_;
  MementoSlots slots_;  // working buckets' entries are the buckets themselves
};

}  // namespace chbench
