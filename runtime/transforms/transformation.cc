#include "runtime/transforms/transformation.h"

#include <array>
#include <functional>

#include "runtime/transforms/builtin.h"

namespace connectd::transforms {
namespace {

constexpr std::string_view kTransformsPackage = "org.apache.kafka.connect.transforms.";
constexpr std::string_view kPredicatesPackage = "org.apache.kafka.connect.transforms.predicates.";

struct TransformEntry {
  std::string_view simple_name;  // without the package
  std::function<std::unique_ptr<Transformation>()> make;
};

const std::vector<TransformEntry>& Transforms() {
  using transforms::Operand;
  static const auto* kEntries = new std::vector<TransformEntry>{
      {"Cast$Key", [] { return builtin::MakeCast(Operand::kKey); }},
      {"Cast$Value", [] { return builtin::MakeCast(Operand::kValue); }},
      {"DropHeaders", [] { return builtin::MakeDropHeaders(); }},
      {"ExtractField$Key", [] { return builtin::MakeExtractField(Operand::kKey); }},
      {"ExtractField$Value", [] { return builtin::MakeExtractField(Operand::kValue); }},
      {"Filter", [] { return builtin::MakeFilter(); }},
      {"Flatten$Key", [] { return builtin::MakeFlatten(Operand::kKey); }},
      {"Flatten$Value", [] { return builtin::MakeFlatten(Operand::kValue); }},
      {"HeaderFrom$Key", [] { return builtin::MakeHeaderFrom(Operand::kKey); }},
      {"HeaderFrom$Value", [] { return builtin::MakeHeaderFrom(Operand::kValue); }},
      {"HoistField$Key", [] { return builtin::MakeHoistField(Operand::kKey); }},
      {"HoistField$Value", [] { return builtin::MakeHoistField(Operand::kValue); }},
      {"InsertField$Key", [] { return builtin::MakeInsertField(Operand::kKey); }},
      {"InsertField$Value", [] { return builtin::MakeInsertField(Operand::kValue); }},
      {"InsertHeader", [] { return builtin::MakeInsertHeader(); }},
      {"MaskField$Key", [] { return builtin::MakeMaskField(Operand::kKey); }},
      {"MaskField$Value", [] { return builtin::MakeMaskField(Operand::kValue); }},
      {"RegexRouter", [] { return builtin::MakeRegexRouter(); }},
      {"ReplaceField$Key", [] { return builtin::MakeReplaceField(Operand::kKey); }},
      {"ReplaceField$Value", [] { return builtin::MakeReplaceField(Operand::kValue); }},
      {"SetSchemaMetadata$Key", [] { return builtin::MakeSetSchemaMetadata(Operand::kKey); }},
      {"SetSchemaMetadata$Value", [] { return builtin::MakeSetSchemaMetadata(Operand::kValue); }},
      {"TimestampConverter$Key", [] { return builtin::MakeTimestampConverter(Operand::kKey); }},
      {"TimestampConverter$Value", [] { return builtin::MakeTimestampConverter(Operand::kValue); }},
      {"TimestampRouter", [] { return builtin::MakeTimestampRouter(); }},
      {"ValueToKey", [] { return builtin::MakeValueToKey(); }},
  };
  return *kEntries;
}

struct PredicateEntry {
  std::string_view simple_name;
  std::unique_ptr<Predicate> (*make)();
};

constexpr std::array<PredicateEntry, 3> kPredicates = {{
    {"HasHeaderKey", &builtin::MakeHasHeaderKey},
    {"RecordIsTombstone", &builtin::MakeRecordIsTombstone},
    {"TopicNameMatches", &builtin::MakeTopicNameMatches},
}};

// "org.apache.kafka.connect.transforms.X" or the simple name "X" (Connect's plugin aliases).
std::string_view SimpleName(std::string_view class_name, std::string_view package) {
  if (class_name.substr(0, package.size()) == package) class_name.remove_prefix(package.size());
  return class_name;
}

}  // namespace

std::unique_ptr<Transformation> MakeBuiltInTransformation(std::string_view class_name) {
  const std::string_view name = SimpleName(class_name, kTransformsPackage);
  for (const TransformEntry& e : Transforms()) {
    if (e.simple_name == name) return e.make();
  }
  return nullptr;
}

std::unique_ptr<Predicate> MakeBuiltInPredicate(std::string_view class_name) {
  const std::string_view name = SimpleName(class_name, kPredicatesPackage);
  for (const PredicateEntry& e : kPredicates) {
    if (e.simple_name == name) return e.make();
  }
  return nullptr;
}

std::vector<std::string> BuiltInTransformationClasses() {
  std::vector<std::string> out;
  for (const TransformEntry& e : Transforms()) {
    out.push_back(std::string(kTransformsPackage) + std::string(e.simple_name));
  }
  return out;
}

std::vector<std::string> BuiltInPredicateClasses() {
  std::vector<std::string> out;
  for (const PredicateEntry& e : kPredicates) {
    out.push_back(std::string(kPredicatesPackage) + std::string(e.simple_name));
  }
  return out;
}

}  // namespace connectd::transforms
