// File: builtin.h
//
// Internal to runtime/transforms: the factories of the built-in transforms and predicates, one
// per Java class (the $Key / $Value variants share one implementation through Operand). The
// registry (transformation.cc) maps Java class names onto these.
#pragma once

#include <memory>

#include "runtime/transforms/transform_util.h"
#include "runtime/transforms/transformation.h"

namespace connectd::transforms::builtin {

// field_transforms.cc
std::unique_ptr<Transformation> MakeInsertField(Operand operand);
std::unique_ptr<Transformation> MakeReplaceField(Operand operand);
std::unique_ptr<Transformation> MakeMaskField(Operand operand);
std::unique_ptr<Transformation> MakeValueToKey();
std::unique_ptr<Transformation> MakeExtractField(Operand operand);
std::unique_ptr<Transformation> MakeHoistField(Operand operand);
std::unique_ptr<Transformation> MakeSetSchemaMetadata(Operand operand);
// flatten.cc
std::unique_ptr<Transformation> MakeFlatten(Operand operand);
// cast.cc
std::unique_ptr<Transformation> MakeCast(Operand operand);
// timestamp_converter.cc
std::unique_ptr<Transformation> MakeTimestampConverter(Operand operand);
// routers.cc
std::unique_ptr<Transformation> MakeRegexRouter();
std::unique_ptr<Transformation> MakeTimestampRouter();
std::unique_ptr<Transformation> MakeFilter();
// header_transforms.cc
std::unique_ptr<Transformation> MakeInsertHeader();
std::unique_ptr<Transformation> MakeDropHeaders();
std::unique_ptr<Transformation> MakeHeaderFrom(Operand operand);
// predicates.cc
std::unique_ptr<Predicate> MakeTopicNameMatches();
std::unique_ptr<Predicate> MakeHasHeaderKey();
std::unique_ptr<Predicate> MakeRecordIsTombstone();

}  // namespace connectd::transforms::builtin
