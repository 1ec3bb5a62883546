#include "cli/help.h"

#include <algorithm>
#include <string_view>

#include "removals.h"

namespace chbench::lab {

std::string scheme_list() {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos()) {
    list += (list.empty() ? "" : ", ") + std::string(info.name);
    for (std::string_view alias : info.aliases) list += " (" + std::string(alias) + ")";
  }
  return list;
}

std::string schemes_taking(Param p) {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.takes(p)) list += (list.empty() ? "" : ", ") + std::string(info.name);
  return list;
}

std::string default_kernels() {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos())
    list += (list.empty() ? "" : ", ") + default_kernel(info.id).full_name();
  return list;
}

std::string removal_notes() {
  std::size_t width = 0;
  for (const SchemeInfo& info : all_scheme_infos()) width = std::max(width, info.name.size());
  std::string notes;
  for (const SchemeInfo& info : all_scheme_infos())
    notes += "\n  " + std::string(info.name) + std::string(width + 2 - info.name.size(), ' ') +
             std::string(info.removal_note);
  return notes;
}

std::string bucket_schemes() {
  std::string list;
  for (const SchemeInfo& info : all_scheme_infos())
    if (info.buckets_only)
      list += (list.empty() ? "" : ", ") + std::string(info.name) +
              " (N <= " + std::to_string(info.max_nodes) + ")";
  return list;
}

std::string last_only_schemes() {
  const std::string list = schemes_removing(Removal::kLastOnly);
  return list.empty() ? list : " (" + list + ": only the last ones)";
}

std::string key_output_rules() {
  return "Keys are printed so that their exact bytes are recovered: text escapes a key's\n"
         "backslash, tab, LF and CR as \\\\, \\t, \\n, \\r and its other control bytes as\n"
         "\\xHH (every other byte as it is); csv quotes a field holding a comma, quote, CR or\n"
         "LF (RFC 4180, quotes doubled) and keeps every byte; json writes \"key\" for a UTF-8\n"
         "key (control bytes as JSON escapes) and \"key_hex\" (its bytes in hex) for any other.";
}

}  // namespace chbench::lab
