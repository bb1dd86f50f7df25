// File: transformation.h
//
// Connect's Single Message Transforms and predicates (org.apache.kafka.connect.transforms):
// the interfaces, the registry of built-in classes by their Java names, and the chain a
// connector's `transforms` / `predicates` configs describe (transformation_chain.h).
//
// A Transformation rewrites one record or drops it (nullopt), as Transformation.apply returning
// null. A Predicate answers test(record) (an error fails the record, as a Java exception would). Both are configured once with their own keys (the
// connector's `transforms.<alias>.` / `predicates.<alias>.` prefix removed) and report bad
// configs with Java's ConfigException messages. Apply errors are kInvalidArgument with Java's
// DataException message; errors.tolerance decides what the task does with them.
//
// Thread safety: an instance belongs to one task and runs on its thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/transforms/connect_record.h"

namespace connectd::transforms {

using Configs = std::map<std::string, std::string>;

class Transformation {
 public:
  virtual ~Transformation() = default;
  virtual absl::Status Configure(const Configs& configs) = 0;
  virtual absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) = 0;
};

class Predicate {
 public:
  virtual ~Predicate() = default;
  virtual absl::Status Configure(const Configs& configs) = 0;
  virtual absl::StatusOr<bool> Test(const ConnectRecord& record) const = 0;
};

// The built-in classes, by Java class name ("org.apache.kafka.connect.transforms.Cast$Value")
// or by the simple alias Connect also accepts ("Cast$Value"). nullptr for an unknown class.
std::unique_ptr<Transformation> MakeBuiltInTransformation(std::string_view class_name);
std::unique_ptr<Predicate> MakeBuiltInPredicate(std::string_view class_name);
std::vector<std::string> BuiltInTransformationClasses();
std::vector<std::string> BuiltInPredicateClasses();

// Classes beyond the built-ins: the transformations and predicates plugins provide
// (plugin::PluginStages). Each returns nullptr for a class it does not know, or an error when
// the class exists but an instance cannot be made.
class StageClasses {
 public:
  virtual ~StageClasses() = default;
  virtual absl::StatusOr<std::unique_ptr<Transformation>> MakeTransformation(
      std::string_view class_name) const = 0;
  virtual absl::StatusOr<std::unique_ptr<Predicate>> MakePredicate(
      std::string_view class_name) const = 0;
};

}  // namespace connectd::transforms
