// RegexRouter (rename a record's topic when it matches `regex`) and Filter (drop every record;
// used with a predicate), as Kafka 4.4's.
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
    if (regex_->Matches(record.topic)) {
      CONNECTD_ASSIGN_OR_RETURN(record.topic, regex_->ReplaceFirst(record.topic, replacement_));
    }
    return record;
  }

 private:
  std::optional<JavaPattern> regex_;
  std::string replacement_;
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
