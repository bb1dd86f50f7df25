// File: sink_offsets.h
//
// The REST form of a sink connector's offsets (KIP-875): partition
// {"kafka_topic":"t","kafka_partition":3} and offset {"kafka_offset":1000}, in the key order
// Java's HashMap gives them; numbers may arrive as JSON numbers or numeric strings.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/statusor.h"

namespace connectd::herder {

std::string SinkPartitionJson(const std::string& topic, int32_t partition);
std::string SinkOffsetJson(int64_t offset);

// kInvalidArgument with a message naming the problem for anything that is not such a map.
absl::StatusOr<std::pair<std::string, int32_t>> ParseSinkPartition(const std::string& json);
absl::StatusOr<int64_t> ParseSinkOffset(const std::string& json);

}  // namespace connectd::herder
