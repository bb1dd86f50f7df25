#include "runtime/config/config_def.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace connectd::config {
namespace {

std::string Trim(const std::string& s) { return std::string(absl::StripAsciiWhitespace(s)); }

std::string InvalidValue(const ConfigKey& key, const std::string& value, const std::string& why) {
  return absl::StrCat("Invalid value ", value, " for configuration ", key.name, ": ", why);
}

std::optional<int64_t> ParseInteger(const std::string& text, int64_t min, int64_t max) {
  int64_t value = 0;
  if (!absl::SimpleAtoi(Trim(text), &value) || value < min || value > max) return std::nullopt;
  return value;
}

std::optional<double> ParseDouble(const std::string& text) {
  double value = 0;
  if (!absl::SimpleAtod(Trim(text), &value)) return std::nullopt;
  return value;
}

std::optional<bool> ParseBool(const std::string& text) {
  std::string lower = absl::AsciiStrToLower(Trim(text));
  if (lower == "true") return true;
  if (lower == "false") return false;
  return std::nullopt;
}

std::string FormatNumber(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return absl::StrCat(static_cast<int64_t>(value));
  }
  return absl::StrCat(value);
}

}  // namespace

std::string_view TypeName(Type type) {
  switch (type) {
    case Type::kBoolean:
      return "BOOLEAN";
    case Type::kString:
      return "STRING";
    case Type::kInt:
      return "INT";
    case Type::kShort:
      return "SHORT";
    case Type::kLong:
      return "LONG";
    case Type::kDouble:
      return "DOUBLE";
    case Type::kList:
      return "LIST";
    case Type::kClass:
      return "CLASS";
    case Type::kPassword:
      return "PASSWORD";
  }
  return "STRING";
}

std::string_view ImportanceName(Importance value) {
  switch (value) {
    case Importance::kHigh:
      return "HIGH";
    case Importance::kMedium:
      return "MEDIUM";
    case Importance::kLow:
      return "LOW";
  }
  return "MEDIUM";
}

std::string_view WidthName(Width width) {
  switch (width) {
    case Width::kNone:
      return "NONE";
    case Width::kShort:
      return "SHORT";
    case Width::kMedium:
      return "MEDIUM";
    case Width::kLong:
      return "LONG";
  }
  return "NONE";
}

std::vector<std::string> SplitList(const std::string& value) {
  std::string trimmed = Trim(value);
  if (trimmed.empty()) return {};
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(trimmed, ',')) {
    out.emplace_back(absl::StripAsciiWhitespace(part));
  }
  return out;
}

std::optional<std::string> CheckValue(const ConfigKey& key,
                                      const std::optional<std::string>& value) {
  if (!value) {
    if (!key.has_default) {
      return absl::StrCat("Missing required configuration \"", key.name,
                          "\" which has no default value.");
    }
    return std::nullopt;  // a null default passes every validator, as in Kafka
  }
  const std::string& v = *value;
  switch (key.type) {
    case Type::kBoolean:
      if (!ParseBool(v)) return InvalidValue(key, v, "Expected value to be either true or false");
      break;
    case Type::kInt:
      if (!ParseInteger(v, INT32_MIN, INT32_MAX)) {
        return InvalidValue(key, v, "Not a number of type INT");
      }
      break;
    case Type::kShort:
      if (!ParseInteger(v, INT16_MIN, INT16_MAX)) {
        return InvalidValue(key, v, "Not a number of type SHORT");
      }
      break;
    case Type::kLong:
      if (!ParseInteger(v, INT64_MIN, INT64_MAX)) {
        return InvalidValue(key, v, "Not a number of type LONG");
      }
      break;
    case Type::kDouble:
      if (!ParseDouble(v)) return InvalidValue(key, v, "Not a number of type DOUBLE");
      break;
    default:
      break;
  }
  const Validator& validator = key.validator;
  switch (validator.kind) {
    case Validator::Kind::kNone:
      break;
    case Validator::Kind::kRange: {
      std::optional<double> number = ParseDouble(v);
      if (number && *number < validator.min) {
        return InvalidValue(key, v,
                            absl::StrCat("Value must be at least ", FormatNumber(validator.min)));
      }
      if (number && *number > validator.max) {
        return InvalidValue(
            key, v, absl::StrCat("Value must be no more than ", FormatNumber(validator.max)));
      }
      break;
    }
    case Validator::Kind::kValidString: {
      bool ok = false;
      for (const std::string& allowed : validator.valid) ok = ok || allowed == v;
      if (!ok) {
        return InvalidValue(
            key, v, absl::StrCat("String must be one of: ", absl::StrJoin(validator.valid, ", ")));
      }
      break;
    }
    case Validator::Kind::kNonEmptyString:
      if (Trim(v).empty()) return InvalidValue(key, v, "String must be non-empty");
      break;
    case Validator::Kind::kValidList:
      for (const std::string& item : SplitList(v)) {
        bool ok = false;
        for (const std::string& allowed : validator.valid) ok = ok || allowed == item;
        if (!ok) {
          return InvalidValue(
              key, v,
              absl::StrCat("Invalid value ", item, " for configuration ", key.name,
                           ": String must be one of: ", absl::StrJoin(validator.valid, ", ")));
        }
      }
      break;
  }
  return std::nullopt;
}

ConfigDef& ConfigDef::Define(ConfigKey key) {
  auto it = index_.find(key.name);
  if (it != index_.end()) {
    keys_[it->second] = std::move(key);
  } else {
    index_[key.name] = keys_.size();
    keys_.push_back(std::move(key));
  }
  return *this;
}

ConfigDef& ConfigDef::Merge(const ConfigDef& other) {
  for (const ConfigKey& key : other.keys_) {
    if (index_.count(key.name) == 0) Define(key);
  }
  return *this;
}

const ConfigKey* ConfigDef::Find(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &keys_[it->second];
}

std::vector<std::string> ConfigDef::Groups() const {
  std::vector<std::string> groups;
  for (const ConfigKey& key : keys_) {
    if (key.group.empty()) continue;
    if (std::find(groups.begin(), groups.end(), key.group) == groups.end()) {
      groups.push_back(key.group);
    }
  }
  return groups;
}

std::vector<ConfigValue> ConfigDef::Validate(
    const std::map<std::string, std::string>& props) const {
  std::vector<ConfigValue> values;
  for (const ConfigKey& key : keys_) {
    ConfigValue value;
    value.name = key.name;
    auto it = props.find(key.name);
    std::optional<std::string> given;
    if (it != props.end()) given = it->second;
    value.value = given ? given : key.default_value;
    if (std::optional<std::string> error = CheckValue(key, value.value)) {
      value.errors.push_back(*error);
    }
    if (key.validator.kind == Validator::Kind::kValidString) {
      value.recommended_values = key.validator.valid;
    }
    values.push_back(std::move(value));
  }
  return values;
}

absl::StatusOr<ParsedConfig> ConfigDef::Parse(
    const std::map<std::string, std::string>& props) const {
  std::map<std::string, std::optional<std::string>> values;
  for (const ConfigKey& key : keys_) {
    auto it = props.find(key.name);
    std::optional<std::string> value =
        it != props.end() ? std::optional<std::string>(it->second) : key.default_value;
    if (std::optional<std::string> error = CheckValue(key, value)) {
      return absl::InvalidArgumentError(*error);
    }
    values[key.name] = value;
  }
  return ParsedConfig(props, std::move(values));
}

std::optional<std::string> ParsedConfig::GetString(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

int64_t ParsedConfig::GetLong(const std::string& name) const {
  std::optional<std::string> value = GetString(name);
  int64_t out = 0;
  if (value) (void)absl::SimpleAtoi(Trim(*value), &out);
  return out;
}

double ParsedConfig::GetDouble(const std::string& name) const {
  std::optional<std::string> value = GetString(name);
  double out = 0;
  if (value) (void)absl::SimpleAtod(Trim(*value), &out);
  return out;
}

bool ParsedConfig::GetBool(const std::string& name) const {
  std::optional<std::string> value = GetString(name);
  return value && absl::AsciiStrToLower(Trim(*value)) == "true";
}

std::vector<std::string> ParsedConfig::GetList(const std::string& name) const {
  std::optional<std::string> value = GetString(name);
  return value ? SplitList(*value) : std::vector<std::string>{};
}

std::map<std::string, std::string> ParsedConfig::OriginalsWithPrefix(
    const std::string& prefix) const {
  std::map<std::string, std::string> out;
  for (auto it = originals_.lower_bound(prefix); it != originals_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    out[it->first.substr(prefix.size())] = it->second;
  }
  return out;
}

}  // namespace connectd::config
