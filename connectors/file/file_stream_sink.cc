#include "connectors/file/file_stream_sink.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace connectd::file {

sdk::ConfigDef FileStreamSinkConnector::configDef() {
  using sdk::ConfigKey;
  return sdk::ConfigDef().define(
      ConfigKey("file", ConfigKey::kString)
          .withNullDefault()
          .importance(ConfigKey::kHigh)
          .doc("Destination filename. If not specified, the standard output will be used"));
}

std::vector<sdk::Props> FileStreamSinkConnector::taskConfigs(int max_tasks) {
  // tasks.max tasks, each with the whole connector config, exactly as Java's
  // FileStreamSinkConnector (the worker adds task.class, topics and topics.regex).
  return std::vector<sdk::Props>(static_cast<size_t>(std::max(max_tasks, 0)), props_);
}

FileStreamSinkTask::~FileStreamSinkTask() {
  if (out_ != nullptr && out_ != stdout) std::fclose(out_);
}

void FileStreamSinkTask::start(const sdk::Props& props) {
  auto it = props.find("file");
  if (it == props.end() || it->second.empty()) {
    out_ = stdout;
    return;
  }
  filename_ = it->second;
  out_ = std::fopen(filename_->c_str(), "a");
  if (out_ == nullptr) {
    throw sdk::ConnectException("Couldn't find or create file '" + *filename_ +
                                "' for FileStreamSinkTask: " + std::strerror(errno));
  }
}

void FileStreamSinkTask::put(const sdk::SinkRecords& records) {
  for (auto record : records) {
    std::string_view value = record.value().value_or("null");  // Java prints a null as "null"
    if (std::fwrite(value.data(), 1, value.size(), out_) != value.size() ||
        std::fputc('\n', out_) == EOF) {
      throw sdk::ConnectException("Error writing to " + filename_.value_or("stdout") + ": " +
                                  std::strerror(errno));
    }
  }
}

void FileStreamSinkTask::flush(const sdk::OffsetMap& /*current*/) {
  if (std::fflush(out_) != 0 || (out_ != stdout && ::fsync(fileno(out_)) != 0)) {
    throw sdk::RetriableException("Error flushing " + filename_.value_or("stdout") + ": " +
                                  std::strerror(errno));
  }
}

}  // namespace connectd::file
