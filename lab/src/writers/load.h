// The load reports (commands/load.h) in each output format, for the writers
// of writers/writer.h: text, csv (one row per node; move: one row), json (one
// object, as every command prints).
#pragma once

#include "commands/load.h"
#include "commands/setup.h"
#include "writers/out.h"

namespace chbench::lab {

void load_balance_text(Out& out, const Setup& s, const LoadBalanceReport& r);
void load_balance_csv(Out& out, const LoadBalanceReport& r);
void load_balance_json(Out& out, const Setup& s, const LoadBalanceReport& r);

void load_move_text(Out& out, const Setup& s, const LoadMoveReport& r);
void load_move_csv(Out& out, const LoadMoveReport& r);
void load_move_json(Out& out, const Setup& s, const LoadMoveReport& r);

}  // namespace chbench::lab
