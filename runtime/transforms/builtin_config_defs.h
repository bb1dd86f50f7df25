// File: builtin_config_defs.h
//
// The ConfigDefs Kafka Connect 4.4 reports for its built-in transformations and predicates
// (GET /connector-plugins/<class>/config), key for key: names and order, types, defaults,
// importance, documentation, group, order in group, width and display name. Connector config
// validation checks `transforms.<alias>.*` and `predicates.<alias>.*` against them.
//
//   const config::ConfigDef* def = BuiltInStageConfigDef("InsertField$Value");
//   for (const config::ConfigKey& key : def->keys()) ...  // topic.field, partition.field, ...
//
// The definitions describe; each transform's Configure still parses its own keys and stays the
// authority on what it accepts. A key carries a validator only where Configure enforces one.
// The truth is tests/golden/rest/java-4.4.0-plugin-configs.json
// (tests/unit/builtin_config_defs_test.cc).
//
// Thread safety: the definitions are built once, on first use, and never change; callable from
// any thread.
#pragma once

#include <string_view>

#include "runtime/config/config_def.h"

namespace connectd::transforms {

// The definition of a built-in transformation or predicate, by the names the registry
// (transformation.h) accepts: the Java class name
// ("org.apache.kafka.connect.transforms.InsertField$Value") or its simple alias
// ("InsertField$Value"). nullptr for any other class. The $Key and $Value variants of a
// transformation share one definition. The pointer stays valid for the process's life.
const config::ConfigDef* BuiltInStageConfigDef(std::string_view class_name);

}  // namespace connectd::transforms
