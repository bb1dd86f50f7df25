#include "connectors/mirror_client/filters.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "jvm/java_regex.h"

namespace connectd::mirror {
namespace {

// Java's \s: the separators ConfigDef's LIST split removes around commas.
bool IsJavaRegexSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// ConfigDef.parseType(LIST) then ConfigDef.parseValue's de-duplication: String.trim (chars <=
// U+0020); "" -> []; else Pattern("\\s*,\\s*").split(trimmed, -1); keep first occurrences.
std::vector<std::string> ParseJavaList(std::string_view value) {
  size_t begin = 0;
  size_t end = value.size();
  while (begin < end && static_cast<unsigned char>(value[begin]) <= 0x20) ++begin;
  while (end > begin && static_cast<unsigned char>(value[end - 1]) <= 0x20) --end;
  std::vector<std::string> items;
  if (begin == end) return items;
  const std::string_view trimmed = value.substr(begin, end - begin);
  size_t start = 0;
  for (;;) {
    const size_t comma = trimmed.find(',', start);
    std::string_view item = trimmed.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    // The whitespace next to a comma belongs to the separator.
    if (start > 0) {
      while (!item.empty() && IsJavaRegexSpace(item.front())) item.remove_prefix(1);
    }
    if (comma != std::string_view::npos) {
      while (!item.empty() && IsJavaRegexSpace(item.back())) item.remove_suffix(1);
    }
    if (std::find(items.begin(), items.end(), item) == items.end()) items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

std::string JoinForMessage(const std::vector<std::string>& items) {
  std::string joined;
  for (const std::string& item : items) {
    if (!joined.empty()) joined.push_back('|');
    joined += item;
  }
  return joined;
}

template <typename T>
std::optional<T> SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return std::nullopt;
}

std::string PropOr(const std::map<std::string, std::string>& props, const std::string& key,
                   const char* fallback) {
  auto it = props.find(key);
  return it == props.end() ? std::string(fallback) : it->second;
}

}  // namespace

// ---- RegexFilter ----------------------------------------------------------------------------

std::optional<RegexFilter> RegexFilter::Make(const std::string& list, std::string* error) {
  return MakeForConfig("regex list", list, error);
}

std::optional<RegexFilter> RegexFilter::MakeForConfig(const std::string& config_name,
                                                      const std::string& list, std::string* error) {
  const std::vector<std::string> items = ParseJavaList(list);
  for (const std::string& item : items) {
    if (item.empty()) {
      return SetError<RegexFilter>(error,
                                   "Configuration '" + config_name + "' values must not be empty.");
    }
  }
  if (items.empty()) return RegexFilter(std::nullopt);
  const std::string joined = JoinForMessage(items);
  std::string reason;
  std::optional<jvm::JavaRegex> regex = jvm::JavaRegex::Compile(joined, &reason);
  if (!regex) {
    return SetError<RegexFilter>(error, "Invalid value " + list + " for configuration " +
                                            config_name + ": regular expression '" + joined +
                                            "': " + reason);
  }
  return RegexFilter(std::move(regex));
}

bool RegexFilter::Matches(const std::string& s) const {
  return regex_ && regex_->Matches(s) == jvm::JavaRegex::Result::kMatch;
}

// ---- TopicFilter / GroupFilter / ConfigPropertyFilter ---------------------------------------

std::optional<TopicFilter> TopicFilter::Make(const std::map<std::string, std::string>& props,
                                             std::string* error) {
  std::optional<RegexFilter> include = RegexFilter::MakeForConfig(
      kTopicsConfig, PropOr(props, kTopicsConfig, kTopicsDefault), error);
  if (!include) return std::nullopt;
  std::optional<RegexFilter> exclude = RegexFilter::MakeForConfig(
      kTopicsExcludeConfig, PropOr(props, kTopicsExcludeConfig, kTopicsExcludeDefault), error);
  if (!exclude) return std::nullopt;
  return TopicFilter(std::move(*include), std::move(*exclude));
}

bool TopicFilter::ShouldReplicateTopic(const std::string& topic) const {
  return include_.Matches(topic) && !exclude_.Matches(topic);
}

std::optional<GroupFilter> GroupFilter::Make(const std::map<std::string, std::string>& props,
                                             std::string* error) {
  std::optional<RegexFilter> include = RegexFilter::MakeForConfig(
      kGroupsConfig, PropOr(props, kGroupsConfig, kGroupsDefault), error);
  if (!include) return std::nullopt;
  std::optional<RegexFilter> exclude = RegexFilter::MakeForConfig(
      kGroupsExcludeConfig, PropOr(props, kGroupsExcludeConfig, kGroupsExcludeDefault), error);
  if (!exclude) return std::nullopt;
  return GroupFilter(std::move(*include), std::move(*exclude));
}

bool GroupFilter::ShouldReplicateGroup(const std::string& group) const {
  return include_.Matches(group) && !exclude_.Matches(group);
}

std::optional<ConfigPropertyFilter> ConfigPropertyFilter::Make(
    const std::map<std::string, std::string>& props, std::string* error) {
  std::optional<RegexFilter> exclude = RegexFilter::MakeForConfig(
      kConfigPropertiesExcludeConfig,
      PropOr(props, kConfigPropertiesExcludeConfig, kConfigPropertiesExcludeDefault), error);
  if (!exclude) return std::nullopt;
  // ConfigDef trims STRING values.
  std::string use_defaults_from = PropOr(props, kUseDefaultsFromConfig, kUseDefaultsFromDefault);
  size_t begin = 0;
  size_t end = use_defaults_from.size();
  while (begin < end && static_cast<unsigned char>(use_defaults_from[begin]) <= 0x20) ++begin;
  while (end > begin && static_cast<unsigned char>(use_defaults_from[end - 1]) <= 0x20) --end;
  const bool use_source = use_defaults_from.substr(begin, end - begin) == "source";
  return ConfigPropertyFilter(std::move(*exclude), use_source);
}

bool ConfigPropertyFilter::ShouldReplicateConfigProperty(const std::string& name) const {
  return !exclude_.Matches(name);
}

bool ConfigPropertyFilter::ShouldReplicateSourceDefault(const std::string& /*name*/) const {
  return use_source_defaults_;
}

}  // namespace connectd::mirror
