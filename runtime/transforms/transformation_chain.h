// File: transformation_chain.h
//
// A connector's transformation chain, configured exactly as Connect configures it from the
// connector config (ConnectorConfig.transformationStages):
//   transforms=<a>,<b>                    aliases, applied in order
//   transforms.<a>.type=<class>           a built-in or plugin class (Java name or simple alias)
//   transforms.<a>.<key>=...              the transform's own configs
//   transforms.<a>.predicate=<p>          optional: apply only when predicate p holds ...
//   transforms.<a>.negate=true            ... or only when it does not
//   predicates=<p>,...  predicates.<p>.type=<class>  predicates.<p>.<key>=...
// Apply runs the stages in order; a stage returning no record ends the chain (filtered).
//
// Thread safety: a chain belongs to one task and runs on its thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/transforms/transformation.h"

namespace connectd::transforms {

// Runs a stage again while it fails retriably (kUnavailable: Connect's RetriableException), as
// a connector's errors.retry.timeout asks (the worker's: RecordPipeline's Java backoff).
class StageRetrier {
 public:
  virtual ~StageRetrier() = default;
  // Calls `attempt` until it succeeds, fails otherwise, or the policy gives up; the last status.
  virtual absl::Status Run(const std::function<absl::Status()>& attempt) = 0;
};

class TransformationChain {
 public:
  // Builds and configures every stage: kInvalidArgument naming the config when an alias has no
  // type, a class is unknown, a predicate is missing, or a transform rejects its configs.
  // `plugins` (may be null) provides the classes plugins bring; built-ins are looked up first.
  static absl::StatusOr<TransformationChain> FromConnectorConfig(
      const std::map<std::string, std::string>& connector_config,
      const StageClasses* plugins = nullptr);

  bool empty() const { return stages_.empty(); }
  size_t size() const { return stages_.size(); }

  // The record after every stage, or nullopt when a stage dropped it. On an error (the
  // transform's own message) `failed_class`, when given, is set to the failing stage's class.
  // With a `retrier`, each stage (its predicate and transformation, as Connect's
  // TransformationStage) is one retried operation, given a copy of its input per attempt.
  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record,
                                                     std::string* failed_class = nullptr,
                                                     StageRetrier* retrier = nullptr) const;

 private:
  struct Stage {
    std::string alias;
    std::string class_name;  // as configured
    std::shared_ptr<Transformation> transformation;
    std::shared_ptr<const Predicate> predicate;  // null: always apply
    bool negate = false;
    std::string predicate_class;  // as configured
  };
  std::vector<Stage> stages_;
};

}  // namespace connectd::transforms
