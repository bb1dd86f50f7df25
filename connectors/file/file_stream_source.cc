#include "connectors/file/file_stream_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace connectd::file {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.file.FileStreamSourceTask";

std::optional<std::string> OptionalProp(const sdk::Props& props, const std::string& key) {
  auto it = props.find(key);
  if (it == props.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

// Parses the "position" of an offset JSON object such as {"position":1024}.
std::optional<long long> ParsePosition(const std::string& offset_json) {
  size_t key = offset_json.find("\"position\"");
  if (key == std::string::npos) return std::nullopt;
  size_t colon = offset_json.find(':', key);
  if (colon == std::string::npos) return std::nullopt;
  const char* start = offset_json.c_str() + colon + 1;
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(start, &end, 10);
  if (end == start || errno != 0 || value < 0) return std::nullopt;
  return value;
}

}  // namespace

std::string JsonQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", c);
          out += escaped;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

sdk::ConfigDef FileStreamSourceConnector::configDef() {
  using sdk::ConfigKey;
  return sdk::ConfigDef()
      .define(ConfigKey("file", ConfigKey::kString)
                  .withNullDefault()
                  .importance(ConfigKey::kHigh)
                  .doc("Source filename. If not specified, the standard input will be used"))
      .define(ConfigKey("topic", ConfigKey::kString)
                  .nonEmpty()
                  .importance(ConfigKey::kHigh)
                  .doc("The topic to publish data to"))
      .define(ConfigKey("batch.size", ConfigKey::kInt)
                  .withDefault("2000")
                  .importance(ConfigKey::kLow)
                  .doc("The maximum number of records the source task can read from the file "
                       "each time it is polled"));
}

void FileStreamSourceConnector::start(const sdk::Props& props) {
  auto topic = props.find("topic");
  if (topic == props.end() || topic->second.empty()) {
    throw sdk::ConfigException(
        "Missing required configuration \"topic\" which has no default value.");
  }
  if (topic->second.find(',') != std::string::npos) {
    throw sdk::ConfigException(
        "'topic' in FileStreamSourceConnector configuration requires "
        "definition of a single topic.");
  }
  props_ = props;
}

std::vector<sdk::Props> FileStreamSourceConnector::taskConfigs(int /*max_tasks*/) {
  // One file, one reader: a single task whose config is the whole connector config, exactly as
  // Java's FileStreamSourceConnector returns it (the worker adds task.class).
  return {props_};
}

bool FileStreamSourceConnector::alterOffsets(const sdk::Props& /*config*/,
                                             const std::vector<sdk::OffsetChange>& changes) {
  for (const sdk::OffsetChange& change : changes) {
    if (change.partition.find("\"filename\"") == std::string::npos) {
      throw sdk::ConnectException(
          "The partitions for FileStreamSourceConnector must contain the "
          "key 'filename'",
          CONNECTD_STATUS_INVALID_ARGUMENT);
    }
    if (change.offset && !ParsePosition(*change.offset)) {
      throw sdk::ConnectException(
          "The offset for FileStreamSourceConnector must contain the key "
          "'position' with a non-negative integer value",
          CONNECTD_STATUS_INVALID_ARGUMENT);
    }
  }
  return true;
}

FileStreamSourceTask::~FileStreamSourceTask() {
  if (fd_ > 0) ::close(fd_);
}

void FileStreamSourceTask::start(const sdk::Props& props) {
  filename_ = OptionalProp(props, "file");
  topic_ = props.at("topic");
  if (auto size = OptionalProp(props, "batch.size")) batch_size_ = std::stoi(*size);
  if (!filename_) {
    fd_ = STDIN_FILENO;
    return;
  }
  partition_json_ = "{\"filename\":" + JsonQuote(*filename_) + "}";
  if (auto offset = context().offset(partition_json_)) {
    if (auto position = ParsePosition(*offset)) position_ = *position;
  }
}

bool FileStreamSourceTask::Fill() {
  if (fd_ < 0 && filename_) {
    fd_ = ::open(filename_->c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      // Connect waits for the file to appear rather than failing.
      sdk::Log(CONNECTD_LOG_WARN, kLogger,
               "Couldn't find file " + *filename_ +
                   " for FileStreamSourceTask, sleeping to wait "
                   "for it to be created");
      return false;
    }
    if (position_ > 0 && ::lseek(fd_, position_, SEEK_SET) < 0) {
      throw sdk::ConnectException("cannot seek " + *filename_ + ": " + std::strerror(errno));
    }
    sdk::Log(CONNECTD_LOG_DEBUG, kLogger,
             "Opened " + *filename_ + " for reading at position " + std::to_string(position_));
  }
  char chunk[64 * 1024];
  ssize_t n = ::read(fd_, chunk, sizeof(chunk));
  if (n < 0) {
    if (errno == EINTR || errno == EAGAIN) return false;
    throw sdk::ConnectException("Error while reading from " + filename_.value_or("stdin") + ": " +
                                std::strerror(errno));
  }
  buffer_.append(chunk, static_cast<size_t>(n));
  return n > 0;
}

void FileStreamSourceTask::poll(sdk::SourceBatch& batch) {
  bool read_more = true;
  int emitted = 0;
  while (emitted < batch_size_) {
    // Lines end with \n, \r or \r\n, as Java's reader splits them.
    size_t end = buffer_.find_first_of("\r\n");
    if (end == std::string::npos || (buffer_[end] == '\r' && end + 1 == buffer_.size())) {
      // No complete line (a lone trailing \r may be the start of \r\n): read more.
      if (!read_more || !Fill()) break;
      read_more = buffer_.size() < 1024 * 1024;
      continue;
    }
    size_t terminator = (buffer_[end] == '\r' && buffer_[end + 1] == '\n') ? 2 : 1;
    position_ += static_cast<long long>(end + terminator);
    sdk::SourceRecord record;
    record.topic = topic_;
    // Java's record: no key (null schema, null value), the line as a STRING_SCHEMA value; the
    // task's converters write them (StringConverter: the line's bytes).
    record.key_data = sdk::SchemaAndValue{nullptr, sdk::Value()};
    record.value_data =
        sdk::SchemaAndValue{value_schema_, sdk::Value::String(buffer_.substr(0, end))};
    record.timestamp_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
    if (filename_) {
      record.source_partition = partition_json_;
      record.source_offset = "{\"position\":" + std::to_string(position_) + "}";
    }
    batch.add(record);
    buffer_.erase(0, end + terminator);
    ++emitted;
  }
  if (emitted == 0) Wait(std::min(batch.timeoutMs(), 1000));
}

void FileStreamSourceTask::Wait(int ms) {
  std::unique_lock lock(mu_);
  stop_cv_.wait_for(lock, std::chrono::milliseconds(ms), [this] { return stopping_; });
}

void FileStreamSourceTask::stop() {
  std::lock_guard lock(mu_);
  stopping_ = true;
  stop_cv_.notify_all();
}

}  // namespace connectd::file
