// File: connectd/sdk/host.h
//
// The host's function table as the SDK sees it, plus logging for plugin code:
//   connectd::sdk::Log(CONNECTD_LOG_INFO, "org.example.MyTask", "opened " + path);
#pragma once

#include <string>
#include <string_view>

#include "connectd/plugin/abi.h"

namespace connectd::sdk {

inline connectd_str ToStr(std::string_view s) { return connectd_str{s.data(), s.size()}; }
inline std::string_view FromStr(connectd_str s) {
  return s.data == nullptr ? std::string_view() : std::string_view(s.data, s.size);
}

namespace internal {
// Set once by the plugin entry before any other SDK call; one per shared object.
inline const connectd_host_api* g_host = nullptr;
}  // namespace internal

inline const connectd_host_api& Host() { return *internal::g_host; }
// Whether a host is there: false for plugin code linked into a program that is not connectd
// (its tests), where Log must not be called.
inline bool HasHost() { return internal::g_host != nullptr; }

inline bool LogEnabled(int32_t level, std::string_view logger) {
  return Host().log_enabled(level, ToStr(logger)) != 0;
}
inline void Log(int32_t level, std::string_view logger, std::string_view message) {
  Host().log(level, ToStr(logger), ToStr(message));
}

}  // namespace connectd::sdk
