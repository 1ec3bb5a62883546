// The members every command's JSON object starts with, for the writers of
// other reports (writers/load.cc). Defined in writers/json.cc.
#pragma once

#include <nlohmann/json.hpp>

#include "commands/setup.h"

namespace chbench::lab {

// command, scheme, profile, vnodes, capacity, table_size, kernel, and
// scenario (null), in that order.
nlohmann::ordered_json json_head(const char* command, const Setup& s);

}  // namespace chbench::lab
