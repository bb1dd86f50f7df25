#include "runtime/transforms/transformation_chain.h"

#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/config/config_def.h"

namespace connectd::transforms {
namespace {

using ConnectorConfig = std::map<std::string, std::string>;

// The configs under `prefix`, prefix removed, without the stage keys Connect consumes itself.
Configs WithPrefix(const ConnectorConfig& config, const std::string& prefix) {
  Configs out;
  for (auto it = config.lower_bound(prefix); it != config.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    const std::string key = it->first.substr(prefix.size());
    if (key == "type" || key == "predicate" || key == "negate") continue;
    out[key] = it->second;
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> Aliases(const ConnectorConfig& config,
                                                 const std::string& key) {
  auto it = config.find(key);
  if (it == config.end()) return std::vector<std::string>();
  std::vector<std::string> aliases = config::SplitList(it->second);
  std::set<std::string> seen;
  for (const std::string& alias : aliases) {
    if (!seen.insert(alias).second) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid value ", it->second, " for configuration ", key, ": Duplicate alias provided."));
    }
  }
  return aliases;
}

absl::StatusOr<std::string> TypeOf(const ConnectorConfig& config, const std::string& key) {
  auto it = config.find(key);
  if (it == config.end() || absl::StripAsciiWhitespace(it->second).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Missing required configuration \"", key, "\" which has no default value."));
  }
  return std::string(absl::StripAsciiWhitespace(it->second));
}

}  // namespace

absl::StatusOr<TransformationChain> TransformationChain::FromConnectorConfig(
    const ConnectorConfig& config, const StageClasses* plugins) {
  std::map<std::string, std::shared_ptr<const Predicate>> predicates;
  std::map<std::string, std::string> predicate_classes;
  CONNECTD_ASSIGN_OR_RETURN(std::vector<std::string> predicate_aliases,
                            Aliases(config, "predicates"));
  for (const std::string& alias : predicate_aliases) {
    const std::string prefix = absl::StrCat("predicates.", alias, ".");
    CONNECTD_ASSIGN_OR_RETURN(std::string type, TypeOf(config, prefix + "type"));
    std::unique_ptr<Predicate> predicate = MakeBuiltInPredicate(type);
    if (predicate == nullptr && plugins != nullptr) {
      CONNECTD_ASSIGN_OR_RETURN(predicate, plugins->MakePredicate(type));
    }
    if (predicate == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid value ", type, " for configuration ",
                                                     prefix, "type: Class ", type,
                                                     " could not be found."));
    }
    CONNECTD_RETURN_IF_ERROR(predicate->Configure(WithPrefix(config, prefix)));
    predicates[alias] = std::move(predicate);
    predicate_classes[alias] = type;
  }

  TransformationChain chain;
  CONNECTD_ASSIGN_OR_RETURN(std::vector<std::string> aliases, Aliases(config, "transforms"));
  for (const std::string& alias : aliases) {
    const std::string prefix = absl::StrCat("transforms.", alias, ".");
    CONNECTD_ASSIGN_OR_RETURN(std::string type, TypeOf(config, prefix + "type"));
    std::unique_ptr<Transformation> transformation = MakeBuiltInTransformation(type);
    if (transformation == nullptr && plugins != nullptr) {
      CONNECTD_ASSIGN_OR_RETURN(transformation, plugins->MakeTransformation(type));
    }
    if (transformation == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid value ", type, " for configuration ",
                                                     prefix, "type: Class ", type,
                                                     " could not be found."));
    }
    CONNECTD_RETURN_IF_ERROR(transformation->Configure(WithPrefix(config, prefix)));
    Stage stage{alias, type, std::move(transformation), nullptr, false};
    if (auto p = config.find(prefix + "predicate"); p != config.end() && !p->second.empty()) {
      auto found = predicates.find(p->second);
      if (found == predicates.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Invalid value ", p->second, " for configuration ", prefix,
            "predicate: Predicate alias ", p->second, " is not defined in \"predicates\""));
      }
      stage.predicate = found->second;
      stage.predicate_class = predicate_classes[p->second];
    }
    if (auto n = config.find(prefix + "negate"); n != config.end()) {
      const std::string value = absl::AsciiStrToLower(absl::StripAsciiWhitespace(n->second));
      if (value != "true" && value != "false") {
        return absl::InvalidArgumentError(absl::StrCat("Invalid value ", n->second,
                                                       " for configuration ", prefix,
                                                       "negate: Expected value to be either "
                                                       "true or false"));
      }
      stage.negate = value == "true";
    }
    chain.stages_.push_back(std::move(stage));
  }
  return chain;
}

absl::StatusOr<std::optional<ConnectRecord>> TransformationChain::Apply(
    ConnectRecord record, std::string* failed_class, StageRetrier* retrier) const {
  for (const Stage& stage : stages_) {
    std::optional<ConnectRecord> next;  // nullopt after the stage: dropped
    const std::string* failing = nullptr;
    const auto run = [&](ConnectRecord in) -> absl::Status {
      if (stage.predicate != nullptr) {
        absl::StatusOr<bool> holds = stage.predicate->Test(in);
        if (!holds.ok()) {
          failing = &stage.predicate_class;
          return holds.status();
        }
        if (*holds == stage.negate) {
          next = std::move(in);
          return absl::OkStatus();
        }
      }
      absl::StatusOr<std::optional<ConnectRecord>> out = stage.transformation->Apply(std::move(in));
      if (!out.ok()) {
        failing = &stage.class_name;
        return out.status();
      }
      next = std::move(*out);
      return absl::OkStatus();
    };
    const absl::Status status =
        retrier == nullptr ? run(std::move(record)) : retrier->Run([&] { return run(record); });
    if (!status.ok()) {
      if (failed_class != nullptr && failing != nullptr) *failed_class = *failing;
      return status;
    }
    if (!next) return std::optional<ConnectRecord>();
    record = std::move(*next);
  }
  return std::optional<ConnectRecord>(std::move(record));
}

}  // namespace connectd::transforms
