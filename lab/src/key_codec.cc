#include "key_codec.h"

#include <openssl/evp.h>

#include <cstdio>
#include <vector>

namespace chbench::lab {

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool base64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

// The length of the UTF-8 sequence starting at s[i] when it is well-formed
// (RFC 3629, table 3-7 of the Unicode standard), else 0.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong form
    if (c == 0xED) hi = 0x9F;  // no surrogate
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;  // no overlong form
    if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  }
  if (n == 0 || i + n > s.size() || b(1) < lo || b(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(k) < 0x80 || b(k) > 0xBF) return 0;
  return n;
}

}  // namespace

std::optional<std::string> decode_hex(std::string_view line) {
  if (line.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(line.size() / 2);
  for (std::size_t i = 0; i < line.size(); i += 2) {
    const int hi = hex_digit(line[i]), lo = hex_digit(line[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::optional<std::string> decode_base64(std::string_view line) {
  std::string padded(line);
  std::size_t pad = 0;
  while (pad < 2 && pad < padded.size() && padded[padded.size() - 1 - pad] == '=') ++pad;
  for (std::size_t i = 0; i + pad < padded.size(); ++i)
    if (!base64_char(padded[i])) return std::nullopt;  // EVP_DecodeBlock skips blanks: not we
  if (padded.size() % 4 == 1 || (pad != 0 && padded.size() % 4 != 0)) return std::nullopt;
  while (padded.size() % 4 != 0) padded.push_back('='), ++pad;
  if (padded.empty()) return std::string();
  std::vector<unsigned char> out(padded.size() / 4 * 3);
  const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(padded.data()),
                                static_cast<int>(padded.size()));
  if (n < 0 || static_cast<std::size_t>(n) < pad) return std::nullopt;
  return std::string(out.begin(), out.begin() + (n - static_cast<int>(pad)));
}

std::string hex_bytes(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

bool is_utf8(std::string_view bytes) {
  for (std::size_t i = 0; i < bytes.size();) {
    const std::size_t n = utf8_sequence(bytes, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void append_text_escaped(std::string& out, std::string_view bytes) {
  for (char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    } else {
      out += ch;
    }
  }
}

}  // namespace chbench::lab
