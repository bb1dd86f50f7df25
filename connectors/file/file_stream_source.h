// File: file_stream_source.h
//
// FileStreamSourceConnector: Kafka Connect's example source (connect-file), same class name and
// config keys. Reads lines from `file` (standard input when unset) and writes each as a record
// value to `topic`, at most `batch.size` per poll. Its offsets are Connect's:
// partition {"filename":"<file>"}, offset {"position":<bytes consumed>}, so a restart (or a Java
// worker reading the same offsets) resumes after the last committed line.
#pragma once

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

#include "connectd/sdk/sdk.h"

namespace connectd::file {

class FileStreamSourceTask : public sdk::SourceTask {
 public:
  ~FileStreamSourceTask() override;
  void start(const sdk::Props& props) override;
  void poll(sdk::SourceBatch& batch) override;
  void stop() override;

 private:
  // Reads what the file has now into buffer_; false at a (possibly temporary) end of data.
  bool Fill();
  // Waits up to `ms` or until stop().
  void Wait(int ms);

  std::optional<std::string> filename_;  // unset: standard input
  std::string topic_;
  int batch_size_ = 2000;
  int fd_ = -1;
  std::string partition_json_;
  // Java's FileStreamSourceTask.VALUE_SCHEMA (Schema.STRING_SCHEMA).
  const sdk::SchemaPtr value_schema_ = sdk::Schema::Required(sdk::Type::kString);
  long long position_ = 0;  // bytes of the file consumed by emitted lines
  std::string buffer_;      // read but not yet emitted
  std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;  // guarded by mu_
};

class FileStreamSourceConnector : public sdk::SourceConnector {
 public:
  static constexpr char kClassName[] = "org.apache.kafka.connect.file.FileStreamSourceConnector";
  static constexpr char kVersion[] = "4.4.0";
  using TaskType = FileStreamSourceTask;
  static sdk::ConfigDef configDef();

  void start(const sdk::Props& props) override;
  std::vector<sdk::Props> taskConfigs(int max_tasks) override;
  void stop() override {}
  bool alterOffsets(const sdk::Props& config,
                    const std::vector<sdk::OffsetChange>& changes) override;

 private:
  sdk::Props props_;
};

// JSON string literal for `s` (quotes included).
std::string JsonQuote(const std::string& s);

}  // namespace connectd::file
