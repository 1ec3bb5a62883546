// The pieces of the twemproxy_ketama profile (docs/profiles/memcached.md): twemproxy
// (nutcracker) 0.5.0 with `distribution: ketama` and its default
// `hash: fnv1a_64`. Source: github.com/twitter/twemproxy, commit
// ca45646e4e976fa42231fa7114f2cab504e60706 ("Release twemproxy 0.5.0"):
// src/hashkit/nc_fnv.c, src/hashkit/nc_ketama.c, src/nc_server.c,
// src/nc_conf.c.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/profiles/profiles.h"
#include "chbench/ring/ring.h"

namespace chbench {

// twemproxy's hash_fnv1a_64 (nc_fnv.c) as it really computes it: FNV-1a in a
// 32-bit state, started at the 64-bit offset basis truncated to 32 bits
// (0x84222325) and multiplied by the 64-bit prime truncated to 32 bits
// (0x1b3), each byte read as a signed char (the char of x86-64, where Debian's
// nutcracker runs) and widened to 32 bits, so a byte b >= 0x80 is xored in as
// 0xffffff00 | b. Any length; never throws.
uint32_t twemproxy_fnv1a_64(std::string_view bytes) noexcept;

// The key hash nutcracker dispatches on (server_pool_hash, nc_server.c): 0 for
// the empty key, twemproxy_fnv1a_64(key) otherwise. (A pool of one server
// skips hashing; its one server owns every key either way.)
uint32_t twemproxy_key_hash(std::string_view key) noexcept;

// A lab node as a nutcracker server: the node name is the server line of the
// config without its weight, "host:port" or "host:port name" (the optional
// name field after the last space). `name` is nutcracker's server name, the
// base of its point strings (conf_add_server, nc_conf.c): the name field when
// given, else "host" when the port is 11211 (kept out for libmemcached's
// sake), else "host:port" as written.
struct TwemproxyServer {
  std::string host;
  uint32_t port;
  std::string name;
};

// Parses a node name as conf_add_server reads a server line, from its end:
// the port is the decimal digits after the last ':' of the address, 1 ...
// 65535. Throws std::invalid_argument with one line for a name without a
// port, a bad port, an empty name field, or a unix socket path (leading '/',
// not modelled).
TwemproxyServer twemproxy_server(std::string_view node);

// The string ketama_update hashes for point group i of a server:
// "<name>-<i>", cut to 272 bytes as its 273-byte snprintf buffer cuts it.
std::string twemproxy_point_string(std::string_view name, uint32_t i);

// Points of a server of weight `weight` among `live` servers of total weight
// `total_weight` (ketama_update): pct = weight / total in float, then
// floorf(pct * 160 / 4 * live + 1e-10) * 4, the product in float, the
// addition in double, rounded back to float. Needs total_weight >= weight >= 1.
uint32_t twemproxy_points_per_server(uint32_t weight, uint32_t total_weight, uint32_t live);

// Nutcracker's continuum of a checked cluster, as ketama_update leaves it:
// its servers in its own order (nutcracker sorts a pool's servers by name,
// shorter names first, then byte by byte: conf_validate_server), each server's
// points in group order, four per MD5 digest of its point string (the digest's
// words 0 ... 3, little-endian), then stably sorted by point value (glibc's
// qsort is a merge sort: equal points keep that order). The entries' `node` is
// the lab's node index of the server. Throws like validate_profile.
std::vector<RingEntry<uint32_t>> twemproxy_continuum(const ProfileCluster& cluster);

}  // namespace chbench
