#include "popularity.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace chbench::lab {

namespace {

constexpr double kMaxZipf = 1.5;

void check_zipf(double s) {
  if (!(s >= 0 && s <= kMaxZipf))
    throw std::invalid_argument("--popularity zipf:S takes S in [0, 1.5]");
}

// The cumulative Zipf probabilities of ranks 1 ... keys, the last exactly 1.
std::vector<double> zipf_cdf(uint64_t keys, double s) {
  std::vector<double> cdf(keys);
  double sum = 0;
  for (uint64_t r = 1; r <= keys; ++r) cdf[r - 1] = sum += std::pow(static_cast<double>(r), -s);
  for (double& c : cdf) c /= sum;
  cdf.back() = 1.0;
  return cdf;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

PopularitySpec parse_popularity(std::string_view spec) {
  PopularitySpec p;
  if (spec.starts_with("file:") && spec.size() > 5) {
    p.kind = PopularitySpec::Kind::kFile;
    p.path = std::string(spec.substr(5));
    return p;
  }
  if (spec.starts_with("zipf:")) {
    const std::string_view num = spec.substr(5);
    const auto [end, ec] = std::from_chars(num.data(), num.data() + num.size(), p.s);
    if (ec == std::errc() && end == num.data() + num.size()) {
      check_zipf(p.s);
      return p;
    }
  }
  throw std::invalid_argument("--popularity: '" + std::string(spec) +
                              "' is neither zipf:S (S in [0, 1.5]) nor file:PATH (one request "
                              "count per key line)");
}

double zipf_pmf(uint64_t keys, double s, uint64_t rank) {
  double sum = 0;
  for (uint64_t r = 1; r <= keys; ++r) sum += std::pow(static_cast<double>(r), -s);
  return std::pow(static_cast<double>(rank), -s) / sum;
}

Requests zipf_requests(uint64_t keys, double s, uint64_t requests, uint64_t seed) {
  check_zipf(s);
  if (keys == 0 || keys > 0xffffffffu)
    throw std::invalid_argument("--popularity zipf takes 1 ... 2^32 - 1 keys");
  if (requests == 0 || requests > kMaxRequests)
    throw std::invalid_argument("--requests takes 1 ... 10^9 requests");
  const std::vector<double> cdf = zipf_cdf(keys, s);
  std::mt19937_64 gen(seed);
  Requests r;
  r.per_key.assign(keys, 0);
  r.stream.reserve(requests);
  for (uint64_t i = 0; i < requests; ++i) {
    const double u = static_cast<double>(gen() >> 11) * 0x1p-53;
    const auto k = static_cast<uint32_t>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
    r.stream.push_back(k);
    ++r.per_key[k];
  }
  r.total = requests;
  return r;
}

Requests requests_from_lines(std::string_view text, uint64_t keys, std::string_view source) {
  Requests r;
  uint64_t line = 0;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view item = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line;
    uint64_t n = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), n);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw std::invalid_argument(std::string(source) + " line " + std::to_string(line) +
                                  " is not a request count (a non-negative integer): '" +
                                  std::string(item.substr(0, 40)) + "'");
    if (r.per_key.size() == keys) continue;  // too many lines: counted, refused below
    if (r.total > UINT64_MAX - n)
      throw std::invalid_argument(std::string(source) + ": over 2^64 requests in all");
    r.per_key.push_back(n);
    r.total += n;
  }
  if (line != keys)
    throw std::invalid_argument(std::string(source) + " gives " + std::to_string(line) +
                                " request counts for " + std::to_string(keys) +
                                " keys (one line per key, in key order)");
  if (r.total == 0) throw std::invalid_argument(std::string(source) + " gives 0 requests in all");
  return r;
}

Requests requests_from_file(const std::string& path, uint64_t keys) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument("--popularity: cannot open '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::invalid_argument("--popularity: cannot read '" + path + "'");
  return requests_from_lines(text.str(), keys, path);
}

std::vector<uint64_t> node_loads(const Requests& r, std::span<const uint32_t> owners,
                                 uint32_t nodes) {
  std::vector<uint64_t> load(nodes, 0);
  for (std::size_t k = 0; k < owners.size(); ++k) load[owners[k]] += r.per_key[k];
  return load;
}

double hottest_share(const Requests& r) {
  const uint64_t top = *std::max_element(r.per_key.begin(), r.per_key.end());
  return static_cast<double>(top) / static_cast<double>(r.total);
}

}  // namespace chbench::lab
