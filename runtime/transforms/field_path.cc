#include "runtime/transforms/field_path.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/transforms/transform_util.h"

namespace connectd::transforms {

config::ConfigKey FieldSyntaxVersionKey() {
  return config::ConfigKey{
      .name = "field.syntax.version",
      .type = config::Type::kString,
      .default_value = "V1",
      .importance = config::Importance::kHigh,
      .documentation =
          "Defines the version of the syntax to access fields. If set to `V1`, then "
          "the field paths are limited to access the elements at the root level of "
          "the struct or map. If set to `V2`, the syntax will support accessing "
          "nested elements."};
}

absl::StatusOr<FieldSyntaxVersion> FieldSyntaxVersionFrom(const config::ParsedConfig& config) {
  const std::string value = config.GetString("field.syntax.version").value_or("V1");
  const std::string upper = absl::AsciiStrToUpper(value);
  if (upper == "V1") return FieldSyntaxVersion::kV1;
  if (upper == "V2") return FieldSyntaxVersion::kV2;
  return absl::InvalidArgumentError(
      absl::StrCat("Invalid value ", value,
                   " for configuration field.syntax.version: String must be one of (case "
                   "insensitive): V1, V2"));
}

absl::StatusOr<SingleFieldPath> SingleFieldPath::Parse(std::string_view path,
                                                       FieldSyntaxVersion version) {
  SingleFieldPath out;
  if (version == FieldSyntaxVersion::kV1) {
    out.steps_.emplace_back(path);
    return out;
  }
  const auto incomplete = [&](size_t backtick_at) {
    return absl::InvalidArgumentError(
        absl::StrCat("Incomplete backtick pair in path: [", AsAbsl(path),
                     "], consider adding a backslash before backtick at position ", backtick_at,
                     " to escape it"));
  };
  size_t idx = 0;
  while (idx < path.size()) {
    if (path[idx] != '`') {
      const size_t dot = path.find('.', idx);
      if (dot == std::string_view::npos) {
        out.steps_.emplace_back(path.substr(idx));
        idx = path.size();
        break;
      }
      out.steps_.emplace_back(path.substr(idx, dot - idx));
      idx = dot + 1;
      continue;
    }
    const size_t backtick_at = idx;
    ++idx;
    std::string field;
    size_t start = idx;
    while (true) {
      idx = path.find('`', idx);
      if (idx == std::string_view::npos) return incomplete(backtick_at);
      const bool escaped = path[idx - 1] == '\\';
      if (idx >= path.size() - 1) {  // the closing backtick ends the path
        if (escaped) return incomplete(backtick_at);
        field.append(path.substr(start, idx - start));
        out.steps_.push_back(std::move(field));
        ++idx;
        break;
      }
      if (path[idx + 1] != '.') {
        ++idx;
        continue;
      }
      if (escaped) {
        field.append(path.substr(start, idx - 1 - start));
        field.push_back('`');
        ++idx;
        start = idx;
        continue;
      }
      field.append(path.substr(start, idx - start));
      out.steps_.push_back(std::move(field));
      idx += 2;
      break;
    }
  }
  if (!path.empty() && path.back() == '.') out.steps_.emplace_back();
  return out;
}

absl::StatusOr<const data::Field*> SingleFieldPath::FieldFrom(const data::Schema* schema) const {
  if (schema == nullptr) return nullptr;
  const data::Schema* current = schema;
  const absl::Status not_struct =
      absl::InvalidArgumentError("Cannot look up fields on non-struct type");
  for (size_t i = 0; i + 1 < steps_.size(); ++i) {
    if (current->type != data::Type::kStruct) return not_struct;
    const data::Field* f = current->FindField(steps_[i]);
    if (f == nullptr) return nullptr;
    current = f->schema.get();
  }
  if (current->type != data::Type::kStruct) return not_struct;
  return current->FindField(steps_.back());
}

absl::StatusOr<data::Value> SingleFieldPath::ValueFrom(const data::Struct& s,
                                                       bool with_default) const {
  const data::Struct* current = &s;
  data::Value holder;
  for (size_t i = 0; i + 1 < steps_.size(); ++i) {
    const data::Value* sub = current->Get(steps_[i]);
    if (sub == nullptr || sub->is_null()) return data::Value();
    CONNECTD_RETURN_IF_ERROR(RequireStruct(*sub, "nested field access"));
    holder = *sub;
    current = holder.structure().get();
  }
  const data::Value* v =
      with_default ? current->Get(steps_.back()) : current->GetWithoutDefault(steps_.back());
  return v == nullptr ? data::Value() : *v;
}

absl::StatusOr<data::Value> SingleFieldPath::ValueFrom(const data::Value::Map& map) const {
  const data::Value::Map* current = &map;
  data::Value holder;
  for (size_t i = 0; i + 1 < steps_.size(); ++i) {
    const data::Value* sub = MapGet(*current, steps_[i]);
    if (sub == nullptr || sub->is_null()) return data::Value();
    CONNECTD_RETURN_IF_ERROR(RequireMap(*sub, "nested field access"));
    holder = *sub;
    current = &holder.map();
  }
  const data::Value* v = MapGet(*current, steps_.back());
  return v == nullptr ? data::Value() : *v;
}

}  // namespace connectd::transforms
