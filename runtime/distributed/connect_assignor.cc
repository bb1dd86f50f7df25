#include "runtime/distributed/connect_assignor.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/common/strings.h"

namespace connectd::distributed {

int64_t MaxMemberConfigOffset(const std::vector<AssignorMember>& members) {
  int64_t max_offset = -1;
  bool first = true;
  for (const AssignorMember& member : members) {
    if (first || member.metadata.config_offset > max_offset) {
      max_offset = member.metadata.config_offset;
    }
    first = false;
  }
  return max_offset;
}

absl::StatusOr<std::map<std::string, ConnectAssignment>> ConfigMismatchAssignments(
    const std::vector<AssignorMember>& members, std::string_view leader_id,
    std::string_view leader_url, int64_t config_offset, int16_t version) {
  if (absl::Status s = assignor_internal::ValidateMembers(members, leader_id); !s.ok()) return s;
  if (version != kProtocolV0 && version != kProtocolV1 && version != kProtocolV2) {
    return absl::InvalidArgumentError(absl::StrCat("unknown connect protocol version ", version));
  }
  std::map<std::string, ConnectAssignment> out;
  for (const AssignorMember& member : members) {
    ConnectAssignment a;
    a.version = version;
    a.error = ConnectAssignment::kConfigMismatch;
    a.leader = std::string(leader_id);
    a.leader_url = std::string(leader_url);
    a.config_offset = config_offset;
    out[member.member_id] = std::move(a);
  }
  return out;
}

OwnerMap OwnersOf(const std::map<std::string, MemberWork>& complete) {
  OwnerMap owners;
  for (const auto& [member, work] : complete) {
    for (const std::string& connector : work.connectors) owners.connectors[connector] = member;
    for (const herder::ConnectorTaskId& task : work.tasks) owners.tasks[task] = member;
  }
  return owners;
}

namespace assignor_internal {

absl::Status ValidateMembers(const std::vector<AssignorMember>& members,
                             std::string_view leader_id) {
  if (members.empty()) return absl::InvalidArgumentError("no group members to assign to");
  std::set<std::string_view> seen;
  bool leader_found = false;
  for (const AssignorMember& member : members) {
    if (!seen.insert(member.member_id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("duplicate group member id '", member.member_id, "'"));
    }
    leader_found = leader_found || member.member_id == leader_id;
  }
  if (!leader_found) {
    return absl::InvalidArgumentError(
        absl::StrCat("leader '", AsAbsl(leader_id), "' is not a member of the group"));
  }
  return absl::OkStatus();
}

namespace {

// Walks a UTF-8 string as the UTF-16 code units Java would hold for it. Malformed bytes read as
// U+FFFD one byte at a time (a broker re-encodes member ids from Java strings, so they are
// always well formed).
class Utf16Units {
 public:
  explicit Utf16Units(std::string_view s) : s_(s) {}

  // Returns false at the end.
  bool Next(uint16_t* unit) {
    if (pending_low_ != 0) {
      *unit = pending_low_;
      pending_low_ = 0;
      return true;
    }
    if (pos_ >= s_.size()) return false;
    uint32_t cp = DecodeCodePoint();
    if (cp >= 0x10000) {
      cp -= 0x10000;
      *unit = static_cast<uint16_t>(0xD800 + (cp >> 10));
      pending_low_ = static_cast<uint16_t>(0xDC00 + (cp & 0x3FF));
    } else {
      *unit = static_cast<uint16_t>(cp);
    }
    return true;
  }

 private:
  uint32_t DecodeCodePoint() {
    const auto byte = [this](size_t i) { return static_cast<unsigned char>(s_[i]); };
    unsigned char b0 = byte(pos_);
    size_t len = 0;
    uint32_t cp = 0;
    uint32_t min = 0;
    if (b0 < 0x80) {
      ++pos_;
      return b0;
    } else if ((b0 & 0xE0) == 0xC0) {
      len = 2, cp = b0 & 0x1F, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
      len = 3, cp = b0 & 0x0F, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
      len = 4, cp = b0 & 0x07, min = 0x10000;
    } else {
      ++pos_;
      return 0xFFFD;
    }
    if (pos_ + len > s_.size()) {
      ++pos_;
      return 0xFFFD;
    }
    for (size_t i = 1; i < len; ++i) {
      if ((byte(pos_ + i) & 0xC0) != 0x80) {
        ++pos_;
        return 0xFFFD;
      }
      cp = (cp << 6) | (byte(pos_ + i) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      ++pos_;
      return 0xFFFD;
    }
    pos_ += len;
    return cp;
  }

  std::string_view s_;
  size_t pos_ = 0;
  uint16_t pending_low_ = 0;
};

bool IsAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

}  // namespace

int JavaCompare(std::string_view a, std::string_view b) {
  if (IsAscii(a) && IsAscii(b)) {
    int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  Utf16Units ua(a);
  Utf16Units ub(b);
  while (true) {
    uint16_t x = 0;
    uint16_t y = 0;
    bool has_x = ua.Next(&x);
    bool has_y = ub.Next(&y);
    if (!has_x || !has_y) return has_x ? 1 : (has_y ? -1 : 0);
    if (x != y) return x < y ? -1 : 1;
  }
}

int32_t JavaStringHash(std::string_view s) {
  uint32_t h = 0;
  Utf16Units units(s);
  uint16_t unit = 0;
  while (units.Next(&unit)) h = 31 * h + unit;
  return static_cast<int32_t>(h);
}

std::vector<std::string> JavaHashOrder(const std::vector<std::string>& keys) {
  // HashMap starts with 16 buckets and doubles whenever its size exceeds 3/4 of them. A resize
  // splits each bucket keeping the relative order of its entries, so the final iteration order
  // is: by bucket index, and by insertion order within a bucket.
  size_t capacity = 16;
  while (keys.size() > capacity / 4 * 3) capacity *= 2;
  std::vector<std::pair<uint32_t, size_t>> order;  // (bucket, insertion index)
  order.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    uint32_t h = static_cast<uint32_t>(JavaStringHash(keys[i]));
    h ^= h >> 16;
    order.emplace_back(h & static_cast<uint32_t>(capacity - 1), i);
  }
  std::sort(order.begin(), order.end());
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (const auto& [bucket, index] : order) out.push_back(keys[index]);
  return out;
}

}  // namespace assignor_internal
}  // namespace connectd::distributed
