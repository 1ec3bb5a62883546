// Envoy's hash_balance_factor over the envoy_ring_hash ring (envoy_bounded_load.h).
#include "chbench/profiles/envoy_bounded_load.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include "chbench/profiles/ring_hash.h"

namespace chbench::ring_hash {

namespace {

// The uniform draw in [0, k) of Envoy's chooseHost.
uint32_t draw(std::mt19937& rng, uint32_t k) {
  const uint64_t bucket = (uint64_t{std::mt19937::max()} + 1) / k;
  uint32_t x = k;
  while (x >= k) x = static_cast<uint32_t>(rng() / bucket);
  return x;
}

class Stream {
 public:
  Stream(std::span<const double> weights, uint32_t factor)
      : weights_(weights), factor_(factor), out_{{}, std::vector<uint64_t>(weights.size(), 0), 0} {}

  // Active requests of host k over its slots, as hostOverloadFactor.
  double overload(uint32_t k) const {
    const uint32_t slots = envoy_slots(active_, factor_, weights_[k]);
    return static_cast<double>(out_.load[k]) / slots;
  }

  uint32_t choose(uint32_t owner, uint64_t hash) {
    double least = overload(owner);
    if (least <= 1.0) return owner;
    const auto n = static_cast<uint32_t>(weights_.size());
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::mt19937 rng(static_cast<std::mt19937::result_type>(hash));
    uint32_t best = owner;
    for (uint32_t i = 0; i < n; ++i) {
      std::swap(order[i], order[i + draw(rng, n - i)]);
      const uint32_t k = order[i];
      if (k == owner) continue;
      const double f = overload(k);
      if (f <= 1.0) return k;
      if (least > f) best = k, least = f;
    }
    return best;
  }

  void take(uint32_t k, uint32_t owner) {
    out_.host.push_back(k);
    ++out_.load[k];
    if (k != owner) ++out_.probed;
    ++active_;
  }

  EnvoyBoundedAssignment result() && { return std::move(out_); }

 private:
  std::span<const double> weights_;
  uint32_t factor_;
  uint32_t active_ = 0;
  EnvoyBoundedAssignment out_;
};

}  // namespace

uint32_t envoy_slots(uint32_t active, uint32_t factor, double weight) {
  const uint32_t total = ((active + 1) * factor + 99) / 100;
  return std::max(static_cast<uint32_t>(std::ceil(total * weight)), uint32_t{1});
}

EnvoyBoundedAssignment envoy_bounded_assign(std::span<const RingEntry<uint64_t>> ring,
                                            std::span<const double> weights,
                                            std::span<const uint64_t> request_hashes,
                                            uint32_t factor) {
  if (ring.empty()) throw std::invalid_argument("envoy bounded load: an empty ring");
  if (factor < 100)
    throw std::invalid_argument("envoy bounded load: hash_balance_factor must be at least 100");
  if (request_hashes.size() > 0xffffffffu)
    throw std::invalid_argument("envoy bounded load: more than 2^32 - 1 requests");
  Stream stream(weights, factor);
  for (uint64_t h : request_hashes) {
    const uint32_t owner = ring[ketama_search(ring, h)].node;
    stream.take(stream.choose(owner, h), owner);
  }
  return std::move(stream).result();
}

}  // namespace chbench::ring_hash
