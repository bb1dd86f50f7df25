// File: plugin_stages.h
//
// Transformations and predicates from plugins (ABI 1.5) as the worker's transforms:
//   PluginStages      transforms::StageClasses over a PluginRegistry: what a connector's
//                     `transforms.<a>.type` / `predicates.<p>.type` names when no built-in does.
//   PluginTransformation, PluginPredicate  one plugin instance each, behind the worker's
//                     Transformation/Predicate interfaces: records cross the ABI as Connect data
//                     (data_abi.h), hook failures become the record's error with the plugin's
//                     message, and a malformed record from the plugin is such an error too.
//
// Thread safety: an instance belongs to one task thread; PluginStages is read-only.
#pragma once

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/plugin/plugin_registry.h"
#include "runtime/transforms/transformation.h"

namespace connectd::plugin {

class PluginStages : public transforms::StageClasses {
 public:
  explicit PluginStages(const PluginRegistry& registry) : registry_(registry) {}

  absl::StatusOr<std::unique_ptr<transforms::Transformation>> MakeTransformation(
      std::string_view class_name) const override;
  absl::StatusOr<std::unique_ptr<transforms::Predicate>> MakePredicate(
      std::string_view class_name) const override;

 private:
  const PluginRegistry& registry_;
};

}  // namespace connectd::plugin
