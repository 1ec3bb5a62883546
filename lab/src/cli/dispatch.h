// Runs the command that chbench-lab's options name: set-up and guards, then
// the command on its keys, printed through the format's writer
// (writers/writer.h), on oneTBB with --threads.
#pragma once

#include "cli/options.h"

namespace chbench::lab {

// Runs the parsed command and returns the exit status: 0, or 1 when stdout
// could not be written (with one line on stderr). Input is checked before
// the command prints its first byte: throws std::invalid_argument (or
// std::length_error) for bad input, std::bad_alloc when out of memory.
int run_command(const Options& o);

}  // namespace chbench::lab
