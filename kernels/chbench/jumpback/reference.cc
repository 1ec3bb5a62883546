// JumpBackHash over SplitMix64's reference (hash4j's getBucket transcribed,
// jumpback/reference.h) and the scheme's registry functions.
#include "chbench/jumpback/reference.h"

#include <cstdint>
#include <memory>

#include "chbench/jumpback/jumpback.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

uint32_t jumpback_buckets(const Fleet& fleet) {
  return glue::bucket_count(fleet, kJumpBackMaxBuckets, "JumpBackHash (an int in hash4j)");
}

std::unique_ptr<OwnerTable> registry::jumpback_reference(const Fleet& f) {
  using jumpback_reference::Reference, jumpback_reference::SplitMix64Algorithm;
  return std::make_unique<Reference<SplitMix64Algorithm>>(jumpback_buckets(f));
}

void registry::jumpback_check(const Fleet& f) { jumpback_buckets(f); }

uint64_t registry::jumpback_reference_bytes(const Fleet& f) { return glue::no_bytes(f); }

constinit const SchemeInfo registry::jumpback_scheme{
    .id = Scheme::kJumpBack,
    .name = "jumpback",
    .aliases = {},
    .title = "JumpBackHash (SplitMix64)",
    .source =
        "Ertl, JumpBackHash: Say Goodbye to the Modulo Operation to Distribute Keys "
        "Uniformly to Buckets, arXiv:2403.18682; hash4j 41d814f94c52, "
        "ConsistentHashing.jumpBackHashSplitMix64(); docs/schemes/jumpback.md",
    .params = 0,
    .removal = Removal::kLastOnly,
    .removal_note =
        "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
        "renumbers buckets",
    .max_nodes = kJumpBackMaxBuckets,
    .reference = &registry::jumpback_reference,
    .check = &registry::jumpback_check,
    .reference_bytes = &registry::jumpback_reference_bytes,
    .buckets_only = true,
    .growth = &minimal_growth};

}  // namespace chbench
