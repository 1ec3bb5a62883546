// The placement lab's tables: what places the keys (a scheme or a production
// profile), the kernel that looks them up, the tables' memory estimates, the
// names every output prints, and keys looked up in parallel blocks. Owners
// come from the library's kernels (scheme.h), each scheme's default being the
// registry's (default_kernel(): its fastest). Placement rules are docs/spec.md's (§5 to §9).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/nodes.h"
#include "chbench/profiles/profiles.h"
#include "chbench/scheme.h"
#include "keys.h"

namespace chbench::lab {

// What places the keys: a scheme (keys hashed as docs/spec.md §2 says, XXH3) or a
// production profile of profiles.h (keys hashed as that system hashes them,
// looked up by kernels of profile_scheme(profile)).
struct Placement {
  Scheme scheme = Scheme::kRing;
  std::optional<Profile> profile;
  // ketama: weight of a server by name; servers not listed weigh 1.
  std::map<std::string, uint32_t, std::less<>> weights;
};

// The kernel the lab uses when none is named: for a scheme the registry's
// default_kernel() (the lowest rank, the scheme's fastest as measured); for a
// profile default_profile_kernel(), the profile's own choice among the
// kernels of profile_scheme(). Never throws.
std::string_view default_kernel_name(const Placement& placement) noexcept;

// The kernel as reports name it, "scheme/kernel": kernel "" is
// default_kernel_name(placement), "reference" gives "<scheme>/reference" (for
// a profile "<profile>/reference"). Throws std::invalid_argument for a kernel
// the scheme does not have.
std::string kernel_full_name(const Placement& placement, std::string_view kernel);

// Builds a placement table over `fleet`: kernel "" means the scheme's
// default_kernel(), "reference" the scheme's reference, anything else a kernel
// of the registry (KernelInfo::build over the fleet, history included).
// Throws like SchemeInfo::check (std::invalid_argument for an invalid fleet,
// std::length_error for a ring over 2^32 - 1 tokens) and std::invalid_argument
// for an unknown kernel.
std::unique_ptr<OwnerTable> make_table(Scheme scheme, const Fleet& fleet,
                                       std::string_view kernel = {});

// The profile's cluster over `nodes` (weights looked up by name). Throws like
// validate_profile().
ProfileCluster profile_cluster(const Placement& placement, const NodeSet& nodes);

// make_table for a placement: for a profile, kernel "" is the profile's
// default, "reference" the profile's reference, anything else a kernel of
// profile_scheme(profile), over the fleet's current nodes. Throws like
// make_table and validate_profile.
std::unique_ptr<OwnerTable> make_table(const Placement& placement, const Fleet& fleet,
                                       std::string_view kernel = {});

// True for the ketama profiles (weighted, unweighted, twemproxy's): a continuum of points.
bool is_ketama(const Placement& placement) noexcept;

// The points of the ketama continuum that make_table builds over `nodes` (the
// profile's servers, weighted by placement.weights): the sum of
// ketama_points_per_server, 160 a server scaled by its weight as
// libmemcached scales it (twemproxy_points_per_server for twemproxy_ketama);
// for ketama_unweighted 100 a server
// (kKetamaUnweightedPoints). Allocates nothing.
uint64_t ketama_point_count(const Placement& placement, const NodeSet& nodes);
// Each server's points, in node order (their sum is ketama_point_count).
std::vector<uint32_t> ketama_points(const Placement& placement, const NodeSet& nodes);

// Peak bytes that make_table(placement, fleet, kernel) takes while building
// and holding the table: the registry's estimate, computed without building
// (KernelInfo::table_bytes, or SchemeInfo::reference_bytes for "reference").
// A profile's table is estimated as its scheme's over the fleet that has as
// many entries (ketama: the continuum's points per server, from
// ketama_points_per_server; Redis: its 16384 slots as a Maglev table).
// Saturates instead of overflowing. Throws std::invalid_argument for an
// unknown kernel.
uint64_t table_bytes(const Placement& placement, const Fleet& fleet, std::string_view kernel = {});

// The name of node `i` of `fleet` as every output prints it: the fleet's own
// name, or for a fleet of buckets (Fleet::of_buckets, names not held) the
// default name node-<i>. Precondition: i < fleet.size().
std::string owner_name(const Fleet& fleet, uint32_t i);

// Owners of keys first ... first + out.size() - 1 (0-based positions), looked
// up in parallel blocks: out[i] is the node index of key first + i.
// Precondition: first + out.size() <= keys.size().
void lookup_owners(const OwnerTable& table, const KeySet& keys, uint64_t first,
                   std::span<uint32_t> out, std::optional<Profile> profile = std::nullopt);

}  // namespace chbench::lab
