// RegexRouter (rename a record's topic when it matches `regex`) and Filter (drop every record;
// used with a predicate), as Kafka 4.4's.
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/transforms/builtin.h"
#include "runtime/transforms/java_pattern.h"

namespace connectd::transforms::builtin {
namespace {

class RegexRouter final : public Transformation {
 public:
  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    for (const char* key : {"regex", "replacement"}) {
      def.Define(config::ConfigKey{.name = key,
                                   .type = config::Type::kString,
                                   .has_default = false,
                                   .importance = config::Importance::kHigh});
    }
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    const std::string regex = config.GetString("regex").value_or("");
    absl::StatusOr<JavaPattern> pattern = JavaPattern::Compile(regex);
    if (!pattern.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid value ", regex, " for configuration regex: ", pattern.status().message()));
    }
    regex_ = std::move(*pattern);
    replacement_ = config.GetString("replacement").value_or("");
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord record) override {
    // The route is a function of the topic alone, and a task sees few topics: remembered.
    auto known = routes_.find(record.topic);
    if (known != routes_.end()) {
      record.topic = known->second;
      return record;
    }
    std::string routed = record.topic;
    CONNECTD_ASSIGN_OR_RETURN(const bool matches, regex_->Matches(record.topic));
    if (matches) {
      CONNECTD_ASSIGN_OR_RETURN(routed, regex_->ReplaceFirst(record.topic, replacement_));
    }
    if (routes_.size() >= kMaxRoutes) routes_.clear();
    routes_.emplace(std::move(record.topic), routed);
    record.topic = std::move(routed);
    return record;
  }

 private:
  static constexpr size_t kMaxRoutes = 4096;
  std::optional<JavaPattern> regex_;
  std::string replacement_;
  absl::flat_hash_map<std::string, std::string> routes_;  // topic -> routed topic
};

class Filter final : public Transformation {
 public:
  absl::Status Configure(const Configs&) override { return absl::OkStatus(); }
  absl::StatusOr<std::optional<ConnectRecord>> Apply(ConnectRecord) override {
    return std::optional<ConnectRecord>();
  }
};

}  // namespace

std::unique_ptr<Transformation> MakeRegexRouter() { return std::make_unique<RegexRouter>(); }
std::unique_ptr<Transformation> MakeFilter() { return std::make_unique<Filter>(); }

}  // namespace connectd::transforms::builtin
