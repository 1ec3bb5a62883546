// JumpBackHash over XorshiftL7R9's reference (hash4j's getBucket transcribed,
// jumpback/reference.h) and the scheme's registry functions.
#include "chbench/jumpback/reference.h"

#include <cstdint>
#include <memory>

#include "chbench/jumpback/jumpback.h"
#include "chbench/kernel_glue.h"
#include "chbench/registry.h"
#include "chbench/scheme.h"

namespace chbench {

uint32_t jumpback_xorshift_buckets(const Fleet& fleet) {
  return glue::bucket_count(fleet, kJumpBackMaxBuckets,
                            "JumpBackHash over XorshiftL7R9 (an int in hash4j)");
}

std::unique_ptr<OwnerTable> registry::jumpback_xorshift_reference(const Fleet& f) {
  using jumpback_reference::Reference, jumpback_reference::XorshiftL7R9Algorithm;
  return std::make_unique<Reference<XorshiftL7R9Algorithm>>(jumpback_xorshift_buckets(f));
}

void registry::jumpback_xorshift_check(const Fleet& f) { jumpback_xorshift_buckets(f); }

uint64_t registry::jumpback_xorshift_reference_bytes(const Fleet& f) { return glue::no_bytes(f); }

constinit const SchemeInfo registry::jumpback_xorshift_scheme{
    .id = Scheme::kJumpBackXorshift,
    .name = "jumpback_xorshift",
    .aliases = {},
    .title = "JumpBackHash (XorshiftL7R9)",
    .source =
        "Ertl, JumpBackHash, arXiv:2403.18682; hash4j 41d814f94c52, "
        "ConsistentHashing.jumpBackHashXorshiftL7R9(); docs/schemes/jumpback.md",
    .params = 0,
    .removal = Removal::kLastOnly,
    .removal_note =
        "only the last bucket can leave (buckets are 0 ... N-1); any other leave "
        "renumbers buckets",
    .max_nodes = kJumpBackMaxBuckets,
    .reference = &registry::jumpback_xorshift_reference,
    .check = &registry::jumpback_xorshift_check,
    .reference_bytes = &registry::jumpback_xorshift_reference_bytes,
    .buckets_only = true,
    .growth = &minimal_growth};

}  // namespace chbench
