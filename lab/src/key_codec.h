// Key bytes in and out of text: the line encodings of --key-format hex and
// base64, and the escapes that let every output format carry any key's exact
// bytes (a key may hold NUL, tabs, line breaks or bytes that are not UTF-8).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace chbench::lab {

// A line of --key-format hex: an even number of hex digits (either case),
// two a byte; "" is the empty key. std::nullopt for anything else.
std::optional<std::string> decode_hex(std::string_view line);

// A line of --key-format base64: RFC 4648 section 4 (the standard alphabet
// A-Z a-z 0-9 + /), '=' padding optional; "" is the empty key. Decoded by
// OpenSSL's EVP_DecodeBlock. std::nullopt for anything else (a character
// outside the alphabet, a length that is 1 mod 4, padding inside).
std::optional<std::string> decode_base64(std::string_view line);

// Lower-case hex of the bytes, two digits a byte: "" for the empty key.
std::string hex_bytes(std::string_view bytes);

// True when `bytes` is well-formed UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), so that a JSON string holds it exactly.
bool is_utf8(std::string_view bytes);

// Appends `bytes` to `out` as the text output writes a key: backslash as
// "\\", tab "\t", LF "\n", CR "\r", any other byte below 0x20 and 0x7F as
// "\xHH" (upper-case hex); every other byte as it is. Undone by reading the
// escapes back, so a key's exact bytes are recovered from a tab-separated
// line.
void append_text_escaped(std::string& out, std::string_view bytes);

}  // namespace chbench::lab
