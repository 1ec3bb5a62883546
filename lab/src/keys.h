// The lab's inputs: the keys a command works on (counted or from a file) and
// the node list of --nodes, each refused with one line when it is not usable,
// before anything large is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/nodes.h"
#include "chbench/profiles/profiles.h"

namespace chbench::lab {

// Most keys a command takes. Counted keys are looked up, never stored, but
// 10^10 lookups already take minutes on two cores: more is refused.
inline constexpr uint64_t kMaxKeys = 10'000'000'000;

// Longest key of a key file, in bytes. A longer line is not a key but a file
// given by mistake (binary, minified JSON, a log), and is refused.
inline constexpr std::size_t kMaxKeyBytes = 65536;

// Refuses work that would not fit in memory before anything is allocated:
// throws std::invalid_argument ("<what> would need about X GiB, more than 90%
// of the Y GiB of memory available") when `bytes` exceeds nine tenths of
// available_memory_bytes(). Does nothing when the available memory is unknown.
void check_memory(uint64_t bytes, const std::string& what);

// What every lab command holds per node besides the tables, in bytes: the
// fleet's names (32 B a std::string; names up to 15 characters hold no heap
// bytes; a Fleet without history keeps no second list) and
// SchemeInfo::check's validate() set of names (about 56 B a name). Set from
// peak RSS (/usr/bin/time -v) less the 7 MB of an N = 1 run, at N = 10^7 with
// owners --scheme jump (no table): 88 B a node, rounded up by about a fifth
// for the margin (longer names, allocator slack). parse_nodes refuses a count
// past it; main.cc adds each command's own per-node bytes.
inline constexpr uint64_t kNodeBytes = 108;

// The keys a command works on: either the default keys user:1 ... user:K, kept
// as a count only (their hashes are recomputed where needed, so memory does not
// grow with K), or the lines of a file, kept as bytes plus precomputed hashes.
class KeySet {
 public:
  // user:1 ... user:count. Throws std::invalid_argument if count == 0 or
  // count > kMaxKeys.
  static KeySet counted(uint64_t count);

  // One key per line. A line ends at '\n'; a '\r' right before it (CRLF) is not
  // part of the key; the last line needs no '\n'; empty lines are skipped, since
  // an empty key cannot be told apart from a blank line. `source` names the
  // input in messages. Throws std::invalid_argument when no key is left ("...
  // contains no keys"), on a line longer than kMaxKeyBytes, on a NUL byte
  // (a binary file, not keys), on more than kMaxKeys keys, or on a read error.
  static KeySet from_stream(std::istream& in, std::string_view source);

  // Keys given directly (tests, small tools); empty strings are kept as keys.
  // Throws std::invalid_argument if `keys` is empty.
  static KeySet from_strings(std::span<const std::string> keys);

  uint64_t size() const noexcept { return count_; }
  bool is_counted() const noexcept { return offsets_.empty(); }

  // Writes the SPEC.md key hashes of keys first ... first + out.size() - 1 to
  // `out` (0-based key positions), or with a profile that profile's key hashes
  // (profile_key_hashes). Precondition: first + out.size() <= size(). Throws
  // only what profile_key_hashes throws.
  void hashes(uint64_t first, std::span<uint64_t> out,
              std::optional<Profile> profile = std::nullopt) const;

  // Appends the bytes of key `i` (0-based) to `out`. Precondition: i < size().
  void append_key(uint64_t i, std::string& out) const;
  std::string key(uint64_t i) const;

 private:
  uint64_t count_ = 0;
  std::vector<char> bytes_;        // file keys back to back
  std::vector<uint64_t> offsets_;  // count_ + 1 offsets into bytes_; empty: counted
  std::vector<uint64_t> hashes_;   // file keys only
};

// Parses `--keys`: all decimal digits is a count K (user:1 ... user:K), "-" is
// standard input, anything else a file of one key per line. Throws
// std::invalid_argument for K = 0, K > kMaxKeys, a negative count, a file that
// cannot be opened, or a file that from_stream refuses.
KeySet parse_keys(std::string_view spec);

// Parses `--nodes`: all decimal digits is a count N (node-0 ... node-(N-1)),
// anything else a comma-separated list of names (spaces around a name are
// dropped). The result carries `vnodes` and has passed validate(). Throws
// std::invalid_argument for N = 0, a negative N, N > 2^32 - 1, a node list
// that would not fit in memory (check_memory), an empty or duplicate name, or
// vnodes == 0.
NodeSet parse_nodes(std::string_view spec, uint32_t vnodes);

}  // namespace chbench::lab
