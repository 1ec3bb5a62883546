// The load reports (commands/load.h) in each output format: text, csv (one
// row per node; move: one row), json (one object, as every command prints).
#pragma once

#include "commands/load.h"
#include "commands/setup.h"
#include "writers/out.h"

namespace chbench::lab {

void write_load_balance(Format format, Out& out, const Setup& s, const LoadBalanceReport& r);
void write_load_move(Format format, Out& out, const Setup& s, const LoadMoveReport& r);

}  // namespace chbench::lab
