// File: java_split.h
//
// JavaCommaList: a comma-separated list as Kafka reads its LIST configs and allow-list system
// properties: split at ',', each item trimmed of white space (String.trim), empty items dropped.
//
// JavaSplit: Java's String.split with a one-character literal separator, which Connect uses to
// parse internal-topic keys (task-{c}-{n}, status-task-{c}-{n}): split at every separator,
// then drop trailing empty parts ("a-b-" -> [a, b], "a--1" -> [a, "", 1]).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace connectd::jvm {

inline std::vector<std::string_view> JavaSplit(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    if (at == std::string_view::npos) {
      parts.push_back(text.substr(start));
      break;
    }
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

inline std::vector<std::string> JavaCommaList(std::string_view text) {
  std::vector<std::string> items;
  for (std::string_view item : JavaSplit(text, ',')) {
    while (!item.empty() && static_cast<unsigned char>(item.front()) <= ' ') item.remove_prefix(1);
    while (!item.empty() && static_cast<unsigned char>(item.back()) <= ' ') item.remove_suffix(1);
    if (!item.empty()) items.emplace_back(item);
  }
  return items;
}

}  // namespace connectd::jvm
