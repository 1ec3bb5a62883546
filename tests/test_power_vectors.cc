// PowerCH against the crate it claims to match (DXist/power-consistent-hash,
// commit 25bd442210e3; tests/vectors/powerch_vectors.csv, `h,n,bucket`, -1
// where the crate refuses n = 1): every row through the reference, through
// power_hash and through every kernel of the scheme on every Highway target;
// the crate's own test values; edge keys and counts; keys built so that g's
// quotient is an exact integer or just below one (the SIMD division's
// correction); and the scheme's properties (only bucket N gains keys from N
// to N + 1; balance).
#include <algorithm>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/fleet.h"
#include "chbench/power/power.h"
#include "chbench/scheme.h"
#include "chbench/simd.h"
#include "support.h"
#include "targets.h"
#include "vectors.h"

using chbench::Fleet;
using chbench::KernelInfo;
using chbench::Scheme;
using chbench_test::first_mismatch;
using chbench_test::kSeed;
using chbench_test::owners_of;

namespace {

// The owners of `keys` over n buckets by the reference, by power_hash, and by
// every kernel of the scheme on every target this CPU runs, each compared
// with `want`.
void check_everywhere(uint32_t n, const std::vector<uint64_t>& keys,
                      const std::vector<uint32_t>& want) {
  INFO("N = " << n);
  const Fleet fleet = Fleet::of_buckets(n);
  CHECK(first_mismatch<uint64_t>(
            keys, want, owners_of(*chbench::build_reference(Scheme::kPower, fleet), keys)) == "");
  std::vector<uint32_t> direct(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    direct[i] = chbench::power_hash(keys[i], chbench::power_buckets(n));
  CHECK(first_mismatch<uint64_t>(keys, want, direct) == "");
  for (int64_t target : chbench_test::test_targets()) {
    const chbench::simd::ForcedTarget forced(target);
    for (const KernelInfo* kernel : chbench_test::test_kernels_of(Scheme::kPower)) {
      INFO("kernel " << kernel->full_name() << " on " << chbench::simd::target_name(target));
      CHECK(first_mismatch<uint64_t>(keys, want, owners_of(*kernel->build(fleet), keys)) == "");
      // One key at a time too (the SIMD kernel's path for short batches),
      // and the keys repeated into a batch of 300 or more in a long one.
      const auto table = kernel->build(fleet);
      std::vector<uint32_t> single(keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) single[i] = table->owner(keys[i]);
      CHECK(first_mismatch<uint64_t>(keys, want, single) == "");
      std::vector<uint64_t> many;
      std::vector<uint32_t> many_want;
      while (many.size() < 300) {
        many.insert(many.end(), keys.begin(), keys.end());
        many_want.insert(many_want.end(), want.begin(), want.end());
      }
      CHECK(first_mismatch<uint64_t>(many, many_want, owners_of(*table, many)) == "");
    }
  }
}

// The reference's owners of `keys` over n buckets.
std::vector<uint32_t> reference_owners(uint32_t n, const std::vector<uint64_t>& keys) {
  return owners_of(*chbench::build_reference(Scheme::kPower, Fleet::of_buckets(n)), keys);
}

// The file as read_vectors gives it, without the carriage returns of its
// CRLF line ends (read_vectors splits on '\n' only).
chbench_test::VectorFile read_crlf_vectors(std::string_view relative) {
  auto file = chbench_test::read_vectors(relative);
  const auto strip = [](std::string& field) {
    if (!field.empty() && field.back() == '\r') field.pop_back();
  };
  strip(file.columns.back());
  for (auto& row : file.rows) strip(row.back());
  return file;
}

}  // namespace

TEST_CASE("power: every row of the crate's vector file, everywhere", "[power][vectors][targets]") {
  const auto file = read_crlf_vectors("powerch_vectors.csv");
  const std::size_t h_at = file.column("h"), n_at = file.column("n"), b_at = file.column("bucket");
  std::map<uint32_t, std::pair<std::vector<uint64_t>, std::vector<uint32_t>>> by_n;
  std::size_t refused = 0;
  for (const auto& row : file.rows) {
    const auto n = static_cast<uint32_t>(chbench_test::vector_u64(row[n_at]));
    // The crate refuses n = 1 (-1 in the file), and only n = 1; there our
    // scheme puts every key on bucket 0.
    INFO("row " << row[h_at] << "," << row[n_at] << "," << row[b_at]);
    REQUIRE((row[b_at] == "-1") == (n == 1));
    refused += n == 1;
    auto& [keys, want] = by_n[n];
    keys.push_back(chbench_test::vector_u64(row[h_at]));
    want.push_back(n == 1 ? 0 : static_cast<uint32_t>(chbench_test::vector_u64(row[b_at])));
  }
  CHECK(file.rows.size() == 5656);  // 404 keys x 14 bucket counts
  CHECK(by_n.size() == 14);
  CHECK(refused == 404);
  for (const auto& [n, rows] : by_n) check_everywhere(n, rows.first, rows.second);
}

TEST_CASE("power: the crate's own test values (n = 96)", "[power][vectors][targets]") {
  // tests.rs, test_consistent_hashing_backwards_compatibility.
  check_everywhere(96, {0, 8, 9, 10, 11, 12, 999}, {0, 12, 12, 13, 15, 11, 89});
}

TEST_CASE("power: edge keys and bucket counts", "[power][edges][targets]") {
  constexpr uint64_t kMax64 = ~uint64_t{0};
  // N = 1: bucket 0 for every key (our extension; the crate refuses it).
  check_everywhere(1, {0, 1, 2, uint64_t{1} << 63, kMax64, 0x123456789abcdef0ULL},
                   {0, 0, 0, 0, 0, 0});
  // From the crate's file: h = 0 and h = 2^63 (low bits 0) land on 0 for
  // every N; h = 2^64 - 1 on these; N = 2^31 - 1 with other keys.
  check_everywhere(2, {0, 1, uint64_t{1} << 63, kMax64}, {0, 1, 0, 1});
  check_everywhere(3, {0, 1, uint64_t{1} << 63, kMax64}, {0, 1, 0, 2});
  check_everywhere(1025, {0, kMax64}, {0, 815});
  check_everywhere(1'000'000, {0, kMax64}, {0, 583375});
  check_everywhere(chbench::kPowerMaxBuckets,
                   {0, 1, uint64_t{1} << 63, kMax64, 13823839798932139326ULL,
                    18416941253641382805ULL, 15338747502314160916ULL, 7190186061125185235ULL},
                   {0, 1, 0, 1260936602, 1010697602, 934278818, 1329526115, 502056128});
  // Past the maximum and zero buckets: refused by the scheme's check.
  CHECK_THROWS_AS(chbench::scheme_info(Scheme::kPower).check(Fleet::of_buckets(0x80000000u)),
                  std::invalid_argument);
  CHECK_THROWS_AS(Fleet::of_buckets(0), std::invalid_argument);
}

namespace {

// The inverse of PCG32's multiplier mod 2^64 (Newton's iteration).
constexpr uint64_t pcg_inverse() {
  uint64_t x = chbench::kPcgMultiplier;
  for (int i = 0; i < 6; ++i) x *= 2 - chbench::kPcgMultiplier * x;
  return x;
}
static_assert(chbench::kPcgMultiplier * pcg_inverse() == 1);

// A 64-bit state whose XSH RR output is `out`, its low 27 bits `low`: the
// rotation is the top 5 bits, and bits 58 down to 27 follow from
// out's bits given the bits 18 places above them.
uint64_t state_with_output(uint32_t out, uint64_t low) {
  const int rot = static_cast<int>(low % 32);
  const uint32_t xsh = std::rotl(out, rot);
  uint64_t s = static_cast<uint64_t>(rot) << 59;
  for (int i = 58; i >= 27; --i) {
    const uint64_t above = i + 18 < 64 ? (s >> (i + 18)) & 1 : 0;
    const uint64_t bit = ((xsh >> (i - 27)) & 1) ^ above;
    s |= bit << i;
  }
  s |= (low >> 5) & ((uint64_t{1} << 27) - 1);
  return s;
}

// A key whose first choice over n buckets is n or more and whose first draw
// in g is `draw` (so g's first quotient is scaled / (draw + 1)), or 0 when
// none was found. The key follows from the state after one more step.
uint64_t key_with_draw(uint32_t n, uint32_t draw, std::mt19937_64& rng) {
  const auto b = chbench::power_buckets(n);
  const uint64_t inc = 2 * static_cast<uint64_t>(std::bit_width(b.half)) + 1;
  for (int attempt = 0; attempt < 4096; ++attempt) {
    const uint64_t s2 = state_with_output(draw, rng());
    const uint64_t s1 = (s2 - inc) * pcg_inverse();
    const uint64_t key = (s1 - inc * (chbench::kPcgMultiplier + 1)) * pcg_inverse();
    uint64_t state = 0;
    const uint32_t r1 = chbench::power_first(key, key * chbench::kPcgMultiplier, b.full, state);
    if (r1 >= n && state == s1) return key;
  }
  return 0;
}

}  // namespace

TEST_CASE("power: g's quotients at and just below integers", "[power][edges][targets]") {
  // scaled = (m/2)(2^32 - 1); draws d with d + 1 = scaled / q rounded down,
  // up and exactly where q divides, for quotients q from m/2 up to n - 1:
  // the SIMD kernel's double estimate must be corrected to the floor.
  std::mt19937_64 rng(kSeed + 140);
  // (Keys are found by trying low state bits: N must leave the top level a
  // fair share, so not 2^31 - 1.)
  for (uint32_t n :
       {3u, 5u, 6u, 7u, 9u, 12u, 100u, 1025u, 1500u, 1'000'000u, (1u << 30) + 1, 0x60000000u}) {
    const auto b = chbench::power_buckets(n);
    const uint64_t scaled = (uint64_t{b.half} + 1) * 0xffffffffu;
    std::vector<uint64_t> keys;
    // m/2 and 3m/4, 5m/8, 17m/32 divide scaled (3, 5 and 17 divide 2^32 - 1).
    const uint64_t m2 = uint64_t{b.half} + 1;  // m / 2
    std::vector<uint64_t> quotients = {m2,         m2 + 1,     n - 1u,      n - 2u,
                                       3 * m2 / 2, 5 * m2 / 4, 17 * m2 / 16};
    for (int i = 0; i < 8; ++i)
      quotients.push_back(chbench_test::uniform<uint64_t>(rng, b.half + 1, n - 1));
    for (uint64_t q : quotients) {
      if (q <= b.half || q >= n) continue;
      for (uint64_t plus_one : {scaled / q, scaled / q + 1, scaled / (q + 1) + 1}) {
        if (plus_one == 0 || plus_one > (uint64_t{1} << 32)) continue;
        if (uint64_t{n} * plus_one <= scaled) continue;  // g would stop at once
        const uint64_t key = key_with_draw(n, static_cast<uint32_t>(plus_one - 1), rng);
        if (key != 0) keys.push_back(key);
      }
    }
    INFO("N = " << n << ": " << keys.size() << " keys");
    CHECK(keys.size() >= 8);
    check_everywhere(n, keys, reference_owners(n, keys));
  }
}

TEST_CASE("power: every target on random keys at counts around powers of two", "[power][targets]") {
  std::mt19937_64 rng(kSeed + 141);
  std::vector<uint64_t> keys;
  // Over two of the SIMD kernel's chunks of 1,024 keys, and a partial vector
  // after them on every target of more than one lane.
  chbench_test::append_random(keys, 3003, rng);
  // Both sides of the SIMD kernel's rule (it sets the keys above n aside when
  // (m - n) / m <= 1/3: for 683 of m = 1,024, not for 682).
  std::vector<uint32_t> counts = {682,  683,  1,    2,  3,   4,   5,      6,         7,
                                  10,   11,   23,   45, 90,  181, 724,    1000,      1007,
                                  1008, 1020, 1023, 63, 126, 127, 64'000, 1'040'000, 1'000'000};
  for (int k = 2; k <= 31; k += 3)
    for (int64_t d : {-1, 0, 1}) counts.push_back(static_cast<uint32_t>((int64_t{1} << k) + d));
  // Near m / sqrt(2), where g's loop runs most often.
  for (int k = 4; k <= 31; k += 9) counts.push_back(static_cast<uint32_t>((1ULL << k) * 0.7071));
  for (uint32_t n : counts)
    if (n >= 1 && n <= chbench::kPowerMaxBuckets)
      check_everywhere(n, keys, reference_owners(n, keys));
}

TEST_CASE("power: from N to N + 1 buckets, keys move only to bucket N", "[power][properties]") {
  std::mt19937_64 rng(kSeed + 142);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 20'000, rng);
  std::vector<uint32_t> counts;
  for (uint32_t n = 1; n <= 70; ++n) counts.push_back(n);
  for (uint32_t n : {127u, 128u, 1000u, 1023u, 1024u, 65535u, 65536u, 1'000'000u, 1u << 30,
                     chbench::kPowerMaxBuckets - 1})
    counts.push_back(n);
  for (uint32_t n : counts) {
    const auto before = reference_owners(n, keys);
    const auto after = reference_owners(n + 1, keys);
    std::size_t moved = 0, wrong = 0;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      moved += before[i] != after[i];
      wrong += before[i] != after[i] && after[i] != n;
    }
    INFO("N = " << n << " -> " << n + 1 << ": " << moved << " moved, " << wrong
                << " not to bucket N");
    CHECK(wrong == 0);
    // About 1 / (N + 1) of the keys move (4 sigma).
    const double expect = static_cast<double>(keys.size()) / (n + 1);
    CHECK(std::abs(static_cast<double>(moved) - expect) <= 4 * std::sqrt(expect) + 1);
  }
}

TEST_CASE("power: 10^5 random keys over N = 10 fill each bucket within a few percent",
          "[power][properties]") {
  std::mt19937_64 rng(kSeed + 143);
  std::vector<uint64_t> keys;
  chbench_test::append_random(keys, 100'000, rng);
  for (const KernelInfo* kernel : chbench_test::test_kernels_of(Scheme::kPower)) {
    INFO("kernel " << kernel->full_name());
    std::vector<std::size_t> count(10);
    for (uint32_t b : owners_of(*kernel->build(Fleet::of_buckets(10)), keys)) ++count.at(b);
    for (std::size_t c : count) CHECK(std::abs(static_cast<double>(c) - 10'000.0) <= 400.0);
  }
}
