// Loading tests/golden/status_topic (written by GenerateStatusTopicGolden.java).
#pragma once

#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"

namespace connectd::storage::testing {

// Rows of a golden TSV file, split on tabs; comment and empty lines skipped.
inline std::vector<std::vector<std::string>> LoadStatusGolden(const std::string& name) {
  std::ifstream in(std::string(CONNECTD_SOURCE_DIR) + "/tests/golden/status_topic/" + name);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    rows.push_back(absl::StrSplit(line, '\t'));
  }
  return rows;
}

// The golden files' string encoding: UTF-8 hex, `~` for Java null.
inline std::optional<std::string> FromHex(const std::string& hex) {
  if (hex == "~") return std::nullopt;
  return absl::HexStringToBytes(hex);
}

inline std::string ToHex(const std::optional<std::string>& s) {
  return s.has_value() ? absl::BytesToHexString(*s) : "~";
}

}  // namespace connectd::storage::testing
