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

ConfigKey JavaKey(const char* name, Type type, JavaDefault default_value, Importance importance,
                  const char* documentation) {
  ConfigKey key;
  key.name = name;
  key.type = type;
  key.has_default = !default_value.required;
  if (default_value.value != nullptr) key.default_value = default_value.value;
  key.importance = importance;
  key.documentation = documentation;
  key.display_name = name;
  return key;
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

namespace {

// Java's ConfigDef.parseType: the type's error for `v`, if any.
std::optional<std::string> TypeError(const ConfigKey& key, const std::string& v) {
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
  return std::nullopt;
}

// The key's validator on a parsed value. A null value (a failed parse, a missing required key)
// fails a range or a set of valid strings with Java's text, as parseForValidate reports it.
std::optional<std::string> ValidatorError(const ConfigKey& key,
                                          const std::optional<std::string>& value) {
  const Validator& validator = key.validator;
  if (!value) {
    switch (validator.kind) {
      case Validator::Kind::kRange:
        return InvalidValue(key, "null", "Value must be non-null");
      case Validator::Kind::kValidString:
        return InvalidValue(
            key, "null",
            absl::StrCat("String must be one of: ", absl::StrJoin(validator.valid, ", ")));
      default:
        return std::nullopt;
    }
  }
  const std::string& v = *value;
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
    case Validator::Kind::kNonEmptyWithoutControlChars: {
      if (Trim(v).empty()) return InvalidValue(key, v, "String may not be empty");
      std::vector<std::string> controls;
      for (unsigned char c : v) {
        if (c < 0x20 || c == 0x7f) controls.push_back(absl::StrCat(static_cast<int>(c)));
      }
      if (!controls.empty()) {
        return InvalidValue(key, v,
                            absl::StrCat("String may not contain control sequences but had the "
                                         "following ASCII chars: ",
                                         absl::StrJoin(controls, ", ")));
      }
      break;
    }
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

// A parsed value as Java's AbstractHerder prints it (ConfigValueInfo.value): trimmed, booleans in
// lower case, numbers without leading zeros or sign noise, a double with its ".0".
std::string CanonicalValue(Type type, const std::string& v) {
  switch (type) {
    case Type::kBoolean:
      return absl::AsciiStrToLower(Trim(v));
    case Type::kInt:
    case Type::kShort:
    case Type::kLong:
      return absl::StrCat(*ParseInteger(v, INT64_MIN, INT64_MAX));
    case Type::kDouble: {
      std::string trimmed = Trim(v);
      return trimmed.find_first_of(".eEnN") == std::string::npos ? trimmed + ".0" : trimmed;
    }
    case Type::kList:
      return absl::StrJoin(SplitList(v), ",");
    default:
      return Trim(v);
  }
}

}  // namespace

std::optional<std::string> CheckValue(const ConfigKey& key,
                                      const std::optional<std::string>& value) {
  if (!value) {
    if (!key.has_default) {
      return absl::StrCat("Missing required configuration \"", key.name,
                          "\" which has no default value.");
    }
    return std::nullopt;  // a null default passes every validator, as in Kafka
  }
  if (std::optional<std::string> error = TypeError(key, *value)) return error;
  return ValidatorError(key, value);
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
    if (it != props.end()) {
      if (std::optional<std::string> error = TypeError(key, it->second)) {
        value.errors.push_back(*error);
      } else {
        value.value = CanonicalValue(key.type, it->second);
      }
    } else if (!key.has_default) {
      value.errors.push_back(absl::StrCat("Missing required configuration \"", key.name,
                                          "\" which has no default value."));
    } else {
      value.value = key.default_value;
    }
    // Java runs the validator on whatever was parsed, null included; a null default passes.
    const bool null_default = it == props.end() && key.has_default && !key.default_value;
    if (!null_default) {
      if (std::optional<std::string> error = ValidatorError(key, value.value)) {
        value.errors.push_back(*error);
      }
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
