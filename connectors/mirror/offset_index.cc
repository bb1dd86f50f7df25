#include "connectors/mirror/offset_index.h"

#include <algorithm>

namespace connectd::mirror {

void OffsetIndex::Add(const OffsetRun& run) {
  if (run.count < 1 || run.upstream < 0 || run.downstream < 0) return;
  if (!runs_.empty()) {
    OffsetRun& last = runs_.back();
    if (run.upstream == last.upstream_end() && run.downstream == last.downstream_end()) {
      last.count += run.count;
      return;
    }
    if (run.upstream < last.upstream_end()) {
      // A rewind: from run.upstream on, the new copies are the ones to resume at.
      while (!runs_.empty() && runs_.back().upstream >= run.upstream) runs_.pop_back();
      if (!runs_.empty() && runs_.back().upstream_end() > run.upstream) {
        runs_.back().count = run.upstream - runs_.back().upstream;
      }
    }
  }
  runs_.push_back(run);
  while (runs_.size() > max_runs_) runs_.pop_front();
}

std::optional<int64_t> OffsetIndex::Translate(int64_t upstream) const {
  if (runs_.empty() || upstream < runs_.front().upstream) return std::nullopt;
  auto next =
      std::upper_bound(runs_.begin(), runs_.end(), upstream,
                       [](int64_t offset, const OffsetRun& run) { return offset < run.upstream; });
  const OffsetRun& run = *std::prev(next);
  if (upstream < run.upstream_end()) return run.downstream + (upstream - run.upstream);
  if (next != runs_.end()) return next->downstream;  // in a gap: the next record copied
  if (upstream == run.upstream_end()) return run.downstream_end();  // caught up
  return std::nullopt;                                              // not copied yet
}

void OffsetIndex::TrimBefore(int64_t upstream) {
  while (!runs_.empty() && runs_.front().upstream_end() <= upstream) runs_.pop_front();
}

namespace {

void PutInt(std::string* out, uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// Reads `bytes` big-endian bytes at *pos; false when too few are left.
bool GetInt(std::string_view in, size_t* pos, int bytes, uint64_t* value) {
  if (in.size() - *pos < static_cast<size_t>(bytes)) return false;
  *value = 0;
  for (int i = 0; i < bytes; ++i) {
    *value = (*value << 8) | static_cast<unsigned char>(in[*pos + i]);
  }
  *pos += bytes;
  return true;
}

constexpr int16_t kRunVersion = 0;

}  // namespace

std::string EncodeRunKey(std::string_view topic, int32_t partition, int64_t upstream) {
  std::string out;
  PutInt(&out, topic.size(), 2);
  out.append(topic);
  PutInt(&out, static_cast<uint32_t>(partition), 4);
  PutInt(&out, static_cast<uint64_t>(upstream), 8);
  return out;
}

std::string EncodeRunValue(const OffsetRun& run) {
  std::string out;
  PutInt(&out, static_cast<uint16_t>(kRunVersion), 2);
  PutInt(&out, static_cast<uint64_t>(run.downstream), 8);
  PutInt(&out, static_cast<uint64_t>(run.count), 8);
  return out;
}

std::optional<StoredRun> DecodeRun(std::string_view key, std::string_view value) {
  size_t pos = 0;
  uint64_t length = 0, partition = 0, upstream = 0, version = 0, downstream = 0, count = 0;
  if (!GetInt(key, &pos, 2, &length) || key.size() - pos < length) return std::nullopt;
  StoredRun out;
  out.topic = std::string(key.substr(pos, length));
  pos += length;
  if (!GetInt(key, &pos, 4, &partition) || !GetInt(key, &pos, 8, &upstream) || pos != key.size()) {
    return std::nullopt;
  }
  size_t vpos = 0;
  if (!GetInt(value, &vpos, 2, &version) || version != kRunVersion ||
      !GetInt(value, &vpos, 8, &downstream) || !GetInt(value, &vpos, 8, &count) ||
      vpos != value.size()) {
    return std::nullopt;
  }
  out.partition = static_cast<int32_t>(static_cast<uint32_t>(partition));
  out.run = OffsetRun{static_cast<int64_t>(upstream), static_cast<int64_t>(downstream),
                      static_cast<int64_t>(count)};
  if (out.topic.empty() || out.partition < 0 || out.run.upstream < 0 || out.run.downstream < 0 ||
      out.run.count < 1) {
    return std::nullopt;
  }
  return out;
}

}  // namespace connectd::mirror
