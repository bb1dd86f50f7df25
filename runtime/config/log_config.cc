#include "runtime/config/log_config.h"

#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "runtime/config/properties.h"

namespace connectd::config {
namespace {

// std::string_view helpers (Debian's abseil has its own string_view).
bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}
bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}
bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (absl::ascii_tolower(static_cast<unsigned char>(a[i])) !=
        absl::ascii_tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}
std::string_view Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}
std::string_view TrimEnd(std::string_view text) {
  const size_t last = text.find_last_not_of(" \t\r");
  return last == std::string_view::npos ? std::string_view() : text.substr(0, last + 1);
}

// ---- A reader for the block-style YAML subset log4j2 configurations use ----------------------
// Mappings ("key: value", "key:" and a nested block), sequences ("- item", at the key's indent
// or deeper), plain and quoted scalars, comments. Flow collections ([a, b]) stay text.

struct YamlNode {
  enum class Kind { kScalar, kMap, kList } kind = Kind::kScalar;
  std::string scalar;
  std::vector<std::pair<std::string, YamlNode>> map;
  std::vector<YamlNode> list;

  const YamlNode* Get(std::string_view key) const {  // case-insensitive, as log4j2's keys
    for (const auto& [k, v] : map) {
      if (EqualsIgnoreCase(k, key)) return &v;
    }
    return nullptr;
  }
};

struct YamlLine {
  int indent;
  std::string text;
  int number;
};

std::string StripComment(std::string_view text) {
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#' && (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t')) {
      return std::string(TrimEnd(text.substr(0, i)));
    }
  }
  return std::string(TrimEnd(text));
}

std::string Unquote(std::string_view text) {
  text = Trim(text);
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front()) {
    return std::string(text.substr(1, text.size() - 2));
  }
  return std::string(text);
}

class YamlReader {
 public:
  explicit YamlReader(std::string_view text) {
    int number = 0;
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      std::string_view raw = text.substr(start, end - start);
      start = end + 1;
      ++number;
      std::string line = StripComment(raw);
      size_t indent = line.find_first_not_of(' ');
      if (indent == std::string::npos || line == "---") continue;
      lines_.push_back({static_cast<int>(indent), line.substr(indent), number});
    }
  }

  absl::StatusOr<YamlNode> Read() {
    if (lines_.empty()) return YamlNode{};
    YamlNode root;
    if (absl::Status s = Block(lines_[0].indent, root); !s.ok()) return s;
    if (pos_ < lines_.size()) return Error(lines_[pos_], "is indented less than the document");
    return root;
  }

 private:
  absl::Status Error(const YamlLine& line, std::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", line.number, " (\"", line.text, "\") ", std::string(what)));
  }

  // A mapping or a sequence whose entries start at `indent`.
  absl::Status Block(int indent, YamlNode& out) {
    if (StartsWith(lines_[pos_].text, "- ") || lines_[pos_].text == "-") {
      return List(indent, out);
    }
    return Map(indent, out);
  }

  absl::Status List(int indent, YamlNode& out) {
    out.kind = YamlNode::Kind::kList;
    while (pos_ < lines_.size() && lines_[pos_].indent == indent &&
           (StartsWith(lines_[pos_].text, "- ") || lines_[pos_].text == "-")) {
      YamlLine& line = lines_[pos_];
      std::string rest = std::string(Trim(std::string_view(line.text).substr(1)));
      YamlNode item;
      if (rest.empty()) {
        ++pos_;
        if (pos_ < lines_.size() && lines_[pos_].indent > indent) {
          if (absl::Status s = Block(lines_[pos_].indent, item); !s.ok()) return s;
        }
      } else if (IsMapEntry(rest)) {
        // "- key: value": a mapping whose entries sit where "key" starts.
        const int item_indent = indent + static_cast<int>(line.text.size() - rest.size());
        line.indent = item_indent;
        line.text = rest;
        if (absl::Status s = Map(item_indent, item); !s.ok()) return s;
      } else {
        item.scalar = Unquote(rest);
        ++pos_;
      }
      out.list.push_back(std::move(item));
    }
    return absl::OkStatus();
  }

  static bool IsMapEntry(std::string_view text) {
    if (text.empty() || text[0] == '"' || text[0] == '\'' || text[0] == '[' || text[0] == '{') {
      return false;
    }
    size_t colon = text.find(':');
    return colon != std::string_view::npos && (colon + 1 == text.size() || text[colon + 1] == ' ');
  }

  absl::Status Map(int indent, YamlNode& out) {
    out.kind = YamlNode::Kind::kMap;
    while (pos_ < lines_.size() && lines_[pos_].indent == indent) {
      const YamlLine& line = lines_[pos_];
      if (!IsMapEntry(line.text)) return Error(line, "is not a \"key: value\" entry");
      size_t colon = line.text.find(':');
      std::string key = Unquote(line.text.substr(0, colon));
      std::string value(Trim(std::string_view(line.text).substr(colon + 1)));
      ++pos_;
      YamlNode child;
      if (!value.empty()) {
        child.scalar = Unquote(value);
      } else if (pos_ < lines_.size() &&
                 (lines_[pos_].indent > indent ||
                  (lines_[pos_].indent == indent && StartsWith(lines_[pos_].text, "- ")))) {
        if (absl::Status s = Block(lines_[pos_].indent, child); !s.ok()) return s;
      }
      out.map.emplace_back(std::move(key), std::move(child));
    }
    if (pos_ < lines_.size() && lines_[pos_].indent > indent) {
      return Error(lines_[pos_], "is indented more than its mapping's entries");
    }
    return absl::OkStatus();
  }

  std::vector<YamlLine> lines_;
  size_t pos_ = 0;
};

// A node that may hold one item or a list of them (log4j2 takes both for Property and Logger).
std::vector<const YamlNode*> ItemsOf(const YamlNode& node) {
  std::vector<const YamlNode*> items;
  if (node.kind == YamlNode::Kind::kList) {
    for (const YamlNode& item : node.list) items.push_back(&item);
  } else {
    items.push_back(&node);
  }
  return items;
}

// ---- Levels --------------------------------------------------------------------------------

absl::StatusOr<log::Level> LevelOf(std::string_view logger, std::string_view text) {
  std::optional<log::Level> level = log::ParseLevel(Trim(text));
  if (!level) {
    return absl::InvalidArgumentError(absl::StrCat(
        "logger ", logger.empty() ? "root" : std::string(logger), ": level '", std::string(text),
        "' is not one of TRACE, DEBUG, INFO, WARN, ERROR, FATAL, OFF"));
  }
  return *level;
}

// "${name}" from the configuration's properties, "${lookup:name:-default}" as its default.
std::string Substitute(std::string_view text, const std::map<std::string, std::string>& props) {
  if (!StartsWith(text, "${") || !EndsWith(text, "}")) return std::string(text);
  std::string_view inner = text.substr(2, text.size() - 3);
  if (auto it = props.find(std::string(inner)); it != props.end()) return it->second;
  if (size_t fallback = inner.find(":-"); fallback != std::string_view::npos) {
    return std::string(inner.substr(fallback + 2));
  }
  return std::string(text);
}

absl::StatusOr<LogLevelConfig> FromYaml(std::string_view text) {
  absl::StatusOr<YamlNode> document = YamlReader(text).Read();
  if (!document.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("YAML ", std::string(document.status().message())));
  }
  const YamlNode* configuration = document->Get("Configuration");
  if (configuration == nullptr) configuration = &*document;
  LogLevelConfig out;
  std::map<std::string, std::string> props;
  if (const YamlNode* p = configuration->Get("Properties"); p && p->Get("Property")) {
    for (const YamlNode* item : ItemsOf(*p->Get("Property"))) {
      const YamlNode* name = item->Get("name");
      const YamlNode* value = item->Get("value");
      if (name && value) props[name->scalar] = value->scalar;
    }
  }
  for (const auto& [key, node] : configuration->map) {
    if (!EqualsIgnoreCase(key, "Loggers") && !EqualsIgnoreCase(key, "Properties")) {
      out.skipped.push_back(absl::StrCat("Configuration.", key));
    }
  }
  const YamlNode* loggers = configuration->Get("Loggers");
  if (loggers == nullptr) return out;
  if (const YamlNode* root = loggers->Get("Root"); root != nullptr) {
    if (const YamlNode* level = root->Get("level"); level != nullptr) {
      absl::StatusOr<log::Level> parsed = LevelOf("", Substitute(level->scalar, props));
      if (!parsed.ok()) return parsed.status();
      out.root = *parsed;
    }
  }
  if (const YamlNode* logger = loggers->Get("Logger"); logger != nullptr) {
    for (const YamlNode* item : ItemsOf(*logger)) {
      const YamlNode* name = item->Get("name");
      const YamlNode* level = item->Get("level");
      if (name == nullptr || name->scalar.empty()) {
        return absl::InvalidArgumentError("a Loggers.Logger entry has no name");
      }
      if (level == nullptr) continue;  // appenders only: the level stays inherited
      absl::StatusOr<log::Level> parsed = LevelOf(name->scalar, Substitute(level->scalar, props));
      if (!parsed.ok()) return parsed.status();
      out.loggers[name->scalar] = *parsed;
    }
  }
  return out;
}

// "LEVEL, APPENDER..." -> LEVEL (log4j 1's and log4j2's shorthand); empty keeps the level.
absl::Status FirstLevel(std::string_view logger, std::string_view value,
                        std::optional<log::Level>& out) {
  std::string_view first = Trim(value.substr(0, value.find(',')));
  if (first.empty()) return absl::OkStatus();
  absl::StatusOr<log::Level> level = LevelOf(logger, first);
  if (!level.ok()) return level.status();
  out = *level;
  return absl::OkStatus();
}

absl::StatusOr<LogLevelConfig> FromProperties(std::string_view text) {
  absl::StatusOr<Properties> props = ParseProperties(text);
  if (!props.ok()) return props.status();
  LogLevelConfig out;
  bool log4j1 = false;
  for (const auto& [key, value] : *props) log4j1 = log4j1 || StartsWith(key, "log4j.");
  std::map<std::string, std::string> names, levels;  // log4j2's logger.<id>.name / .level
  for (const auto& [key, value] : *props) {
    std::optional<log::Level> level;
    if (log4j1 ? key == "log4j.rootLogger" : key == "rootLogger") {
      if (absl::Status s = FirstLevel("", value, level); !s.ok()) return s;
      if (level) out.root = level;
    } else if (!log4j1 && key == "rootLogger.level") {
      if (absl::Status s = FirstLevel("", value, level); !s.ok()) return s;
      if (level) out.root = level;
    } else if (log4j1 && StartsWith(key, "log4j.logger.")) {
      std::string name = key.substr(13);
      if (absl::Status s = FirstLevel(name, value, level); !s.ok()) return s;
      if (level) out.loggers[name] = *level;
    } else if (!log4j1 && StartsWith(key, "logger.") && EndsWith(key, ".name")) {
      names[key.substr(7, key.size() - 12)] = value;
    } else if (!log4j1 && StartsWith(key, "logger.") && EndsWith(key, ".level")) {
      levels[key.substr(7, key.size() - 13)] = value;
    } else {
      out.skipped.push_back(key);
    }
  }
  for (const auto& [id, value] : levels) {
    auto name = names.find(id);
    if (name == names.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("logger.", id, ".level is set but logger.", id, ".name is not"));
    }
    absl::StatusOr<log::Level> level = LevelOf(name->second, value);
    if (!level.ok()) return level.status();
    out.loggers[name->second] = *level;
  }
  return out;
}

}  // namespace

absl::StatusOr<LogLevelConfig> ParseLogLevelConfig(std::string_view text, bool yaml) {
  return yaml ? FromYaml(text) : FromProperties(text);
}

absl::StatusOr<LogLevelConfig> LoadLogLevelConfig(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read the log configuration ", path));
  std::ostringstream text;
  text << in.rdbuf();
  std::string lower = path;
  for (char& c : lower) c = absl::ascii_tolower(static_cast<unsigned char>(c));
  const bool yaml = EndsWith(lower, ".yaml") || EndsWith(lower, ".yml");
  absl::StatusOr<LogLevelConfig> config = ParseLogLevelConfig(text.str(), yaml);
  if (!config.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", std::string(config.status().message())));
  }
  return config;
}

void ApplyLogLevels(const LogLevelConfig& config) {
  if (config.root) log::SetLevel("", *config.root);
  for (const auto& [name, level] : config.loggers) log::SetLevel(name, level);
}

}  // namespace connectd::config
