// The built-in predicates of Kafka 4.4: TopicNameMatches (`pattern`, Matcher.matches on the
// topic), HasHeaderKey (`name`: any header with that key), RecordIsTombstone (a null value).
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/transforms/builtin.h"
#include "runtime/transforms/java_pattern.h"

namespace connectd::transforms::builtin {
namespace {

class TopicNameMatches final : public Predicate {
 public:
  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    def.Define(config::ConfigKey{.name = "pattern",
                                 .type = config::Type::kString,
                                 .has_default = false,
                                 .validator = config::Validator::NonEmpty(),
                                 .importance = config::Importance::kMedium});
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    const std::string pattern = config.GetString("pattern").value_or("");
    absl::StatusOr<JavaPattern> compiled = JavaPattern::Compile(pattern);
    if (!compiled.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid value ", pattern, " for configuration pattern: ", compiled.status().message()));
    }
    pattern_ = std::move(*compiled);
    return absl::OkStatus();
  }

  absl::StatusOr<bool> Test(const ConnectRecord& record) const override {
    // A function of the topic alone, and a task sees few topics: remembered.
    auto known = matches_.find(record.topic);
    if (known != matches_.end()) return known->second;
    CONNECTD_ASSIGN_OR_RETURN(const bool matches, pattern_->Matches(record.topic));
    if (matches_.size() >= kMaxTopics) matches_.clear();
    matches_.emplace(record.topic, matches);
    return matches;
  }

 private:
  static constexpr size_t kMaxTopics = 4096;
  std::optional<JavaPattern> pattern_;
  mutable absl::flat_hash_map<std::string, bool> matches_;  // the task thread's alone
};

class HasHeaderKey final : public Predicate {
 public:
  absl::Status Configure(const Configs& configs) override {
    config::ConfigDef def;
    def.Define(config::ConfigKey{.name = "name",
                                 .type = config::Type::kString,
                                 .has_default = false,
                                 .validator = config::Validator::NonEmpty(),
                                 .importance = config::Importance::kMedium});
    CONNECTD_ASSIGN_OR_RETURN(config::ParsedConfig config, ParseTransformConfig(def, configs));
    name_ = config.GetString("name").value_or("");
    return absl::OkStatus();
  }

  absl::StatusOr<bool> Test(const ConnectRecord& record) const override {
    for (const Header& h : record.headers) {
      if (h.key == name_) return true;
    }
    return false;
  }

 private:
  std::string name_;
};

class RecordIsTombstone final : public Predicate {
 public:
  absl::Status Configure(const Configs&) override { return absl::OkStatus(); }
  absl::StatusOr<bool> Test(const ConnectRecord& record) const override {
    return record.value.is_null();
  }
};

}  // namespace

std::unique_ptr<Predicate> MakeTopicNameMatches() { return std::make_unique<TopicNameMatches>(); }
std::unique_ptr<Predicate> MakeHasHeaderKey() { return std::make_unique<HasHeaderKey>(); }
std::unique_ptr<Predicate> MakeRecordIsTombstone() { return std::make_unique<RecordIsTombstone>(); }

}  // namespace connectd::transforms::builtin
