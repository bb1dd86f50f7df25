// File: offset_index_reader.h
//
// OffsetIndexReader: the checkpoint task's copy of the exact offset index (offset_index.h),
// one OffsetIndex per source partition, fed by an InternalTopicReader of the offset index topic
// (OffsetRunRecord records, written by MirrorSourceTask's OffsetSyncWriter). The topic may not
// exist (a Java MirrorSourceConnector, or emit.offset-index.enabled=false): translation then
// has no answer here and the checkpoint task uses the offset syncs alone.
//
// Lifecycle: Make, Start, any number of Translate calls, then Stop or destruction.
//
// Threads: every public method is thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "connectors/mirror/internal_topic_reader.h"
#include "connectors/mirror/offset_index.h"

namespace connectd::mirror {

class OffsetIndexReader {
 public:
  // Runs kept per source partition, and in all (24 bytes each): beyond, a partition forgets its
  // oldest runs, and beyond the total the partition that just grew does (a transactional source
  // makes a run per transaction; its partitions then keep the shortest history, and offsets
  // older than it translate from the offset syncs).
  static constexpr size_t kMaxRunsPerPartition = 10000;
  static constexpr size_t kMaxRuns = 2000000;

  // nullptr with `error` set when the consumer cannot be created.
  static std::unique_ptr<OffsetIndexReader> Make(const Props& consumer_props, std::string topic,
                                                 std::string* error);
  ~OffsetIndexReader() { Stop(); }
  OffsetIndexReader(const OffsetIndexReader&) = delete;
  OffsetIndexReader& operator=(const OffsetIndexReader&) = delete;

  void Start();
  void Stop() { reader_->Stop(); }
  bool readToEnd() const { return reader_->readToEnd(); }

  // OffsetIndex::Translate for the source partition; nullopt when it has no run.
  std::optional<OffsetTranslation> Translate(const std::string& topic, int32_t partition,
                                             int64_t upstream_offset) const;

 private:
  explicit OffsetIndexReader(std::unique_ptr<InternalTopicReader> reader)
      : reader_(std::move(reader)) {}

  std::unique_ptr<InternalTopicReader> reader_;  // constant after construction
  mutable std::mutex mu_;
  std::map<std::pair<std::string, int32_t>, OffsetIndex> indexes_;  // guarded by mu_
  size_t runs_ = 0;                                                 // guarded by mu_: in all
};

}  // namespace connectd::mirror
