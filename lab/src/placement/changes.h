// Changes of a fleet: the nodes that leave and join a move (--add, --remove),
// checked as a scheme takes them, and whether a fleet of buckets stays one.
#pragma once

#include <span>
#include <string>

#include "chbench/fleet.h"
#include "chbench/scheme.h"

namespace chbench::lab {

// Checks a change of `before` as apply_change does (and throws as it does),
// without changing or naming anything, and tells whether the fleet after it
// is again a fleet of buckets: true when `before` is one (not named()), the
// nodes that leave are its last ones and those that join are named node-<s>,
// node-<s+1>, ... in order (s: the buckets left), so that the names stay the
// default ones. A fleet of buckets is looked up by index (node-<i>, i < N),
// so this costs no memory per node: the lab's commands call it to decide
// whether a move needs names before any memory is estimated.
bool bucket_change(Scheme scheme, const Fleet& before, std::span<const std::string> add,
                   std::span<const std::string> remove);

// The fleet after the nodes of `remove` leave (Fleet::leave, in the order
// given) and then those of `add` join (Fleet::join, appended in order), so
// that the result's history() records the change. The survivors keep their
// order. When the scheme's removal is Removal::kLastOnly (jump: buckets 0 ...
// N-1 by list position, docs/spec.md §8) only the last remove.size() nodes may leave,
// in any order; any other removal is refused with a message that says which
// nodes can go. Throws std::invalid_argument for an unknown node in `remove`,
// a name listed twice, an added name already present or empty, a refused
// removal, or removing every node (N = 0: a fleet is never empty, even on
// its way to the additions). A fleet of buckets whose change is a
// bucket_change() gives Fleet::of_buckets(N') (no names, no history: such a
// fleet is only built for a scheme that places by the bucket count alone);
// after any other change it is named (node-0 ... node-(N-1), then changed).
Fleet apply_change(Scheme scheme, const Fleet& before, std::span<const std::string> add,
                   std::span<const std::string> remove);

}  // namespace chbench::lab
