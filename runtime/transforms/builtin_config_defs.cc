#include "runtime/transforms/builtin_config_defs.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runtime/transforms/transformation.h"

namespace connectd::transforms {
namespace {

using config::ConfigDef;
using config::ConfigKey;
using config::Importance;
using config::Type;
using config::Validator;

using Default = config::JavaDefault;
constexpr Default kRequired = Default::Required();
constexpr Default kNull = Default::Null();
constexpr Default Of(const char* value) { return Default::Of(value); }

// Java's define(name, type, default, [validator,] importance, documentation).
ConfigKey Key(const char* name, Type type, Default default_value, Importance importance,
              const char* doc, Validator validator = {}) {
  ConfigKey key = config::JavaKey(name, type, default_value, importance, doc);
  key.validator = std::move(validator);
  return key;
}

ConfigDef Def(std::vector<ConfigKey> keys) {
  ConfigDef def;
  for (ConfigKey& key : keys) def.Define(std::move(key));
  return def;
}

constexpr Importance kHigh = Importance::kHigh;
constexpr Importance kMedium = Importance::kMedium;
constexpr Importance kLow = Importance::kLow;

// Texts several transformations share.
constexpr const char* kReplaceNullWithDefaultDoc =
    "Whether to replace fields that have a default value and that are null to the default "
    "value. When set to true, the default value is used, otherwise null is used.";
constexpr const char* kFieldSyntaxVersionDoc =
    "Defines the version of the syntax to access fields. If set to <code>V1</code>, then the "
    "field paths are limited to access the elements at the root level of the struct or map. If "
    "set to <code>V2</code>, the syntax will support accessing nested elements. To access "
    "nested elements, dotted notation is used. If dots are already included in the field name, "
    "then backtick pairs can be used to wrap field names containing dots. E.g. to access the "
    "subfield <code>baz</code> from a field named \"foo.bar\" in a struct/map the following "
    "format can be used to access its elements: \"<code>foo.bar</code>.baz\".";

ConfigKey ReplaceNullWithDefault() {
  return Key("replace.null.with.default", Type::kBoolean, Of("true"), kMedium,
             kReplaceNullWithDefaultDoc);
}

ConfigKey FieldSyntaxVersion() {
  return Key("field.syntax.version", Type::kString, Of("V1"), kHigh, kFieldSyntaxVersionDoc);
}

// One definition and the simple class names (as the registry lists them) that share it.
struct StageDef {
  std::vector<std::string> simple_names;
  ConfigDef def;
};

std::vector<StageDef> StageDefs() {
  std::vector<StageDef> defs;
  defs.push_back(
      {{"Cast$Key", "Cast$Value"},
       Def({Key("spec", Type::kList, kRequired, kHigh,
                "List of fields and the type to cast them to of the form field1:type,field2:type "
                "to cast fields of Maps or Structs. A single type to cast the entire value. Valid "
                "types are int8, int16, int32, int64, float32, float64, boolean, and string. Note "
                "that binary fields can only be cast to string."),
            ReplaceNullWithDefault()})});
  defs.push_back({{"DropHeaders"},
                  Def({Key("headers", Type::kList, kRequired, kHigh,
                           "The name of the headers to be removed.")})});
  defs.push_back({{"ExtractField$Key", "ExtractField$Value"},
                  Def({Key("field", Type::kString, kRequired, kMedium, "Field name to extract."),
                       ReplaceNullWithDefault(), FieldSyntaxVersion()})});
  defs.push_back({{"Filter"}, Def({})});
  defs.push_back({{"Flatten$Key", "Flatten$Value"},
                  Def({Key("delimiter", Type::kString, Of("."), kMedium,
                           "Delimiter to insert between field names from the input record when "
                           "generating field names for the output record")})});
  defs.push_back(
      {{"HeaderFrom$Key", "HeaderFrom$Value"},
       Def({Key("fields", Type::kList, kRequired, kHigh,
                "Field names in the record whose values are to be copied or moved to headers."),
            Key("headers", Type::kList, kRequired, kHigh,
                "Header names, in the same order as the field names listed in the fields "
                "configuration property."),
            Key("operation", Type::kString, kRequired, kHigh,
                "Either <code>move</code> if the fields are to be moved to the headers (removed "
                "from the key/value), or <code>copy</code> if the fields are to be copied to the "
                "headers (retained in the key/value).",
                Validator::In({"move", "copy"})),
            ReplaceNullWithDefault()})});
  defs.push_back({{"HoistField$Key", "HoistField$Value"},
                  Def({Key("field", Type::kString, kRequired, kMedium,
                           "Field name for the single field that will be created in the "
                           "resulting Struct or Map.")})});
  defs.push_back(
      {{"InsertField$Key", "InsertField$Value"},
       Def({Key("topic.field", Type::kString, kNull, kMedium,
                "Field name for Kafka topic. Suffix with <code>!</code> to make this a required "
                "field, or <code>?</code> to keep it optional (the default)."),
            Key("partition.field", Type::kString, kNull, kMedium,
                "Field name for Kafka partition. Suffix with <code>!</code> to make this a "
                "required field, or <code>?</code> to keep it optional (the default)."),
            Key("offset.field", Type::kString, kNull, kMedium,
                "Field name for Kafka offset - only applicable to sink connectors.<br/>Suffix "
                "with <code>!</code> to make this a required field, or <code>?</code> to keep it "
                "optional (the default)."),
            Key("timestamp.field", Type::kString, kNull, kMedium,
                "Field name for record timestamp. Suffix with <code>!</code> to make this a "
                "required field, or <code>?</code> to keep it optional (the default)."),
            Key("static.field", Type::kString, kNull, kMedium,
                "Field name for static data field. Suffix with <code>!</code> to make this a "
                "required field, or <code>?</code> to keep it optional (the default)."),
            Key("static.value", Type::kString, kNull, kMedium,
                "Static field value, if field name configured."),
            ReplaceNullWithDefault()})});
  defs.push_back(
      {{"InsertHeader"},
       Def({Key("header", Type::kString, kRequired, kHigh, "The name of the header."),
            Key("value.literal", Type::kString, kRequired, kHigh,
                "The literal value that is to be set as the header value on all records.")})});
  defs.push_back({{"MaskField$Key", "MaskField$Value"},
                  Def({Key("fields", Type::kList, kRequired, kHigh, "Names of fields to mask."),
                       Key("replacement", Type::kString, kNull, kLow,
                           "Custom value replacement, that will be applied to all 'fields' "
                           "values (numeric or non-empty string values only).",
                           Validator::NonEmpty()),
                       ReplaceNullWithDefault()})});
  defs.push_back(
      {{"RegexRouter"},
       Def({Key("regex", Type::kString, kRequired, kHigh,
                "Regular expression to use for matching."),
            Key("replacement", Type::kString, kRequired, kHigh, "Replacement string.")})});
  defs.push_back({{"ReplaceField$Key", "ReplaceField$Value"},
                  Def({Key("exclude", Type::kList, Of(""), kMedium,
                           "Fields to exclude. This takes precedence over the fields to include."),
                       Key("include", Type::kList, Of(""), kMedium,
                           "Fields to include. If specified, only these fields will be used."),
                       Key("renames", Type::kList, Of(""), kMedium, "Field rename mappings."),
                       ReplaceNullWithDefault()})});
  defs.push_back({{"SetSchemaMetadata$Key", "SetSchemaMetadata$Value"},
                  Def({Key("schema.name", Type::kString, kNull, kHigh, "Schema name to set."),
                       Key("schema.version", Type::kInt, kNull, kHigh, "Schema version to set."),
                       ReplaceNullWithDefault()})});
  defs.push_back(
      {{"TimestampConverter$Key", "TimestampConverter$Value"},
       Def({Key("field", Type::kString, Of(""), kHigh,
                "The field containing the timestamp, or empty if the entire value is a timestamp"),
            Key("target.type", Type::kString, kRequired, kHigh,
                "The desired timestamp representation: string, unix, Date, Time, or Timestamp",
                Validator::In({"string", "unix", "Date", "Time", "Timestamp"})),
            Key("format", Type::kString, Of(""), kMedium,
                "A SimpleDateFormat-compatible format for the timestamp. Used to generate the "
                "output when type=string or used to parse the input if the input is a string."),
            Key("unix.precision", Type::kString, Of("milliseconds"), kLow,
                "The desired Unix precision for the timestamp: seconds, milliseconds, "
                "microseconds, or nanoseconds. Used to generate the output when type=unix or used "
                "to parse the input if the input is a Long.Note: This SMT will cause precision "
                "loss during conversions from, and to, values with sub-millisecond components.",
                Validator::In({"nanoseconds", "microseconds", "milliseconds", "seconds"})),
            ReplaceNullWithDefault()})});
  defs.push_back({{"TimestampRouter"},
                  Def({Key("topic.format", Type::kString, Of("${topic}-${timestamp}"), kHigh,
                           "Format string which can contain <code>${topic}</code> and "
                           "<code>${timestamp}</code> as placeholders for the topic and timestamp, "
                           "respectively."),
                       Key("timestamp.format", Type::kString, Of("yyyyMMdd"), kHigh,
                           "Format string for the timestamp that is compatible with "
                           "<code>java.text.SimpleDateFormat</code>.")})});
  defs.push_back({{"ValueToKey"},
                  Def({Key("fields", Type::kList, kRequired, kHigh,
                           "Field names on the record value to extract as the record key."),
                       ReplaceNullWithDefault(), FieldSyntaxVersion()})});
  // Predicates.
  defs.push_back({{"HasHeaderKey"},
                  Def({Key("name", Type::kString, kRequired, kMedium, "The header name.",
                           Validator::NonEmpty())})});
  defs.push_back({{"RecordIsTombstone"}, Def({})});
  defs.push_back({{"TopicNameMatches"},
                  Def({Key("pattern", Type::kString, kRequired, kMedium,
                           "A Java regular expression for matching against the name of a "
                           "record's topic.",
                           Validator::NonEmpty())})});
  return defs;
}

// Every name the registry accepts for a listed class, to its definition: the class names come
// from BuiltInTransformationClasses()/BuiltInPredicateClasses() and each also answers to its
// simple alias (the part after the package), as MakeBuiltInTransformation/MakeBuiltInPredicate
// resolve them. A listed class without a definition is left out (the unit test catches it).
const std::map<std::string, const ConfigDef*, std::less<>>& DefsByName() {
  static const auto* by_name = [] {
    const auto* defs = new std::vector<StageDef>(StageDefs());  // lives as long as the map
    std::map<std::string, const ConfigDef*, std::less<>> by_simple_name;
    for (const StageDef& entry : *defs) {
      for (const std::string& name : entry.simple_names) by_simple_name[name] = &entry.def;
    }
    auto* out = new std::map<std::string, const ConfigDef*, std::less<>>();
    for (const auto& classes : {BuiltInTransformationClasses(), BuiltInPredicateClasses()}) {
      for (const std::string& class_name : classes) {
        const std::string simple_name = class_name.substr(class_name.rfind('.') + 1);
        auto it = by_simple_name.find(simple_name);
        if (it == by_simple_name.end()) continue;
        (*out)[class_name] = it->second;
        (*out)[simple_name] = it->second;
      }
    }
    return out;
  }();
  return *by_name;
}

}  // namespace

const config::ConfigDef* BuiltInStageConfigDef(std::string_view class_name) {
  const auto& by_name = DefsByName();
  auto it = by_name.find(class_name);
  return it == by_name.end() ? nullptr : it->second;
}

}  // namespace connectd::transforms
