#include "runtime/config/properties.h"

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "jvm/regular_file.h"
#include "jvm/utf8.h"

namespace connectd::config {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\f'; }

// A logical line and the number of its first natural line (for error messages).
struct LogicalLine {
  std::string text;
  int line_number = 0;
};

bool EndsWithOddBackslashes(std::string_view line) {
  size_t count = 0;
  for (size_t i = line.size(); i > 0 && line[i - 1] == '\\'; --i) ++count;
  return count % 2 == 1;
}

// Splits text into logical lines: joins continuations, drops blank and comment lines.
std::vector<LogicalLine> SplitLogicalLines(std::string_view text) {
  std::vector<LogicalLine> lines;
  std::string pending;
  bool continuing = false;
  int line_number = 0;
  int first_line = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find_first_of("\r\n", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view natural = text.substr(pos, end - pos);
    ++line_number;
    if (end < text.size() && text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') {
      ++end;
    }
    bool at_end = end >= text.size();
    pos = end + 1;

    size_t start = 0;
    while (start < natural.size() && IsSpace(natural[start])) ++start;
    natural.remove_prefix(start);
    if (!continuing) {
      if (natural.empty() || natural[0] == '#' || natural[0] == '!') {
        if (at_end) break;
        continue;
      }
      first_line = line_number;
    }
    bool continues = EndsWithOddBackslashes(natural);
    if (continues) natural.remove_suffix(1);
    pending.append(natural);
    continuing = continues && !at_end;
    if (!continuing) {
      lines.push_back({std::move(pending), first_line});
      pending.clear();
    }
    if (at_end) break;
  }
  return lines;
}

// Decodes the escapes of one key or value.
absl::StatusOr<std::string> Unescape(std::string_view raw, int line_number) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\' || i + 1 >= raw.size()) {
      out.push_back(c);
      continue;
    }
    char next = raw[++i];
    switch (next) {
      case 't':
        out.push_back('\t');
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'u': {
        if (i + 4 >= raw.size()) {
          return absl::InvalidArgumentError(
              absl::StrCat("line ", line_number, ": malformed \\uxxxx encoding"));
        }
        uint32_t code_point = 0;
        for (int k = 1; k <= 4; ++k) {
          char h = raw[i + k];
          int digit = (h >= '0' && h <= '9')   ? h - '0'
                      : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                      : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                               : -1;
          if (digit < 0) {
            return absl::InvalidArgumentError(
                absl::StrCat("line ", line_number, ": malformed \\uxxxx encoding"));
          }
          code_point = code_point * 16 + static_cast<uint32_t>(digit);
        }
        jvm::AppendUtf8(code_point, out);
        i += 4;
        break;
      }
      default:
        out.push_back(next);
        break;
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<Properties> ParseProperties(std::string_view text) {
  Properties properties;
  for (const LogicalLine& line : SplitLogicalLines(text)) {
    std::string_view s = line.text;
    size_t key_end = 0;
    bool escaped = false;
    for (; key_end < s.size(); ++key_end) {
      char c = s[key_end];
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '=' || c == ':' || IsSpace(c)) {
        break;
      }
    }
    size_t value_start = key_end;
    while (value_start < s.size() && IsSpace(s[value_start])) ++value_start;
    if (value_start < s.size() && (s[value_start] == '=' || s[value_start] == ':')) {
      ++value_start;
      while (value_start < s.size() && IsSpace(s[value_start])) ++value_start;
    }
    absl::StatusOr<std::string> key = Unescape(s.substr(0, key_end), line.line_number);
    if (!key.ok()) return key.status();
    absl::StatusOr<std::string> value = Unescape(s.substr(value_start), line.line_number);
    if (!value.ok()) return value.status();
    properties[*std::move(key)] = *std::move(value);
  }
  return properties;
}

absl::StatusOr<Properties> LoadPropertiesFile(const std::string& path) {
  // Paths come from configs too (FileConfigProvider): a directory or a device is refused, and a
  // properties file is at most 64 MiB.
  constexpr size_t kMaxPropertiesBytes = 64 << 20;
  std::string error;
  std::optional<std::string> text = jvm::ReadRegularFile(path, kMaxPropertiesBytes, error);
  if (!text) return absl::NotFoundError(absl::StrCat("cannot open properties file ", error));
  absl::StatusOr<Properties> parsed = ParseProperties(*text);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", parsed.status().message()));
  }
  return parsed;
}

namespace {

// One key or value, escaped as Properties#store escapes it (bytes >= 0x80 kept).
void AppendEscaped(std::string_view text, bool is_key, std::string& out) {
  static const char kHex[] = "0123456789ABCDEF";
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\f':
        out += "\\f";
        break;
      case ' ':
        out += (is_key || i == 0) ? "\\ " : " ";
        break;
      case '=':
      case ':':
      case '#':
      case '!':
        if (is_key) out += '\\';
        out += c;
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += "\\u00";
          out += kHex[(static_cast<unsigned char>(c) >> 4) & 0xf];
          out += kHex[static_cast<unsigned char>(c) & 0xf];
        } else {
          out += c;
        }
    }
  }
}

}  // namespace

std::string FormatProperties(const Properties& properties) {
  std::string out;
  for (const auto& [key, value] : properties) {
    AppendEscaped(key, true, out);
    out += '=';
    AppendEscaped(value, false, out);
    out += '\n';
  }
  return out;
}

}  // namespace connectd::config
