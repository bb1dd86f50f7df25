#include "runtime/storage/file_offset_backing_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/common/logging.h"
#include "runtime/common/status_macros.h"
#include "runtime/common/strings.h"
#include "runtime/storage/java_serialization.h"

namespace connectd::storage {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.storage.FileOffsetBackingStore";

absl::Status ErrnoError(int error, std::string_view action, std::string_view path) {
  return absl::ErrnoToStatus(error, absl::StrCat(AsAbsl(action), " ", AsAbsl(path)));
}

// The whole file, or nullopt if it does not exist.
absl::StatusOr<std::optional<std::string>> ReadFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::optional<std::string>();
    return ErrnoError(errno, "cannot open", path);
  }
  std::string data;
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      return ErrnoError(error, "cannot read", path);
    }
    if (n == 0) break;
    data.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return std::optional<std::string>(std::move(data));
}

absl::Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "cannot write", path);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

absl::Status SyncDirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "cannot open directory", dir);
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0) return ErrnoError(error, "cannot fsync directory", dir);
  return absl::OkStatus();
}

// Writes `data` to `path` atomically and durably: temp file, fsync, rename, fsync directory.
absl::Status ReplaceFile(const std::string& path, std::string_view data) {
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "cannot create", temp);
  absl::Status status = WriteAll(fd, data, temp);
  if (status.ok() && ::fsync(fd) != 0) status = ErrnoError(errno, "cannot fsync", temp);
  if (::close(fd) != 0 && status.ok()) status = ErrnoError(errno, "cannot close", temp);
  if (status.ok() && ::rename(temp.c_str(), path.c_str()) != 0) {
    status = ErrnoError(errno, absl::StrCat("cannot rename ", temp, " to"), path);
  }
  if (!status.ok()) {
    ::unlink(temp.c_str());
    return status;
  }
  return SyncDirectoryOf(path);
}

}  // namespace

FileOffsetBackingStore::FileOffsetBackingStore(std::string filename)
    : filename_(std::move(filename)) {}

FileOffsetBackingStore::~FileOffsetBackingStore() { Stop(); }

absl::Status FileOffsetBackingStore::Start() {
  {
    absl::MutexLock lock(&mu_);
    if (state_ != State::kNew) {
      return absl::FailedPreconditionError("FileOffsetBackingStore can be started only once");
    }
  }
  CONNECTD_LOG(kInfo, kLogger) << "Starting FileOffsetBackingStore with file " << filename_;
  CONNECTD_ASSIGN_OR_RETURN(std::optional<std::string> contents, ReadFile(filename_));
  OffsetWrites loaded;
  if (contents.has_value()) {
    absl::StatusOr<std::vector<JavaByteArrayMapEntry>> entries =
        ParseJavaByteArrayHashMap(*contents);
    if (!entries.ok()) {
      return Annotate(entries.status(), absl::StrCat("cannot load offsets from ", filename_));
    }
    for (auto& [key, value] : *entries) {
      if (!key.has_value()) {
        CONNECTD_LOG(kWarn, kLogger) << "Ignoring an offset with a null key in " << filename_;
        continue;
      }
      loaded.insert_or_assign(std::move(*key), std::move(value));
    }
  }
  CONNECTD_RETURN_IF_ERROR(memory_.Start());
  memory_.Set(std::move(loaded), nullptr);

  absl::MutexLock lock(&mu_);
  if (state_ != State::kNew) {
    return absl::FailedPreconditionError("FileOffsetBackingStore was stopped while starting");
  }
  state_ = State::kRunning;
  writer_ = std::thread([this] { WriterLoop(); });
  return absl::OkStatus();
}

void FileOffsetBackingStore::Stop() {
  std::thread writer;
  {
    absl::MutexLock lock(&mu_);
    const bool running = state_ == State::kRunning;
    state_ = State::kStopped;
    if (!running) return;
    stopping_ = true;
    writer = std::move(writer_);
  }
  writer.join();  // the writer saves what is pending and runs its callbacks first
  memory_.Stop();
  CONNECTD_LOG(kInfo, kLogger) << "Stopped FileOffsetBackingStore";
}

absl::StatusOr<std::map<std::string, std::string>> FileOffsetBackingStore::Get(
    const std::vector<std::string>& keys) {
  return memory_.Get(keys);
}

void FileOffsetBackingStore::Set(OffsetWrites values, SetCallback callback) {
  {
    absl::MutexLock lock(&mu_);
    if (state_ == State::kRunning) {
      memory_.Set(std::move(values), nullptr);
      waiting_.emplace_back(++next_seq_, std::move(callback));
      return;
    }
  }
  if (callback) callback(absl::FailedPreconditionError("the offset backing store is not started"));
}

std::vector<std::string> FileOffsetBackingStore::ConnectorPartitions(std::string_view connector) {
  return memory_.ConnectorPartitions(connector);
}

absl::StatusOr<std::optional<std::string>> FileOffsetBackingStore::FindOffset(
    std::string_view connector, std::string_view partition_json) {
  return memory_.FindOffset(connector, partition_json);
}

bool FileOffsetBackingStore::HasWork() const { return next_seq_ > saved_seq_ || stopping_; }

void FileOffsetBackingStore::WriterLoop() {
  for (;;) {
    uint64_t target;
    OffsetWrites snapshot;
    {
      absl::MutexLock lock(&mu_, absl::Condition(this, &FileOffsetBackingStore::HasWork));
      if (next_seq_ == saved_seq_) return;  // stopping, nothing pending
      target = next_seq_;
      snapshot = memory_.Snapshot();
    }
    const absl::Status status = Save(snapshot);
    if (!status.ok()) {
      CONNECTD_LOG(kError, kLogger) << "Failed to save offsets: " << status;
    }
    std::vector<SetCallback> done;
    {
      absl::MutexLock lock(&mu_);
      saved_seq_ = target;
      while (!waiting_.empty() && waiting_.front().first <= target) {
        done.push_back(std::move(waiting_.front().second));
        waiting_.pop_front();
      }
    }
    for (SetCallback& callback : done) {
      if (callback) callback(status);
    }
  }
}

absl::Status FileOffsetBackingStore::Save(const OffsetWrites& snapshot) const {
  std::vector<JavaByteArrayMapEntry> entries;
  entries.reserve(snapshot.size());
  for (const auto& [key, value] : snapshot) entries.emplace_back(key, value);
  return ReplaceFile(filename_, SerializeJavaByteArrayHashMap(entries));
}

}  // namespace connectd::storage
