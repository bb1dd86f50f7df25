// File: field_path.h
//
// Connect's SingleFieldPath (KIP-821): the `field.syntax.version` of a transform's field names.
// V1 (the default) names a top-level field as written; V2 reads "a.b.c" as a path into nested
// structs or maps, with `backticks` around a step that contains dots (a backslash before a
// backtick escapes it).
//
// Thread safety: immutable after Parse.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/config/config_def.h"
#include "runtime/data/schema.h"
#include "runtime/data/value.h"

namespace connectd::transforms {

enum class FieldSyntaxVersion { kV1, kV2 };

// The `field.syntax.version` key (STRING, default V1, one of V1, V2 in any case).
config::ConfigKey FieldSyntaxVersionKey();
// Reads it from a parsed config: kInvalidArgument with Java's message when it is neither.
absl::StatusOr<FieldSyntaxVersion> FieldSyntaxVersionFrom(const config::ParsedConfig& config);

class SingleFieldPath {
 public:
  // kInvalidArgument for an unclosed backtick (Java's ConfigException message).
  static absl::StatusOr<SingleFieldPath> Parse(std::string_view path, FieldSyntaxVersion version);

  // The field the path names in `schema`, or nullptr (fieldFrom); kInvalidArgument "Cannot look
  // up fields on non-struct type" when a step is not a struct.
  absl::StatusOr<const data::Field*> FieldFrom(const data::Schema* schema) const;
  // The value at the path in a struct (with or without the field's default), or in a map;
  // null when any step is missing. kInvalidArgument when a step is not a struct/map.
  absl::StatusOr<data::Value> ValueFrom(const data::Struct& s, bool with_default) const;
  absl::StatusOr<data::Value> ValueFrom(const data::Value::Map& map) const;

 private:
  std::vector<std::string> steps_;
};

}  // namespace connectd::transforms
