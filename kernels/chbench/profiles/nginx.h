// The pieces of nginx 1.22.1's hash module that the tests read
// (src/http/modules/ngx_http_upstream_hash_module.c, tag release-1.22.1):
// nginx_consistent.cc defines them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chbench/profiles/profiles.h"
#include "chbench/ring/ring.h"

namespace chbench {

// The bytes hashed before a server's points: host, a NUL byte, port, where
// the port is the digits after the last ':' when all after it are digits
// (else the whole name is the host and the port empty; "unix:path" hashes
// the path, port empty). Never throws but std::bad_alloc.
std::string nginx_point_base(std::string_view server);

// The consistent-hash points: per server 160 x weight points, point j the
// CRC-32 of nginx_point_base then point j-1's 4 bytes little-endian (0 for
// j = 0); (point, server index) sorted, equal points dropped but the first
// (the earliest server). Takes a checked cluster.
std::vector<RingEntry<uint32_t>> nginx_chash_points(const ProfileCluster& cluster);

}  // namespace chbench
