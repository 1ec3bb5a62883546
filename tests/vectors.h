// Reading the vector files of public implementations (tests/vectors/, see its
// README): one CSV file, its header naming the columns, as rows of strings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace chbench_test {

// A vector file: the header's column names and every row's fields, as text.
struct VectorFile {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;

  // The index of column `name`. Throws std::out_of_range if there is none.
  std::size_t column(std::string_view name) const {
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == name) return i;
    throw std::out_of_range("no column '" + std::string(name) + "'");
  }
};

// Splits one line at its commas; a line end of CR LF (the files' own) loses
// its CR, so that the last column's name and fields are what they say.
inline std::vector<std::string> split_csv_line(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return fields;
}

// Reads tests/vectors/<relative> (CHBENCH_VECTORS_DIR, set by CMake). Throws
// std::runtime_error when the file cannot be opened or a row has another
// number of fields than the header. Fields are not unquoted: the files have
// no quoted fields.
inline VectorFile read_vectors(std::string_view relative) {
  const std::string path = std::string(CHBENCH_VECTORS_DIR) + "/" + std::string(relative);
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open vector file " + path);
  VectorFile file;
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + " is empty");
  file.columns = split_csv_line(line);
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    file.rows.push_back(split_csv_line(line));
    if (file.rows.back().size() != file.columns.size())
      throw std::runtime_error(path + ": a row with " + std::to_string(file.rows.back().size()) +
                               " fields under a header of " + std::to_string(file.columns.size()));
  }
  return file;
}

// An unsigned 64-bit field written in decimal or, with a 0x prefix, in hex.
inline uint64_t vector_u64(const std::string& field) {
  return std::stoull(field, nullptr, field.starts_with("0x") ? 16 : 10);
}

}  // namespace chbench_test
