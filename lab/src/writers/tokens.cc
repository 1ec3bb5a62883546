#include "writers/tokens.h"

#include <nlohmann/json.hpp>

namespace chbench::lab {

namespace {

const char* method(const AllocationRow& r) { return r.allocated ? "allocated" : "random"; }

}  // namespace

void tokens_json(Out& out, const std::string& ring, const std::vector<AllocationRow>& rows) {
  nlohmann::ordered_json j = {
      {"command", "tokens"}, {"ring", ring}, {"rows", nlohmann::json::array()}};
  for (const AllocationRow& r : rows)
    j["rows"].push_back({{"nodes", r.nodes},
                         {"rf", r.rf},
                         {"tokens", r.tokens},
                         {"method", method(r)},
                         {"max_over_mean", r.spread.busiest_over_mean},
                         {"std_pct", r.spread.std_pct}});
  out << j.dump(1) << '\n';
}

void tokens_csv(Out& out, const std::vector<AllocationRow>& rows) {
  out << "nodes,rf,tokens,method,max_over_mean,std_pct\n";
  for (const AllocationRow& r : rows)
    out << fmt("%u,%u,%u,%s,%.6f,%.4f\n", r.nodes, r.rf, r.tokens, method(r),
               r.spread.busiest_over_mean, r.spread.std_pct);
}

void tokens_text(Out& out, const std::string& ring, const std::vector<AllocationRow>& rows) {
  out << "ring      " << ring << "\n";
  out << "ownership replicated (RF distinct nodes clockwise), per node; spread: max / mean, std "
         "%\n";
  out << fmt("%6s %3s %7s %10s %14s %10s\n", "nodes", "rf", "tokens", "method", "max / mean",
             "std");
  for (const AllocationRow& r : rows)
    out << fmt("%6u %3u %7u %10s %14.4f %9.2f%%\n", r.nodes, r.rf, r.tokens, method(r),
               r.spread.busiest_over_mean, r.spread.std_pct);
}

}  // namespace chbench::lab
