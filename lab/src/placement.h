// The placement lab's measurements, one header a topic (placement/): the
// tables and their lookups (tables.h), changes of the fleet (changes.h), the
// keys a change moves (moves.h), how evenly keys spread (balance.h), and what
// they should read in expectation (theory.h). Batches run on oneTBB in the
// current task arena, so a caller limits the threads by running these
// functions inside its own tbb::task_arena. Placement rules are docs/spec.md's (§5 to §9).
#pragma once

#include "placement/balance.h"
#include "placement/changes.h"
#include "placement/moves.h"
#include "placement/tables.h"
#include "placement/theory.h"
