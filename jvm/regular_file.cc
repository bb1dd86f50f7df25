#include "jvm/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace connectd::jvm {

std::optional<std::string> ReadRegularFile(const std::string& path, size_t max_bytes,
                                           std::string& error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    error = path + ": cannot be read";
    return std::nullopt;
  }
  struct stat info {};
  std::optional<std::string> out;
  if (fstat(fd, &info) != 0) {
    error = path + ": cannot be read";
  } else if (!S_ISREG(info.st_mode)) {
    error = path + " is not a regular file";
  } else if (static_cast<size_t>(info.st_size) > max_bytes) {
    error = path + " is larger than " + std::to_string(max_bytes) + " bytes";
  } else {
    std::string data;
    char buffer[65536];
    for (;;) {
      const ssize_t n = read(fd, buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error = path + ": cannot be read";
        break;
      }
      if (n == 0) {
        out = std::move(data);
        break;
      }
      data.append(buffer, static_cast<size_t>(n));
      if (data.size() > max_bytes) {  // grown since fstat
        error = path + " is larger than " + std::to_string(max_bytes) + " bytes";
        break;
      }
    }
  }
  close(fd);
  return out;
}

}  // namespace connectd::jvm
