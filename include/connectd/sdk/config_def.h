// File: connectd/sdk/config_def.h
//
// ConfigDef: a connector's configuration keys, as Kafka Connect's ConfigDef declares them. The
// host validates connector configs against it, reports it at
// /connector-plugins/{name}/config and fills in defaults before `start`.
//
//   static connectd::sdk::ConfigDef configDef() {
//     using connectd::sdk::ConfigKey;
//     return connectd::sdk::ConfigDef()
//         .define(ConfigKey("file", ConfigKey::kString).withDefault("")
//                     .importance(ConfigKey::kHigh).doc("Source filename."))
//         .define(ConfigKey("batch.size", ConfigKey::kInt).withDefault("2000")
//                     .atLeast(1).importance(ConfigKey::kLow).doc("Max lines per poll."));
//   }
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "connectd/plugin/abi.h"

namespace connectd::sdk {

class ConfigKey {
 public:
  enum Type {
    kBoolean = CONNECTD_CONFIG_TYPE_BOOLEAN,
    kString = CONNECTD_CONFIG_TYPE_STRING,
    kInt = CONNECTD_CONFIG_TYPE_INT,
    kShort = CONNECTD_CONFIG_TYPE_SHORT,
    kLong = CONNECTD_CONFIG_TYPE_LONG,
    kDouble = CONNECTD_CONFIG_TYPE_DOUBLE,
    kList = CONNECTD_CONFIG_TYPE_LIST,
    kClass = CONNECTD_CONFIG_TYPE_CLASS,
    kPassword = CONNECTD_CONFIG_TYPE_PASSWORD,
  };
  enum Importance {
    kHigh = CONNECTD_CONFIG_IMPORTANCE_HIGH,
    kMedium = CONNECTD_CONFIG_IMPORTANCE_MEDIUM,
    kLow = CONNECTD_CONFIG_IMPORTANCE_LOW,
  };
  enum Width {
    kNone = CONNECTD_CONFIG_WIDTH_NONE,
    kShortWidth = CONNECTD_CONFIG_WIDTH_SHORT,
    kMediumWidth = CONNECTD_CONFIG_WIDTH_MEDIUM,
    kLongWidth = CONNECTD_CONFIG_WIDTH_LONG,
  };

  // A required key (no default) of `type`.
  ConfigKey(std::string name, Type type) : name_(std::move(name)), type_(type) {}

  ConfigKey& withDefault(std::string value) {
    has_default_ = true;
    default_value_ = std::move(value);
    return *this;
  }
  ConfigKey& withNullDefault() {
    has_default_ = true;
    default_value_.reset();
    return *this;
  }
  ConfigKey& importance(Importance importance) {
    importance_ = importance;
    return *this;
  }
  ConfigKey& doc(std::string documentation) {
    documentation_ = std::move(documentation);
    return *this;
  }
  ConfigKey& group(std::string group, int order_in_group, Width width, std::string display_name) {
    group_ = std::move(group);
    order_in_group_ = order_in_group;
    width_ = width;
    display_name_ = std::move(display_name);
    return *this;
  }
  ConfigKey& atLeast(double min) { return between(min, 1.0e308); }
  ConfigKey& between(double min, double max) {
    validator_ = CONNECTD_VALIDATOR_RANGE;
    range_min_ = min;
    range_max_ = max;
    return *this;
  }
  ConfigKey& oneOf(std::vector<std::string> values) {
    validator_ = CONNECTD_VALIDATOR_VALID_STRING;
    valid_values_ = std::move(values);
    return *this;
  }
  // A LIST whose every item is one of `values` (Java's ValidList.in).
  ConfigKey& eachOneOf(std::vector<std::string> values) {
    validator_ = CONNECTD_VALIDATOR_VALID_LIST;
    valid_values_ = std::move(values);
    return *this;
  }
  ConfigKey& nonEmpty() {
    validator_ = CONNECTD_VALIDATOR_NON_EMPTY_STRING;
    return *this;
  }

  const std::string& name() const { return name_; }

  // The C view of this key; valid while this object lives and is not modified.
  connectd_config_key ToAbi() const {
    valid_value_ptrs_.clear();
    for (const std::string& v : valid_values_) valid_value_ptrs_.push_back(v.c_str());
    connectd_config_key key{};
    key.struct_size = sizeof(connectd_config_key);
    key.name = name_.c_str();
    key.type = type_;
    key.has_default = has_default_ ? 1 : 0;
    key.default_value = default_value_ ? default_value_->c_str() : nullptr;
    key.importance = importance_;
    key.documentation = documentation_.c_str();
    key.group = group_.empty() ? nullptr : group_.c_str();
    key.order_in_group = order_in_group_;
    key.width = width_;
    key.display_name = display_name_.empty() ? nullptr : display_name_.c_str();
    key.validator = validator_;
    key.range_min = range_min_;
    key.range_max = range_max_;
    key.valid_values = valid_value_ptrs_.empty() ? nullptr : valid_value_ptrs_.data();
    key.valid_value_count = valid_value_ptrs_.size();
    return key;
  }

 private:
  std::string name_;
  Type type_;
  bool has_default_ = false;
  std::optional<std::string> default_value_;
  Importance importance_ = kMedium;
  std::string documentation_;
  std::string group_;
  int order_in_group_ = -1;
  Width width_ = kNone;
  std::string display_name_;
  int validator_ = CONNECTD_VALIDATOR_NONE;
  double range_min_ = 0;
  double range_max_ = 0;
  std::vector<std::string> valid_values_;
  mutable std::vector<const char*> valid_value_ptrs_;
};

class ConfigDef {
 public:
  ConfigDef& define(ConfigKey key) {
    keys_.push_back(std::move(key));
    return *this;
  }
  const std::vector<ConfigKey>& keys() const { return keys_; }

 private:
  std::vector<ConfigKey> keys_;
};

}  // namespace connectd::sdk
