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

// A lower bound of a job's time in seconds: `lookups` key lookups, each
// scoring `scores` nodes (1 for a scheme that does not score every node),
// at no more than kScoresPerSecond node scores a second (about the best
// rendezvous SIMD rate of one core on the committed runs, with room).
inline constexpr double kScoresPerSecond = 5e9;
double estimated_seconds(uint64_t lookups, uint64_t scores);

// Refuses a job estimated at more than kMaxSeconds (an hour) unless
// `allowed` (--allow-long): throws std::invalid_argument ("<what> would take
// about 560 hours (1e+16 node scores at about 5e+09 a second); give
// --allow-long to run it anyway").
inline constexpr double kMaxSeconds = 3600;
void check_time(uint64_t lookups, uint64_t scores, const std::string& what, bool allowed);

// What every lab command holds per node besides the tables, in bytes: the
// fleet's names (32 B a std::string; names up to 15 characters hold no heap
// bytes; a Fleet without history keeps no second list) and
// SchemeInfo::check's validate() set of names (about 56 B a name). Set from
// peak RSS (/usr/bin/time -v) less the 7 MB of an N = 1 run, at N = 10^7 with
// owners --scheme jump (no table): 88 B a node, rounded up by about a fifth
// for the margin (longer names, allocator slack). parse_nodes refuses a count
// past it; cli/guards.h adds each command's own per-node bytes.
inline constexpr uint64_t kNodeBytes = 108;

// How a key file's lines are read (--key-format): kText, each line a key
// whose bytes the scheme hashes (docs/spec.md §2's key hash) or a profile hashes its
// own way; kHex and kBase64, each line a key's bytes in hex or base64
// (key_codec.h: any bytes, NUL included; an empty line is the empty key);
// kHash, each line a 64-bit key hash given to the scheme as it is.
enum class KeyFormat { kText, kHex, kBase64, kHash };

// "text", "hex", "base64" or "hash". Throws std::invalid_argument naming the
// known formats.
KeyFormat parse_key_format(std::string_view name);
std::string_view key_format_name(KeyFormat format) noexcept;

// The keys a command works on: either the default keys user:1 ... user:K, kept
// as a count only (their hashes are recomputed where needed, so memory does not
// grow with K), the lines of a file, kept as bytes plus precomputed hashes, or
// the key hashes of a file (KeyFormat::kHash), kept as 8 bytes each.
class KeySet {
 public:
  // user:1 ... user:count. Throws std::invalid_argument if count == 0 or
  // count > kMaxKeys.
  static KeySet counted(uint64_t count);

  // One key per line, read as `format` says (kText, kHex or kBase64). Every
  // format: a line ends at '\n' and one '\r' right before it (CRLF) is not
  // part of it; the last line needs no '\n' (a final '\n' starts no line); a
  // UTF-8 byte-order mark (EF BB BF) at the start of the input is dropped.
  // kText: the line's bytes are the key, and an empty line is skipped (a
  // blank line, not a key: the empty key is posed in hex or base64); kHex,
  // kBase64: spaces and tabs around the line are dropped and the rest decoded
  // (decode_hex, decode_base64), an empty line being the empty key. `source`
  // names the input in messages. Throws std::invalid_argument when no key is
  // left ("... contains no keys"), on a line that does not decode ("... line
  // 3 is not hex ..."), on a line longer than kMaxKeyBytes, on a NUL byte in
  // the file (a binary file, not lines: NUL bytes in keys are written in hex or
  // base64), on more than kMaxKeys keys, or on a read error.
  static KeySet from_stream(std::istream& in, std::string_view source,
                            KeyFormat format = KeyFormat::kText);

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

  // Writes the key hashes (docs/spec.md §2) of keys first ... first + out.size() - 1 to
  // `out` (0-based key positions), or with a profile that profile's key hashes
  // (profile_key_hashes); for key hashes given as such, those hashes.
  // Precondition: first + out.size() <= size(). Throws what profile_key_hashes
  // throws, and std::invalid_argument for a profile over key hashes (a
  // profile hashes key bytes; cli/setup_from.cc refuses the combination first).
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
// 0, K > kMaxKeys, a negative count, a count with any format but kText
// (counted keys are the strings user:i), a file that cannot be opened, or a
// file that the reader refuses.
KeySet parse_keys(std::string_view spec, KeyFormat format = KeyFormat::kText);

// `--nodes` as a count N when it is all decimal digits, std::nullopt for a
// list of names. Allocates nothing. Throws std::invalid_argument for a
// negative N or N > 2^32 - 1 (N = 0 is returned, for the fleet to refuse).
std::optional<uint32_t> parse_node_count(std::string_view spec);

// Parses `--nodes`: all decimal digits is a count N (node-0 ... node-(N-1)),
// anything else a comma-separated list of names (spaces around a name are
// dropped; a name cannot hold a comma: parse_node_file takes any). The result
// carries `vnodes` and has passed validate(). Throws std::invalid_argument for
// N = 0, a negative N, N > 2^32 - 1, a node list that would not fit in memory
// (check_memory), an empty or duplicate name, a name holding a control byte
// (a tab would break the text output's columns; check_node_names), or vnodes
// == 0. (A scheme that places by the bucket count alone builds from
// parse_node_count and Fleet::of_buckets instead: no names, no memory.)
NodeSet parse_nodes(std::string_view spec, uint32_t vnodes);

// --nodes-file: one node name per line, taken exactly (commas and spaces
// included; only the line end, LF or CRLF, and a byte-order mark at the start
// are not part of a name), read as from_stream reads lines. Throws
// std::invalid_argument as parse_nodes does (an empty line is an empty name),
// for a file that cannot be opened, and for no name at all.
NodeSet parse_node_file(const std::string& path, uint32_t vnodes);

// Refuses a node name that is not UTF-8 (is_utf8: JSON prints names as
// strings) or holds a byte below 0x20 or 0x7F (a tab, a line break: the text
// output separates its columns by tabs and its rows by line breaks). Throws
// std::invalid_argument naming the node and the byte.
void check_node_names(const NodeSet& nodes);

}  // namespace chbench::lab
