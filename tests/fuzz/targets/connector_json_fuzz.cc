// libFuzzer target: connector JSON as the REST layer reads it (rest/json_entities.h: the bodies
// of POST /connectors, PUT and PATCH .../config, PATCH .../offsets, the internal task-config
// POST, a logger level, another worker's error body) and the internal topics' JSON reader
// (runtime/data/connect_json.h).
// The first byte picks the parser; the rest is the body. Property: where the REST layer also
// writes the entity (forwarding to the leader), parse -> write -> parse reaches a fixed point:
// the second write is byte-identical to the first.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rest/json_entities.h"
#include "runtime/data/connect_json.h"
#include "tests/fuzz/targets/fuzz_check.h"

namespace rest = connectd::rest;

namespace {

// parse(body) -> write -> parse -> write: both parses succeed and both writes agree.
template <typename Parse, typename Write>
void CheckFixedPoint(std::string_view body, Parse parse, Write write) {
  auto first = parse(body);
  if (!first.ok()) return;
  std::string written = write(*first);
  auto second = parse(written);
  FUZZ_CHECK(second.ok());
  FUZZ_CHECK(write(*second) == written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  connectd::fuzz::FuzzInput input(data, size);
  uint8_t which = input.Byte();
  std::string_view body = input.Rest();
  switch (which % 8) {
    case 0:
      CheckFixedPoint(body, rest::ParseCreateConnectorRequest, rest::CreateConnectorRequestJson);
      break;
    case 1:
      CheckFixedPoint(body, rest::ParseConfigMap, rest::ConfigMapJson);
      break;
    case 2:
      CheckFixedPoint(body, rest::ParseConfigPatch, rest::ConfigPatchJson);
      break;
    case 3:
      CheckFixedPoint(body, rest::ParseTaskConfigs, rest::TaskConfigsJson);
      break;
    case 4:
      CheckFixedPoint(body, rest::ParseConnectorOffsets, rest::ConnectorOffsetsJson);
      break;
    case 5: {
      (void)rest::ParseLoggerLevelBody(body);
      (void)rest::ParseErrorMessage(body);
      break;
    }
    case 6: {
      // Every entity parser reads one JSON document: one that parses is a well-formed document.
      absl::Status document = rest::CheckJsonDocument(body);
      if (rest::ParseConfigMap(body).ok()) FUZZ_CHECK(document.ok());
      break;
    }
    default: {
      absl::StatusOr<connectd::data::JsonValue> value =
          connectd::data::ReadConnectJson(body);
      if (!value.ok()) FUZZ_CHECK(value.status().code() == absl::StatusCode::kInvalidArgument);
      break;
    }
  }
  return 0;
}
