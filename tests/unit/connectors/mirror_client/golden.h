// Reading tests/golden/mirror/*.tsv (written by GenerateMirrorGolden.java; see its README).
#pragma once

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace connectd::mirror::testing {

inline std::string GoldenPath(std::string_view name) {
  const char* env = std::getenv("CONNECTD_SOURCE_DIR");
  return std::string(env != nullptr ? env : CONNECTD_SOURCE_DIR) + "/tests/golden/mirror/" +
         std::string(name);
}

// GoldenLines returns the non-comment lines of a golden file.
inline std::vector<std::string> GoldenLines(std::string_view name) {
  std::ifstream in(GoldenPath(name), std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + GoldenPath(name));
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

// Split keeps empty fields.
inline std::vector<std::string> Split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t end = s.find(sep, start);
    out.emplace_back(s.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

inline std::string FromHex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw std::runtime_error("bad hex digit");
  };
  if (hex.size() % 2 != 0) throw std::runtime_error("odd hex length");
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  }
  return out;
}

inline std::string ToHex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xF]);
  }
  return out;
}

// Field decodes a string field: "~" (Java null, absent) -> nullopt, "s:<text>", "x:<hex>",
// "r:<char>:<count>" (one character repeated).
inline std::optional<std::string> Field(std::string_view f) {
  if (f == "~") return std::nullopt;
  if (f.substr(0, 2) == "s:") return std::string(f.substr(2));
  if (f.substr(0, 2) == "x:") return FromHex(f.substr(2));
  if (f.substr(0, 2) == "r:" && f.size() > 4 && f[3] == ':') {
    return std::string(std::stoul(std::string(f.substr(4))), f[2]);
  }
  throw std::runtime_error("bad string field: " + std::string(f));
}

inline std::string FieldOrDie(std::string_view f) {
  std::optional<std::string> s = Field(f);
  if (!s) throw std::runtime_error("unexpected null field");
  return *s;
}

// BytesMatch compares bytes with a golden byte field: plain hex, or for long arrays
// "len=<n>;head=<hex of the first 64 bytes>;tail=<hex of the last 16 bytes>".
inline bool BytesMatch(std::string_view golden, std::string_view bytes) {
  if (golden.substr(0, 4) != "len=") return ToHex(bytes) == golden;
  const std::vector<std::string> parts = Split(golden, ';');
  if (parts.size() != 3) return false;
  const size_t length = std::stoul(parts[0].substr(4));
  if (bytes.size() != length || length < 80) return false;
  return "head=" + ToHex(bytes.substr(0, 64)) == parts[1] &&
         "tail=" + ToHex(bytes.substr(length - 16)) == parts[2];
}

}  // namespace connectd::mirror::testing
