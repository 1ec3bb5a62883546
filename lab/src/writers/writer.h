// One writer per output format (text, CSV, JSON), each rendering the result
// of every command: owners, move, balance (with --popularity or
// --bounded-load too: writers/load.*) and tokens (writers/tokens.*).
// Commands compute; writers only print, into an Out.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "allocation.h"
#include "commands/balance.h"
#include "commands/load.h"
#include "commands/move.h"
#include "commands/owners.h"
#include "commands/setup.h"
#include "keys.h"
#include "writers/out.h"

namespace chbench::lab {

class Writer {
 public:
  virtual ~Writer() = default;

  // owners: the header, then one row per key in key order, then the end.
  virtual void owners_begin(const Setup& s, const KeySet& keys) = 0;
  virtual void owner(const OwnerRow& row) = 0;
  virtual void owners_end() = 0;

  virtual void move(const Setup& s, const MoveReport& r) = 0;
  virtual void balance(const Setup& s, const BalanceReport& r) = 0;
  // balance after a removal scenario: a row per removed fraction.
  virtual void balance_removals(const Setup& s, const RemovalBalanceReport& r) = 0;

  // balance and move with requests beside the keys (commands/load.h).
  virtual void load_balance(const Setup& s, const LoadBalanceReport& r) = 0;
  virtual void load_move(const Setup& s, const LoadMoveReport& r) = 0;

  // tokens: the allocation experiment's rows; `ring` ("ring", "cassandra
  // profile") names the ring.
  virtual void tokens(const std::string& ring, const std::vector<AllocationRow>& rows) = 0;
};

// The writer of each format (writers/text.cc, csv.cc, json.cc), printing into
// `out`, which must outlive it.
std::unique_ptr<Writer> make_text_writer(Out& out);
std::unique_ptr<Writer> make_csv_writer(Out& out);
std::unique_ptr<Writer> make_json_writer(Out& out);

inline std::unique_ptr<Writer> make_writer(Format format, Out& out) {
  switch (format) {
    case Format::kCsv:
      return make_csv_writer(out);
    case Format::kJson:
      return make_json_writer(out);
    case Format::kText:
      break;
  }
  return make_text_writer(out);
}

}  // namespace chbench::lab
