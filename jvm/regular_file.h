// File: regular_file.h
//
// ReadRegularFile: the whole of a file named by a config, read without letting the name do
// harm: only a regular file (links followed) — a directory, a device such as /dev/zero, a FIFO
// or a socket is refused, so a read can neither throw, block nor run without end — and only up
// to `max_bytes`. For key stores and properties files whose paths come from configs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace connectd::jvm {

// The file's bytes, or nullopt with `error` saying why ("<path> is not a regular file",
// "<path> is larger than N bytes", "<path> cannot be read").
std::optional<std::string> ReadRegularFile(const std::string& path, size_t max_bytes,
                                           std::string& error);

}  // namespace connectd::jvm
