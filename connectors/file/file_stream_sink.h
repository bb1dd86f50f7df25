// File: file_stream_sink.h
//
// FileStreamSinkConnector: Kafka Connect's example sink (connect-file), same class name and
// config keys. Appends each record's value as a line to `file` (standard output when unset);
// flush makes the lines durable before the worker commits the consumed offsets.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

#include "connectd/sdk/sdk.h"

namespace connectd::file {

class FileStreamSinkTask : public sdk::SinkTask {
 public:
  ~FileStreamSinkTask() override;
  void start(const sdk::Props& props) override;
  void put(const sdk::SinkRecords& records) override;
  void flush(const sdk::OffsetMap& current) override;
  void stop() override {}

 private:
  std::optional<std::string> filename_;
  std::FILE* out_ = nullptr;
};

class FileStreamSinkConnector : public sdk::SinkConnector {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.file.FileStreamSinkConnector";
  static constexpr char kVersion[] = "4.4.0";
  using TaskType = FileStreamSinkTask;
  static sdk::ConfigDef configDef();

  void start(const sdk::Props& props) override { props_ = props; }
  std::vector<sdk::Props> taskConfigs(int max_tasks) override;
  void stop() override {}
  // The sink keeps no offsets of its own: any alteration is fine (as in Connect).
  bool alterOffsets(const sdk::Props&, const std::vector<sdk::OffsetChange>&) override {
    return true;
  }

 private:
  sdk::Props props_;
};

}  // namespace connectd::file
