// File: config_def.h
//
// ConfigDef: one table per config class (worker, connector, each plugin), after Kafka's
// ConfigDef. The table drives parsing (types, defaults), validation (with Kafka's error texts,
// which users see in REST answers) and the definitions REST reports.
//
//   ConfigDef def;
//   def.Define({.name = "tasks.max", .type = Type::kInt, .default_value = "1",
//               .validator = Validator::AtLeast(1), .importance = Importance::kHigh, ...});
//   absl::StatusOr<ParsedConfig> parsed = def.Parse(props);   // first error, kInvalidArgument
//   std::map<std::string, ConfigValue> all = def.Validate(props);  // every key's errors
//
// Thread safety: immutable after construction; const methods from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace connectd::config {

enum class Type { kBoolean, kString, kInt, kShort, kLong, kDouble, kList, kClass, kPassword };
enum class Importance { kHigh, kMedium, kLow };
enum class Width { kNone, kShort, kMedium, kLong };

std::string_view TypeName(Type type);               // "BOOLEAN", ...
std::string_view ImportanceName(Importance value);  // "HIGH", ...
std::string_view WidthName(Width width);            // "NONE", ...

struct Validator {
  // kNonEmptyString: "String must be non-empty"; kNonEmptyWithoutControlChars (a connector's
  // name): "String may not be empty", and no ASCII control characters.
  enum class Kind {
    kNone,
    kRange,
    kValidString,
    kNonEmptyString,
    kValidList,
    kNonEmptyWithoutControlChars
  };
  Kind kind = Kind::kNone;
  double min = 0;
  double max = 0;
  std::vector<std::string> valid;

  static Validator AtLeast(double min) { return {Kind::kRange, min, 1e308, {}}; }
  static Validator Between(double min, double max) { return {Kind::kRange, min, max, {}}; }
  static Validator In(std::vector<std::string> values) {
    return {Kind::kValidString, 0, 0, std::move(values)};
  }
  static Validator NonEmpty() { return {Kind::kNonEmptyString, 0, 0, {}}; }
  static Validator NonEmptyWithoutControlChars() {
    return {Kind::kNonEmptyWithoutControlChars, 0, 0, {}};
  }
};

struct ConfigKey {
  std::string name;
  Type type = Type::kString;
  // No default: required. A default of nullopt with has_default: the null default.
  bool has_default = true;
  std::optional<std::string> default_value;
  Validator validator;
  Importance importance = Importance::kMedium;
  std::string documentation;
  std::string group;
  int order_in_group = -1;
  Width width = Width::kNone;
  std::string display_name;
  std::vector<std::string> dependents;
};

// The outcome of validating one key (Connect's ConfigValue).
struct ConfigValue {
  std::string name;
  std::optional<std::string> value;  // as given, or the default
  std::vector<std::string> errors;
  std::vector<std::string> recommended_values;
  bool visible = true;
};

// A config after Parse: typed getters over the given values plus defaults.
class ParsedConfig {
 public:
  ParsedConfig() = default;
  ParsedConfig(std::map<std::string, std::string> originals,
               std::map<std::string, std::optional<std::string>> values)
      : originals_(std::move(originals)), values_(std::move(values)) {}

  // Defined keys only. Preconditions: the key is defined with that type (else a default value).
  std::optional<std::string> GetString(const std::string& name) const;
  int64_t GetLong(const std::string& name) const;
  int32_t GetInt(const std::string& name) const { return static_cast<int32_t>(GetLong(name)); }
  double GetDouble(const std::string& name) const;
  bool GetBool(const std::string& name) const;
  std::vector<std::string> GetList(const std::string& name) const;

  // Everything given, defined or not.
  const std::map<std::string, std::string>& originals() const { return originals_; }
  // Given keys starting with `prefix`, with the prefix removed.
  std::map<std::string, std::string> OriginalsWithPrefix(const std::string& prefix) const;

 private:
  std::map<std::string, std::string> originals_;
  std::map<std::string, std::optional<std::string>> values_;
};

class ConfigDef {
 public:
  ConfigDef& Define(ConfigKey key);
  ConfigDef& Merge(const ConfigDef& other);  // appends keys not yet defined

  const std::vector<ConfigKey>& keys() const { return keys_; }
  const ConfigKey* Find(const std::string& name) const;
  // Groups in first-appearance order.
  std::vector<std::string> Groups() const;

  // Every defined key's value and errors, in definition order.
  std::vector<ConfigValue> Validate(const std::map<std::string, std::string>& props) const;
  // The typed config, or kInvalidArgument carrying the first error's message.
  absl::StatusOr<ParsedConfig> Parse(const std::map<std::string, std::string>& props) const;

 private:
  std::vector<ConfigKey> keys_;
  std::map<std::string, size_t> index_;
};

// A key's default as Java's ConfigDef.define takes it: a value, null, or none (a required key).
struct JavaDefault {
  bool required = false;
  const char* value = nullptr;  // nullptr: the null default

  static constexpr JavaDefault Required() { return {true, nullptr}; }
  static constexpr JavaDefault Null() { return {false, nullptr}; }
  static constexpr JavaDefault Of(const char* value) { return {false, value}; }
};

// Java's plain define(name, type, default, importance, documentation): no group, order -1,
// width NONE, no validator, and the key's name as its display name. Callers add the rest.
ConfigKey JavaKey(const char* name, Type type, JavaDefault default_value, Importance importance,
                  const char* documentation);

// Splits a LIST value as Kafka does: trimmed, on commas with surrounding white space; "" is [].
std::vector<std::string> SplitList(const std::string& value);

// Checks one value against its key's type and validator; returns the error text if any.
std::optional<std::string> CheckValue(const ConfigKey& key,
                                      const std::optional<std::string>& value);

}  // namespace connectd::config
