// Request popularity over the lab's keys: how often each key is asked for.
// Key counts say what a node stores; requests say what it serves. A request
// stream is either sampled from a Zipf law (--popularity zipf:S) or read as one
// request count per key (--popularity file:PATH), and the load of a node is the
// requests of the keys it owns.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace chbench::lab {

// --popularity as parsed: zipf:S (S in [0, 1.5]) or file:PATH.
struct PopularitySpec {
  enum class Kind { kZipf, kFile } kind = Kind::kZipf;
  double s = 0;      // kZipf: the exponent
  std::string path;  // kFile
};

// "zipf:0.99" or "file:weights.txt". Throws std::invalid_argument naming the
// two forms for anything else, and for S outside [0, 1.5].
PopularitySpec parse_popularity(std::string_view spec);

// Most requests a Zipf stream draws (8 B each are kept, in order).
inline constexpr uint64_t kMaxRequests = 1'000'000'000;

// The requests over K keys.
struct Requests {
  // per_key[i]: requests for key i (0-based key position); shape K.
  std::vector<uint64_t> per_key;
  // The stream in arrival order, each entry a key position: filled for a Zipf
  // stream. Empty for counts read from a file, whose stream is each key's
  // requests back to back, in key order (for_each_request).
  std::vector<uint32_t> stream;
  uint64_t total = 0;  // sum of per_key
};

// Zipf popularity over K keys (Zipf's law as in Breslau et al., "Web Caching
// and Zipf-like Distributions", INFOCOM 1999, section 3): the key at position
// i has rank i + 1 and probability (i + 1)^-s / H(K, s), H(K, s) = sum of
// r^-s over r = 1 ... K; s = 0 is uniform. The ranks follow key order, which
// the key hashes make independent of placement. `requests` draws are
// independent: each takes u = (x >> 11) * 2^-53 from x, the next output of
// std::mt19937_64 seeded with `seed` (a generator the C++ standard defines
// exactly, so every platform draws the same stream), and the smallest rank
// whose cumulative probability exceeds u (inverse transform, binary search).
// Throws std::invalid_argument for K = 0, K > 2^32 - 1, s outside [0, 1.5],
// requests = 0 or requests > kMaxRequests.
Requests zipf_requests(uint64_t keys, double s, uint64_t requests, uint64_t seed);

// The Zipf pmf of rank r (1 ... keys), as zipf_requests draws it.
double zipf_pmf(uint64_t keys, double s, uint64_t rank);

// Request counts read one per line for K keys, in key order: a non-negative
// decimal integer per line, spaces around it allowed, CRLF taken; exactly K
// lines (blank lines are not skipped: each line is a key's). `source` names
// the input in messages. Throws std::invalid_argument ("weights.txt line 3 is
// not a request count: 'x'", "... gives 7 counts for 8 keys", or a total of
// 0 requests) and for a file that cannot be read.
Requests requests_from_file(const std::string& path, uint64_t keys);
Requests requests_from_lines(std::string_view text, uint64_t keys, std::string_view source);

// Calls fn(key) for every request in stream order.
template <class Fn>
void for_each_request(const Requests& r, Fn&& fn) {
  if (!r.stream.empty()) {
    for (uint32_t k : r.stream) fn(uint64_t{k});
    return;
  }
  for (uint64_t k = 0; k < r.per_key.size(); ++k)
    for (uint64_t j = 0; j < r.per_key[k]; ++j) fn(k);
}

// Requests served per node: the requests of each key added to its owner.
// Shapes: owners has one entry per key (owners[i] < nodes); result `nodes`.
std::vector<uint64_t> node_loads(const Requests& r, std::span<const uint32_t> owners,
                                 uint32_t nodes);

// The share of all requests that the most requested key takes.
double hottest_share(const Requests& r);

}  // namespace chbench::lab
