// The Redis Cluster profile's hash slots against a real redis-server: asks
// CLUSTER KEYSLOT (through hiredis, pipelined) for many keys, hash-tag edge
// cases and binary keys included, and compares every answer with
// chbench::redis_key_slot. The server is started, on loopback with
// cluster-enabled yes, by redis_interop.sh, which passes its port.
//
// Usage: chbench_interop_redis PORT
// Exit status: 0 all slots equal, 1 a mismatch, 2 no server / protocol error.
#include <hiredis/hiredis.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "chbench/hash.h"
#include "chbench/profiles/profile_hash.h"

namespace {

std::vector<std::string> test_keys() {
  std::vector<std::string> keys = {"",
                                   "{}",
                                   "{{a}}",
                                   "a{}{b}",
                                   "{a}b}",
                                   "}{a}",
                                   "{",
                                   "}",
                                   "{a",
                                   "a}",
                                   "{}{a}",
                                   "{{}}",
                                   "a{b}c{d}",
                                   "{a}{b}",
                                   "somekey",
                                   "foo{hash_tag}",
                                   "bar{hash_tag}",
                                   "{user1000}.following",
                                   "{user1000}.followers",
                                   "foo{}{bar}",
                                   "foo{{bar}}zap",
                                   "foo{bar}{zap}",
                                   "123456789",
                                   std::string(1, '\0'),
                                   std::string("{\0}", 3),
                                   std::string("a\r\nb"),
                                   "\xff\xfe{\x80}",
                                   "{ }",
                                   "{\t}"};
  for (uint64_t i = 1; i <= 20'000; ++i) keys.push_back(chbench::default_key(i));
  // Random keys over a small alphabet rich in braces, so that tags of every
  // shape occur, and random binary keys.
  std::mt19937_64 rng(0x6368'6265'6e63'6821ULL + 80);
  const std::string alphabet = "{}{}ab{c}";
  for (int i = 0; i < 20'000; ++i) {
    std::string key(rng() % 12, ' ');
    for (char& c : key) c = alphabet[rng() % alphabet.size()];
    keys.push_back(std::move(key));
  }
  for (int i = 0; i < 5'000; ++i) {
    std::string key(rng() % 40, ' ');
    for (char& c : key) c = static_cast<char>(rng());
    keys.push_back(std::move(key));
  }
  return keys;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: chbench_interop_redis PORT\n");
    return 2;
  }
  const int port = std::atoi(argv[1]);
  std::unique_ptr<redisContext, decltype(&redisFree)> redis(redisConnect("127.0.0.1", port),
                                                            &redisFree);
  if (!redis || redis->err) {
    std::fprintf(stderr,
                 "chbench_interop_redis: cannot connect to redis-server on 127.0.0.1:%d: %s\n",
                 port, redis ? redis->errstr : "out of memory");
    return 2;
  }
  const auto keys = test_keys();
  std::size_t matches = 0, mismatches = 0;
  constexpr std::size_t kPipeline = 1000;
  for (std::size_t begin = 0; begin < keys.size(); begin += kPipeline) {
    const std::size_t end = std::min(keys.size(), begin + kPipeline);
    for (std::size_t i = begin; i < end; ++i)
      redisAppendCommand(redis.get(), "CLUSTER KEYSLOT %b", keys[i].data(), keys[i].size());
    for (std::size_t i = begin; i < end; ++i) {
      void* raw = nullptr;
      if (redisGetReply(redis.get(), &raw) != REDIS_OK || raw == nullptr) {
        std::fprintf(stderr, "chbench_interop_redis: no reply from redis-server: %s\n",
                     redis->errstr);
        return 2;
      }
      std::unique_ptr<redisReply, decltype(&freeReplyObject)> reply(static_cast<redisReply*>(raw),
                                                                    &freeReplyObject);
      if (reply->type != REDIS_REPLY_INTEGER) {
        std::fprintf(stderr,
                     "chbench_interop_redis: CLUSTER KEYSLOT did not answer an integer (%s); is "
                     "cluster mode on?\n",
                     reply->type == REDIS_REPLY_ERROR ? reply->str : "unexpected reply type");
        return 2;
      }
      const auto ours = chbench::redis_key_slot(keys[i]);
      if (static_cast<long long>(ours) == reply->integer) {
        ++matches;
      } else if (++mismatches <= 10) {
        std::fprintf(stderr, "chbench_interop_redis: key #%zu (%zu bytes): redis %lld, ours %u\n",
                     i, keys[i].size(), reply->integer, ours);
      }
    }
  }
  std::printf("redis interop: %zu keys, %zu slots equal to CLUSTER KEYSLOT, %zu differ\n",
              keys.size(), matches, mismatches);
  return mismatches == 0 ? 0 : 1;
}
