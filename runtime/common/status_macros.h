// File: status_macros.h
//
// Early-return helpers for absl::Status / absl::StatusOr (Debian's abseil 20220623 has none).
//
//   CONNECTD_RETURN_IF_ERROR(DoThing());
//   CONNECTD_ASSIGN_OR_RETURN(auto value, ComputeValue());
//
// Annotate() adds context on the way up without losing the canonical code.
#pragma once

#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace connectd {

// Annotate returns `status` with "`context`: " prepended to its message; OK stays OK.
inline absl::Status Annotate(const absl::Status& status, std::string_view context) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(absl::string_view(context.data(), context.size()),
                                                  ": ", status.message()));
}

}  // namespace connectd

#define CONNECTD_STATUS_CONCAT_INNER_(a, b) a##b
#define CONNECTD_STATUS_CONCAT_(a, b) CONNECTD_STATUS_CONCAT_INNER_(a, b)

#define CONNECTD_RETURN_IF_ERROR(expr)                   \
  do {                                                   \
    ::absl::Status connectd_status_ = (expr);            \
    if (!connectd_status_.ok()) return connectd_status_; \
  } while (false)

#define CONNECTD_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();    \
  lhs = std::move(statusor).value()

#define CONNECTD_ASSIGN_OR_RETURN(lhs, rexpr) \
  CONNECTD_ASSIGN_OR_RETURN_IMPL_(CONNECTD_STATUS_CONCAT_(connectd_statusor_, __LINE__), lhs, rexpr)
