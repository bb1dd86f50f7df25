// File: strings.h
//
// Debian's abseil 20220623 is built with ABSL_OPTION_USE_STD_STRING_VIEW=0: absl::string_view is
// its own type, and absl::StrCat/StrSplit/... do not accept a std::string_view. Our APIs use
// std::string_view; wrap one with AsAbsl() where it meets an absl string function.
#pragma once

#include <string_view>

#include "absl/strings/string_view.h"

namespace connectd {

inline absl::string_view AsAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}
inline std::string_view AsStd(absl::string_view s) { return std::string_view(s.data(), s.size()); }

}  // namespace connectd
