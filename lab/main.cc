// chbench-lab: what each placement scheme does to the data. Four commands:
//   owners   each key's owner;
//   move     which keys change owner when nodes join or leave;
//   balance  how evenly keys (and, for the ring, the circle) spread;
//   tokens   Cassandra's token allocation against random tokens.
// The measurements live in src/placement/, the commands in src/commands/
// (each computes a result), the output formats in src/writers/ (one writer
// per format renders every result); src/cli/ parses the command line
// (options), refuses what does not apply (applies), sets the command up
// (setup_from, guards) and runs it (dispatch). This file maps failures to the
// exit status: 0 ok, 1 an internal failure (out of memory, a write error), 2
// bad input, always with a one-line message on stderr and nothing on stdout
// for that error.
#include <cstdio>
#include <exception>
#include <new>
#include <optional>
#include <stdexcept>

#include "cli/dispatch.h"
#include "cli/options.h"

namespace {

int run(int argc, char** argv) {
  chbench::lab::Options o;
  if (const std::optional<int> status = chbench::lab::parse_options(argc, argv, o)) return *status;
  return chbench::lab::run_command(o);
}

}  // namespace

int main(int argc, char** argv) {
  using chbench::lab::kProgram;
  try {
    return run(argc, argv);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 2;
  } catch (const std::length_error& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory (try fewer keys or nodes)\n", kProgram);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", kProgram, e.what());
    return 1;
  }
}
