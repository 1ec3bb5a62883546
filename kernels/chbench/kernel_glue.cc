#include "chbench/kernel_glue.h"

#include <stdexcept>
#include <string>

namespace chbench::glue {

uint32_t bucket_count(const Fleet& f, uint64_t max_buckets, std::string_view scheme) {
  if (f.named()) validate(f.nodes());
  if (f.size() > max_buckets)
    throw std::invalid_argument(std::string(scheme) + " takes at most " +
                                std::to_string(max_buckets) +
                                " buckets (N = " + std::to_string(f.size()) + ")");
  return f.size();
}

}  // namespace chbench::glue
