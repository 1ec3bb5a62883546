#include "keys.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <stdexcept>

#include "chbench/hash.h"
#include "chbench/memory.h"
#include "key_codec.h"

namespace chbench::lab {

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "-" followed by digits: a negative count, not a file or a node name.
bool negative_number(std::string_view s) {
  return s.size() > 1 && s[0] == '-' && all_digits(s.substr(1));
}

uint64_t parse_count(std::string_view s, const char* what) {
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size())
    throw std::invalid_argument(std::string(what) + " '" + std::string(s) +
                                "' does not fit in 64 bits");
  return value;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

void check_memory(uint64_t bytes, const std::string& what) {
  const std::string shortfall = memory_shortfall(bytes);
  if (!shortfall.empty()) throw std::invalid_argument(what + shortfall);
}

double estimated_seconds(uint64_t lookups, uint64_t scores) {
  return static_cast<double>(lookups) * static_cast<double>(std::max<uint64_t>(scores, 1)) /
         kScoresPerSecond;
}

void check_time(uint64_t lookups, uint64_t scores, const std::string& what, bool allowed) {
  const double seconds = estimated_seconds(lookups, scores);
  if (allowed || seconds <= kMaxSeconds) return;
  const double work =
      static_cast<double>(lookups) * static_cast<double>(std::max<uint64_t>(scores, 1));
  char msg[200];
  std::snprintf(msg, sizeof msg,
                " would take about %.0f hours (%.3g node scores at about %.3g a second); give "
                "--allow-long to run it anyway",
                seconds / 3600, work, kScoresPerSecond);
  throw std::invalid_argument(what + msg);
}

KeySet KeySet::counted(uint64_t count) {
  if (count == 0) throw std::invalid_argument("the key count must be at least 1 (K = 0)");
  if (count > kMaxKeys)
    throw std::invalid_argument("K = " + std::to_string(count) +
                                " keys is more than the lab takes (10^10: minutes of lookups "
                                "already); use fewer");
  KeySet keys;
  keys.count_ = count;
  return keys;
}

namespace {

// Splits a stream into lines for the key readers, refusing what is not a
// file of lines: a NUL byte (a binary file), a line over kMaxKeyBytes (a file
// given by mistake), a read error.
struct Lines {
  std::string_view source;  // "key file 'k.txt'", for messages
  const char* what;         // what the file should be: "a file of keys (one key per line)"
  uint64_t number = 0;      // the line being read, from 1

  [[noreturn]] void fail(const std::string& why) const {
    throw std::invalid_argument(std::string(source) + " line " + std::to_string(number) + " " +
                                why);
  }
  [[noreturn]] void refuse(const std::string& why) const { fail(why + ": not " + what); }

  // Calls on_line(line) for every line, without its '\n' and the '\r' before
  // it (CRLF); the last line needs no '\n'; a UTF-8 byte-order mark at the
  // start of the input is dropped.
  template <class OnLine>
  void read(std::istream& in, const OnLine& on_line);
};

template <class OnLine>
void Lines::read(std::istream& in, const OnLine& on_line) {
  std::vector<char> buffer(std::size_t{1} << 20);
  // The line being read may span reads; `line` holds its start until its '\n'.
  std::string line;
  bool first_read = true;
  auto finish_line = [&](std::string_view s) {
    ++number;
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    if (s.size() > kMaxKeyBytes)
      refuse("is " + std::to_string(s.size()) + " bytes long, more than a key's " +
             std::to_string(kMaxKeyBytes));
    on_line(s);
  };
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    std::string_view chunk(buffer.data(), static_cast<std::size_t>(in.gcount()));
    if (first_read && chunk.substr(0, 3) == "\xEF\xBB\xBF") chunk.remove_prefix(3);
    first_read = false;
    if (chunk.find('\0') != std::string_view::npos) {
      // The line holding it: the lines finished so far, plus those of this chunk before it.
      number += static_cast<uint64_t>(
          std::count(chunk.begin(), chunk.begin() + chunk.find('\0'), '\n') + 1);
      refuse("holds a NUL byte (a binary file?)");
    }
    std::size_t start = 0;
    for (std::size_t nl; (nl = chunk.find('\n', start)) != std::string_view::npos; start = nl + 1) {
      if (line.empty()) {
        finish_line(chunk.substr(start, nl - start));
      } else {
        line.append(chunk.substr(start, nl - start));
        finish_line(line);
        line.clear();
      }
    }
    line.append(chunk.substr(start));
    if (line.size() > kMaxKeyBytes + 1) {  // + 1: a '\r' may end it
      ++number;                            // a runaway line, stopped before it fills memory
      refuse("is longer than a key's " + std::to_string(kMaxKeyBytes) + " bytes");
    }
  }
  // Bad input, not an internal failure: e.g. a directory given as the key file.
  if (in.bad()) throw std::invalid_argument("cannot read keys from " + std::string(source));
  if (!line.empty()) finish_line(line);  // a final '\n' starts no line
}

// A line's bytes for a message: at most 40, quoted, bytes outside printable
// ASCII as \xHH (the message stays one line).
std::string quoted(std::string_view s) {
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < 40; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    }
  }
  return out + (s.size() > 40 ? "'..." : "'");
}

}  // namespace

namespace {

// A line of --key-format hex or base64 as the key's bytes: trimmed, decoded.
std::string decoded_key(const Lines& lines, std::string_view line, KeyFormat format) {
  const std::string_view s = trim(line);
  const std::optional<std::string> key =
      format == KeyFormat::kHex ? decode_hex(s) : decode_base64(s);
  if (!key)
    lines.fail("holds " + quoted(s) +
               (format == KeyFormat::kHex
                    ? ", not hex (an even number of hex digits, two a byte)"
                    : ", not base64 (RFC 4648: A-Z a-z 0-9 + /, '=' padding optional)"));
  return *key;
}

}  // namespace

KeySet KeySet::from_stream(std::istream& in, std::string_view source, KeyFormat format) {
  KeySet keys;
  keys.offsets_.push_back(0);
  Lines lines{source, "a file of keys (one key per line)"};
  const bool encoded = format == KeyFormat::kHex || format == KeyFormat::kBase64;
  std::string decoded;
  lines.read(in, [&](std::string_view s) {
    if (encoded) {
      decoded = decoded_key(lines, s, format);
      s = decoded;
    } else if (s.empty()) {
      return;
    }
    if (keys.offsets_.size() > kMaxKeys) lines.refuse("is key 10^10 + 1, more than the lab takes");
    keys.bytes_.insert(keys.bytes_.end(), s.begin(), s.end());
    keys.offsets_.push_back(keys.bytes_.size());
  });
  keys.count_ = keys.offsets_.size() - 1;
  if (keys.count_ == 0)
    throw std::invalid_argument(std::string(source) + " contains no keys (one key per line)");
  keys.bytes_.shrink_to_fit();
  keys.offsets_.shrink_to_fit();
  keys.hashes_.resize(keys.count_);
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, keys.count_), [&](const auto& range) {
    for (uint64_t i = range.begin(); i != range.end(); ++i)
      keys.hashes_[i] = key_hash(std::string_view(keys.bytes_.data() + keys.offsets_[i],
                                                  keys.offsets_[i + 1] - keys.offsets_[i]));
  });
  return keys;
}

KeySet KeySet::from_hash_stream(std::istream& in, std::string_view source) {
  KeySet keys;
  Lines lines{source, "a file of key hashes (one per line)"};
  lines.read(in, [&](std::string_view line) {
    const std::string_view s = trim(line);
    if (s.empty()) return;
    if (keys.hashes_.size() >= kMaxKeys)
      lines.refuse("is key hash 10^10 + 1, more than the lab takes");
    const bool hex = s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const std::string_view digits = hex ? s.substr(2) : s;
    uint64_t h = 0;
    const auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), h, hex ? 16 : 10);
    const bool whole = !digits.empty() && end == digits.data() + digits.size();
    if (ec == std::errc::result_out_of_range && whole)
      lines.fail("holds " + quoted(s) + ", past 2^64 - 1: a key hash has 64 bits");
    if (ec != std::errc() || !whole)
      lines.fail("holds " + quoted(s) +
                 ", not a 64-bit key hash (decimal digits, or 0x and hex digits)");
    keys.hashes_.push_back(h);
  });
  keys.count_ = keys.hashes_.size();
  if (keys.count_ == 0)
    throw std::invalid_argument(std::string(source) + " contains no key hashes (one per line)");
  keys.hashes_.shrink_to_fit();
  return keys;
}

KeySet KeySet::from_hashes(std::span<const uint64_t> hashes) {
  if (hashes.empty()) throw std::invalid_argument("the key hash list is empty");
  KeySet keys;
  keys.count_ = hashes.size();
  keys.hashes_.assign(hashes.begin(), hashes.end());
  return keys;
}

KeySet KeySet::from_strings(std::span<const std::string> strings) {
  if (strings.empty()) throw std::invalid_argument("the key list is empty");
  KeySet keys;
  keys.count_ = strings.size();
  keys.offsets_.push_back(0);
  for (const auto& s : strings) {
    keys.bytes_.insert(keys.bytes_.end(), s.begin(), s.end());
    keys.offsets_.push_back(keys.bytes_.size());
    keys.hashes_.push_back(key_hash(s));
  }
  return keys;
}

void KeySet::hashes(uint64_t first, std::span<uint64_t> out, std::optional<Profile> profile) const {
  if (profile && is_hashes())
    throw std::invalid_argument("a profile hashes key strings its own way, not given key hashes");
  if (profile) {
    // The profile hashes the key bytes itself: gather them first.
    std::string arena;
    std::vector<std::size_t> ends;
    ends.reserve(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      append_key(first + i, arena);
      ends.push_back(arena.size());
    }
    std::vector<std::string_view> views(out.size());
    for (std::size_t i = 0, start = 0; i < out.size(); start = ends[i], ++i)
      views[i] = std::string_view(arena).substr(start, ends[i] - start);
    profile_key_hashes(*profile, views, out);
    return;
  }
  if (!is_counted()) {
    std::copy_n(hashes_.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
    return;
  }
  // "user:" then the decimal number, formatted in place: the same bytes as
  // default_key(), without a string per key.
  char buf[5 + std::numeric_limits<uint64_t>::digits10 + 1] = {'u', 's', 'e', 'r', ':'};
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto end = std::to_chars(buf + 5, buf + sizeof buf, first + i + 1).ptr;
    out[i] = key_hash(std::string_view(buf, static_cast<std::size_t>(end - buf)));
  }
}

void KeySet::append_key(uint64_t i, std::string& out) const {
  char buf[std::numeric_limits<uint64_t>::digits10 + 1];
  if (is_counted()) {
    out += "user:";
    out.append(buf, std::to_chars(buf, buf + sizeof buf, i + 1).ptr);
  } else if (is_hashes()) {
    out.append(buf, std::to_chars(buf, buf + sizeof buf, hashes_[i]).ptr);
  } else {
    out.append(bytes_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
}

std::string KeySet::key(uint64_t i) const {
  std::string out;
  append_key(i, out);
  return out;
}

KeyFormat parse_key_format(std::string_view name) {
  for (KeyFormat f : {KeyFormat::kText, KeyFormat::kHex, KeyFormat::kBase64, KeyFormat::kHash})
    if (name == key_format_name(f)) return f;
  throw std::invalid_argument("unknown key format '" + std::string(name) +
                              "' (known: text, hex, base64, hash)");
}

std::string_view key_format_name(KeyFormat format) noexcept {
  switch (format) {
    case KeyFormat::kHex:
      return "hex";
    case KeyFormat::kBase64:
      return "base64";
    case KeyFormat::kHash:
      return "hash";
    case KeyFormat::kText:
      break;
  }
  return "text";
}

KeySet parse_keys(std::string_view spec, KeyFormat format) {
  const bool hashes = format == KeyFormat::kHash;
  if (all_digits(spec) && format != KeyFormat::kText)
    throw std::invalid_argument(
        "--key-format " + std::string(key_format_name(format)) + " reads key " +
        (hashes ? "hashes" : "lines") + " from a file or '-' (standard input), but --keys " +
        std::string(spec) + " is a count of keys user:1 ... user:K, strings to be hashed");
  if (all_digits(spec)) return KeySet::counted(parse_count(spec, "the key count"));
  if (negative_number(spec))
    throw std::invalid_argument("the key count " + std::string(spec) + " is negative");
  auto read = [&](std::istream& in, const std::string& source) {
    return hashes ? KeySet::from_hash_stream(in, source) : KeySet::from_stream(in, source, format);
  };
  if (spec == "-") return read(std::cin, "standard input");
  if (spec.empty()) throw std::invalid_argument("--keys is empty (give a count or a file)");
  const std::string path(spec);
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw std::invalid_argument("cannot open key file '" + path + "': " + std::strerror(errno));
  return read(file, "key file '" + path + "'");
}

std::optional<uint32_t> parse_node_count(std::string_view spec) {
  if (negative_number(spec))
    throw std::invalid_argument("the node count " + std::string(spec) + " is negative");
  if (!all_digits(spec)) return std::nullopt;
  const uint64_t n = parse_count(spec, "the node count");
  if (n > 0xffffffffu)
    throw std::invalid_argument("the node count " + std::string(spec) +
                                " exceeds the 2^32 - 1 nodes an index can name");
  return static_cast<uint32_t>(n);
}

NodeSet parse_nodes(std::string_view spec, uint32_t vnodes) {
  NodeSet nodes;
  if (const auto n = parse_node_count(spec)) {
    check_memory(*n * kNodeBytes, "N = " + std::string(spec) + " nodes");
    nodes = default_nodes(*n, vnodes);
  } else {
    nodes.vnodes = vnodes;
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = spec.find(',', start);
      nodes.names.emplace_back(trim(spec.substr(start, comma - start)));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (nodes.names.size() == 1 && nodes.names[0].empty()) nodes.names.clear();
    check_node_names(nodes);
  }
  validate(nodes);
  return nodes;
}

NodeSet parse_node_file(const std::string& path, uint32_t vnodes) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw std::invalid_argument("cannot open node file '" + path + "': " + std::strerror(errno));
  NodeSet nodes;
  nodes.vnodes = vnodes;
  const std::string source = "node file '" + path + "'";
  Lines lines{source, "a file of node names (one per line)"};
  lines.read(file, [&](std::string_view s) { nodes.names.emplace_back(s); });
  if (nodes.names.empty()) throw std::invalid_argument(source + " contains no node names");
  check_memory(uint64_t{nodes.size()} * kNodeBytes,
               "the " + std::to_string(nodes.size()) + " nodes of " + source);
  check_node_names(nodes);
  validate(nodes);
  return nodes;
}

void check_node_names(const NodeSet& nodes) {
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    if (!is_utf8(nodes.names[i]))
      throw std::invalid_argument("node " + std::to_string(i) + " " + quoted(nodes.names[i]) +
                                  " is not UTF-8 (JSON could not print it exactly): node names "
                                  "are printable UTF-8");
    for (char ch : nodes.names[i]) {
      const auto c = static_cast<unsigned char>(ch);
      if (c < 0x20 || c == 0x7f)
        throw std::invalid_argument("node " + std::to_string(i) + " " + quoted(nodes.names[i]) +
                                    " holds a control byte (" + quoted(std::string(1, ch)) + ")" +
                                    " (a tab or line break would break the text output's "
                                    "columns): node names are printable UTF-8");
    }
  }
}

}  // namespace chbench::lab
