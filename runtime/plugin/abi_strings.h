// File: abi_strings.h
//
// The host's one conversion of the ABI's strings (connectd_str: pointer and length, not
// NUL-terminated; a null pointer is the empty string) to C++ views. Plugins use the SDK's
// sdk::FromStr; the host does not include the SDK.
#pragma once

#include <string_view>

#include "connectd/plugin/abi.h"

namespace connectd::plugin {

inline std::string_view View(connectd_str s) {
  return s.data == nullptr ? std::string_view() : std::string_view(s.data, s.size);
}

}  // namespace connectd::plugin
