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

// How a key file's lines are read (--key-format): kText, each line a key
// whose bytes the scheme hashes (SPEC.md's key hash) or a profile hashes its
// own way; kHash, each line a 64-bit key hash given to the scheme as it is.
enum class KeyFormat { kText, kHash };

// "text" or "hash". Throws std::invalid_argument naming the known formats.
KeyFormat parse_key_format(std::string_view name);

// The keys a command works on: either the default keys user:1 ... user:K, kept
// as a count only (their hashes are recomputed where needed, so memory does not
// grow with K), the lines of a file, kept as bytes plus precomputed hashes, or
// the key hashes of a file (KeyFormat::kHash), kept as 8 bytes each.
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

  // One 64-bit key hash per line (KeyFormat::kHash), used as the key hash
  // itself: decimal digits, or 0x (or 0X) and hex digits, with spaces or tabs
  // around it; lines end as in from_stream (LF, CRLF, the last needs none);
  // lines empty after trimming are skipped. Throws std::invalid_argument on a
  // line that is not such a number or exceeds 2^64 - 1 ("<source> line 3 is
  // not a 64-bit key hash ...: 'abc'"), and as from_stream on a NUL byte, a
  // line longer than kMaxKeyBytes, more than kMaxKeys lines, no hash at all or
  // a read error.
  static KeySet from_hash_stream(std::istream& in, std::string_view source);

  // Key hashes given directly (tests). Throws std::invalid_argument if empty.
  static KeySet from_hashes(std::span<const uint64_t> hashes);

  uint64_t size() const noexcept { return count_; }
  bool is_counted() const noexcept { return offsets_.empty() && hashes_.empty(); }
  // True for key hashes given as such (from_hash_stream, from_hashes).
  bool is_hashes() const noexcept { return offsets_.empty() && !hashes_.empty(); }

  // Writes the SPEC.md key hashes of keys first ... first + out.size() - 1 to
  // `out` (0-based key positions), or with a profile that profile's key hashes
  // (profile_key_hashes); for key hashes given as such, those hashes.
  // Precondition: first + out.size() <= size(). Throws what profile_key_hashes
  // throws, and std::invalid_argument for a profile over key hashes (a
  // profile hashes key bytes; main.cc refuses the combination first).
  void hashes(uint64_t first, std::span<uint64_t> out,
              std::optional<Profile> profile = std::nullopt) const;

  // Appends the bytes of key `i` (0-based) to `out`; for key hashes given as
  // such, the hash in decimal. Precondition: i < size().
  void append_key(uint64_t i, std::string& out) const;
  std::string key(uint64_t i) const;

 private:
  uint64_t count_ = 0;
  std::vector<char> bytes_;        // file keys back to back
  std::vector<uint64_t> offsets_;  // count_ + 1 offsets into bytes_; empty: counted
  std::vector<uint64_t> hashes_;   // file keys, or the key hashes given (offsets_ empty)
};

// Parses `--keys`: all decimal digits is a count K (user:1 ... user:K), "-" is
// standard input, anything else a file of one key per line, read as `format`
// says (from_stream or from_hash_stream). Throws std::invalid_argument for K =
// 0, K > kMaxKeys, a negative count, a count with KeyFormat::kHash (counted
// keys are strings, hashed), a file that cannot be opened, or a file that the
// reader refuses.
KeySet parse_keys(std::string_view spec, KeyFormat format = KeyFormat::kText);

// `--nodes` as a count N when it is all decimal digits, std::nullopt for a
// list of names. Allocates nothing. Throws std::invalid_argument for a
// negative N or N > 2^32 - 1 (N = 0 is returned, for the fleet to refuse).
std::optional<uint32_t> parse_node_count(std::string_view spec);

// Parses `--nodes`: all decimal digits is a count N (node-0 ... node-(N-1)),
// anything else a comma-separated list of names (spaces around a name are
// dropped). The result carries `vnodes` and has passed validate(). Throws
// std::invalid_argument for N = 0, a negative N, N > 2^32 - 1, a node list
// that would not fit in memory (check_memory), an empty or duplicate name, or
// vnodes == 0. (A scheme that places by the bucket count alone builds from
// parse_node_count and Fleet::of_buckets instead: no names, no memory.)
NodeSet parse_nodes(std::string_view spec, uint32_t vnodes);

}  // namespace chbench::lab
