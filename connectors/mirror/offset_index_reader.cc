#include "connectors/mirror/offset_index_reader.h"

#include "connectors/mirror_client/records.h"

namespace connectd::mirror {
namespace {
constexpr char kLogger[] = "connectd.mirror.OffsetIndexReader";
}  // namespace

std::unique_ptr<OffsetIndexReader> OffsetIndexReader::Make(const Props& consumer_props,
                                                           std::string topic, std::string* error) {
  // A missing topic is normal (see the header): no warning.
  std::unique_ptr<InternalTopicReader> reader = InternalTopicReader::Make(
      consumer_props, {std::move(topic), "offset index topic", kLogger, CONNECTD_LOG_DEBUG}, error);
  if (!reader) return nullptr;
  return std::unique_ptr<OffsetIndexReader>(new OffsetIndexReader(std::move(reader)));
}

void OffsetIndexReader::Start() {
  reader_->Start(
      [this](std::string_view key, std::string_view value) {
        std::optional<OffsetRunRecord> run = DecodeOffsetRun(key, value);
        if (!run) return false;
        std::lock_guard lock(mu_);
        auto it = indexes_.find({run->topic, run->partition});
        if (it == indexes_.end()) {
          it = indexes_.try_emplace({run->topic, run->partition}, kMaxRunsPerPartition).first;
        }
        OffsetIndex& index = it->second;
        runs_ -= index.runs().size();
        index.Add(OffsetRun{run->upstream_offset, run->downstream_offset, run->count});
        if (runs_ + index.runs().size() > kMaxRuns) index.PopOldest();
        runs_ += index.runs().size();
        return true;
      },
      nullptr);
}

std::optional<OffsetTranslation> OffsetIndexReader::Translate(const std::string& topic,
                                                              int32_t partition,
                                                              int64_t upstream_offset) const {
  std::lock_guard lock(mu_);
  auto it = indexes_.find({topic, partition});
  if (it == indexes_.end()) return std::nullopt;
  return it->second.Translate(upstream_offset);
}

}  // namespace connectd::mirror
