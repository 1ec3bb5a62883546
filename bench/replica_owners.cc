// Family replicas' adapter (replica_owners.h).
#include "replica_owners.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace chbench::bench {

namespace {

class ReplicaOwners final : public OwnerTable {
 public:
  explicit ReplicaOwners(std::unique_ptr<ReplicaTable> replicas) : replicas_(std::move(replicas)) {}
  void owners(std::span<const uint64_t> h, std::span<uint32_t> out) const override {
    const std::size_t r = replicas_->replica_count();
    thread_local std::vector<uint32_t> sets;
    if (sets.size() < h.size() * r) sets.resize(h.size() * r);
    replicas_->replicas(h, std::span(sets).first(h.size() * r));
    for (std::size_t i = 0; i < h.size(); ++i) out[i] = sets[i * r];
  }
  std::size_t memory_bytes() const noexcept override { return replicas_->memory_bytes(); }

 private:
  std::unique_ptr<ReplicaTable> replicas_;
};

}  // namespace

std::unique_ptr<OwnerTable> replica_owners(std::unique_ptr<ReplicaTable> replicas) {
  return std::make_unique<ReplicaOwners>(std::move(replicas));
}

}  // namespace chbench::bench
