#include "runtime/plugin/plugin_stages.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"
#include "runtime/plugin/data_abi.h"
#include "runtime/plugin/host_api.h"
#include "runtime/plugin/host_interfaces.h"

namespace connectd::plugin {
namespace {

static_assert(static_cast<int>(data::Value::Kind::kDate) == CONNECTD_VALUE_DATE &&
                  static_cast<int>(data::Value::Kind::kStruct) == CONNECTD_VALUE_STRUCT &&
                  static_cast<int>(data::Type::kStruct) == CONNECTD_TYPE_STRUCT,
              "the worker's data kinds are the ABI's");

std::string HookMessage(const HookError& error, std::string_view hook) {
  return error.message.empty()
             ? absl::StrCat("the plugin's ", AsAbsl(hook), " failed without a message")
             : error.message;
}

absl::Status FromHook(connectd_status status, const HookError& error, std::string_view hook) {
  return absl::Status(static_cast<absl::StatusCode>(status), HookMessage(error, hook));
}

// The stage's configs as the ABI's props; `storage` owns nothing, the views point into configs.
std::vector<connectd_kv> ToProps(const transforms::Configs& configs) {
  std::vector<connectd_kv> kvs;
  kvs.reserve(configs.size());
  for (const auto& [k, v] : configs) kvs.push_back({{k.data(), k.size()}, {v.data(), v.size()}});
  return kvs;
}

class RecordOut : public RecordOutHost {
 public:
  explicit RecordOut(const transforms::ConnectRecord& in) : in_(in) {}
  connectd_status Set(const connectd_connect_record& record) override {
    DataReader reader;
    absl::StatusOr<transforms::ConnectRecord> out = reader.ReadRecord(record);
    if (!out.ok()) {
      error_ = out.status();
      return CONNECTD_STATUS_INVALID_ARGUMENT;
    }
    KeepRawHeaders(*out);
    record_ = std::move(*out);
    return CONNECTD_STATUS_OK;
  }
  std::optional<transforms::ConnectRecord>& record() { return record_; }
  const absl::Status& error() const { return error_; }

 private:
  // A header the plugin handed back unchanged (same key, BYTES, same bytes) keeps the bytes it
  // arrived with, as it would through a built-in transform.
  void KeepRawHeaders(transforms::ConnectRecord& out) const {
    for (transforms::Header& h : out.headers) {
      if (h.value.kind() != data::Value::Kind::kBytes && !h.value.is_null()) continue;
      for (const transforms::Header& original : in_.headers) {
        if (original.raw.has_value() == false || original.key != h.key) continue;
        if ((h.value.is_null() && original.value.is_null()) ||
            (!h.value.is_null() && !original.value.is_null() &&
             original.value.kind() == data::Value::Kind::kBytes &&
             original.value.bytes() == h.value.bytes())) {
          h.raw = original.raw;
          break;
        }
      }
    }
  }
  const transforms::ConnectRecord& in_;
  std::optional<transforms::ConnectRecord> record_;
  absl::Status error_;
};

class PluginTransformation : public transforms::Transformation {
 public:
  PluginTransformation(const connectd_transformation_vtable* vtable,
                       connectd_transformation_plugin_ptr* instance)
      : vtable_(vtable), instance_(instance) {}
  ~PluginTransformation() override { vtable_->destroy(instance_); }

  absl::Status Configure(const transforms::Configs& configs) override {
    std::vector<connectd_kv> kvs = ToProps(configs);
    HookError error;
    const connectd_status status =
        vtable_->configure(instance_, {kvs.data(), kvs.size()}, ToHandle(&error));
    if (status == CONNECTD_STATUS_OK) return absl::OkStatus();
    return absl::InvalidArgumentError(HookMessage(error, "configure"));
  }

  absl::StatusOr<std::optional<transforms::ConnectRecord>> Apply(
      transforms::ConnectRecord record) override {
    DataWriter writer;
    connectd_connect_record in;
    writer.WriteRecord(record, &in);
    RecordOut out(record);
    HookError error;
    const connectd_status status = vtable_->apply(instance_, &in, ToHandle(&out), ToHandle(&error));
    if (status != CONNECTD_STATUS_OK) {
      if (!out.error().ok() && error.message.empty()) return out.error();
      return FromHook(status, error, "apply");
    }
    if (!out.error().ok()) return out.error();
    return std::move(out.record());
  }

 private:
  const connectd_transformation_vtable* vtable_;
  connectd_transformation_plugin_ptr* instance_;
};

class PluginPredicate : public transforms::Predicate {
 public:
  PluginPredicate(const connectd_predicate_vtable* vtable, connectd_predicate_plugin_ptr* instance)
      : vtable_(vtable), instance_(instance) {}
  ~PluginPredicate() override { vtable_->destroy(instance_); }

  absl::Status Configure(const transforms::Configs& configs) override {
    std::vector<connectd_kv> kvs = ToProps(configs);
    HookError error;
    const connectd_status status =
        vtable_->configure(instance_, {kvs.data(), kvs.size()}, ToHandle(&error));
    if (status == CONNECTD_STATUS_OK) return absl::OkStatus();
    return absl::InvalidArgumentError(HookMessage(error, "configure"));
  }

  absl::StatusOr<bool> Test(const transforms::ConnectRecord& record) const override {
    DataWriter writer;
    connectd_connect_record in;
    writer.WriteRecord(record, &in);
    int32_t result = 0;
    HookError error;
    const connectd_status status = vtable_->test(instance_, &in, &result, ToHandle(&error));
    if (status != CONNECTD_STATUS_OK) return FromHook(status, error, "test");
    return result != 0;
  }

 private:
  const connectd_predicate_vtable* vtable_;
  connectd_predicate_plugin_ptr* instance_;
};

absl::Status CreateFailed(const StagePlugin& stage, const HookError& error) {
  return absl::InvalidArgumentError(absl::StrCat("Could not instantiate class ", stage.class_name,
                                                 ": ", HookMessage(error, "create")));
}

}  // namespace

absl::StatusOr<std::unique_ptr<transforms::Transformation>> PluginStages::MakeTransformation(
    std::string_view class_name) const {
  const StagePlugin* stage = registry_.FindStage(StageKind::kTransformation, class_name);
  if (stage == nullptr) return std::unique_ptr<transforms::Transformation>();
  const connectd_transformation_vtable* vtable = stage->transformation->vtable;
  HookError error;
  connectd_transformation_plugin_ptr* instance = vtable->create(ToHandle(&error));
  if (instance == nullptr) return CreateFailed(*stage, error);
  return std::unique_ptr<transforms::Transformation>(
      std::make_unique<PluginTransformation>(vtable, instance));
}

absl::StatusOr<std::unique_ptr<transforms::Predicate>> PluginStages::MakePredicate(
    std::string_view class_name) const {
  const StagePlugin* stage = registry_.FindStage(StageKind::kPredicate, class_name);
  if (stage == nullptr) return std::unique_ptr<transforms::Predicate>();
  const connectd_predicate_vtable* vtable = stage->predicate->vtable;
  HookError error;
  connectd_predicate_plugin_ptr* instance = vtable->create(ToHandle(&error));
  if (instance == nullptr) return CreateFailed(*stage, error);
  return std::unique_ptr<transforms::Predicate>(
      std::make_unique<PluginPredicate>(vtable, instance));
}

}  // namespace connectd::plugin
