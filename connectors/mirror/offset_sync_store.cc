#include "connectors/mirror/offset_sync_store.h"

#include <algorithm>
#include <vector>

#include "connectd/sdk/host.h"

namespace connectd::mirror {
namespace {

constexpr char kLogger[] = "org.apache.kafka.connect.mirror.OffsetSyncStore";
constexpr int kLast = OffsetSyncStore::kSyncsPerPartition - 1;

using Sync = OffsetSyncStore::Sync;

// Java long arithmetic (two's complement, wrapping): the bounds below must overflow exactly as
// Kafka's do, or the stored slots would differ from Java's for huge offsets.
int64_t Plus(int64_t a, uint64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + b); }
uint64_t Pow2(int exponent) { return uint64_t{1} << exponent; }

// Invariant B for slots i < j: s[i].up <= s[j].up + 2^j - 2^i (a negative bound has
// overflowed and counts as satisfied).
bool InvariantB(const Sync& i_sync, const Sync& j_sync, int i, int j) {
  int64_t bound = Plus(j_sync.upstream, Pow2(j) - Pow2(i));
  return i_sync.id == j_sync.id || bound < 0 || i_sync.upstream <= bound;
}

// Invariant C for slots i < j: s[i].up >= s[j].up + 2^max(i-2,0) (a negative bound has
// overflowed and counts as violated).
bool InvariantC(const Sync& i_sync, const Sync& j_sync, int i) {
  int64_t bound = Plus(j_sync.upstream, Pow2(std::max(i - 2, 0)));
  return i_sync.id == j_sync.id || (bound >= 0 && i_sync.upstream >= bound);
}

}  // namespace

// ---- OffsetSyncStore ---------------------------------------------------------------------------

void OffsetSyncStore::Update(const OffsetSync& sync) {
  Update(sync.topic, sync.partition, sync.upstream_offset, sync.downstream_offset);
}

void OffsetSyncStore::Update(const std::string& topic, int32_t partition, int64_t upstream,
                             int64_t downstream) {
  const Sync sync{upstream, downstream, next_id_++};
  auto it = syncs_.find({topic, partition});
  if (it == syncs_.end()) {
    Syncs initial;
    initial.fill(sync);
    syncs_.emplace(std::make_pair(topic, partition), initial);
    return;
  }
  const Syncs original = it->second;
  UpdateSyncArray(it->second, original, sync);
}

void OffsetSyncStore::UpdateSyncArray(Syncs& syncs, const Syncs& original, const Sync& sync) const {
  // During the initial load of a store that must not trust older syncs, and after an upstream
  // rewind (older syncs are all invalid), the new sync replaces everything. An array holding one
  // sync satisfies B and C trivially.
  const bool only_load_last_offset = !read_to_end_ && initialization_must_read_to_end_;
  const bool upstream_rewind = sync.upstream < syncs[0].upstream;
  if (only_load_last_offset || upstream_rewind) {
    syncs.fill(sync);
    return;
  }
  // A: the new sync always becomes slot 0.
  syncs[0] = sync;
  // `replacement` always satisfies B and C for the slot being repaired; it starts as the new
  // sync and is moved to older syncs of `original` when they fit, so fewer syncs expire.
  Sync replacement = sync;
  int candidate = 0;  // index into `original` of the next old sync to consider
  for (int current = 1; current <= kLast; ++current) {
    const int previous = current - 1;
    bool skip;
    do {
      const Sync& old_sync = original[candidate];
      const bool recent = InvariantB(syncs[previous], old_sync, previous, current);
      const bool separated_from_previous = InvariantC(syncs[previous], old_sync, previous);
      const bool separated_from_next =
          current == kLast || InvariantC(old_sync, syncs[current + 1], current);
      const bool duplicate = candidate < kLast && old_sync.id == original[candidate + 1].id;
      const bool promote = recent && separated_from_previous && separated_from_next;
      if (promote) replacement = old_sync;
      // Skip a candidate that can never be used at a later index either.
      skip = duplicate || !separated_from_previous;
      if (promote || skip) ++candidate;
    } while (candidate < current && skip);

    // Once B holds here it holds for every later slot: the rest of the array stays.
    if (InvariantB(syncs[previous], syncs[current], previous, current)) break;
    syncs[current] = replacement;
  }
}

std::optional<int64_t> OffsetSyncStore::TranslateDownstream(const std::string& topic,
                                                            int32_t partition,
                                                            int64_t upstream_offset) const {
  if (!read_to_end_) return std::nullopt;  // no translation during the initial load
  const Syncs* syncs = syncsFor(topic, partition);
  if (syncs == nullptr) return std::nullopt;  // no sync for this partition (KAFKA-12635)
  // The newest sync at or before the group's offset (slots run newest to oldest), else the
  // oldest one.
  const Sync* chosen = &(*syncs)[kLast];
  for (const Sync& s : *syncs) {
    if (s.upstream <= upstream_offset) {
      chosen = &s;
      break;
    }
  }
  if (chosen->upstream > upstream_offset) return -1;  // older than anything retained
  return chosen->downstream + (upstream_offset == chosen->upstream ? 0 : 1);
}

const OffsetSyncStore::Syncs* OffsetSyncStore::syncsFor(const std::string& topic,
                                                        int32_t partition) const {
  auto it = syncs_.find({topic, partition});
  return it == syncs_.end() ? nullptr : &it->second;
}

// ---- OffsetSyncReader --------------------------------------------------------------------------

std::unique_ptr<OffsetSyncReader> OffsetSyncReader::Make(const Props& consumer_props,
                                                         std::string topic, std::string* error) {
  std::unique_ptr<InternalTopicReader> reader = InternalTopicReader::Make(
      consumer_props, {std::move(topic), "offset syncs topic", kLogger, CONNECTD_LOG_WARN}, error);
  if (!reader) return nullptr;
  return std::unique_ptr<OffsetSyncReader>(new OffsetSyncReader(std::move(reader)));
}

void OffsetSyncReader::Start(bool initialization_must_read_to_end) {
  {
    std::lock_guard lock(mu_);
    store_ = OffsetSyncStore(initialization_must_read_to_end);
  }
  reader_->Start(
      [this](std::string_view key, std::string_view value) {
        std::optional<OffsetSync> sync = DecodeOffsetSync(key, value);
        if (!sync) return false;
        std::lock_guard lock(mu_);
        store_.Update(*sync);
        return true;
      },
      [this] {
        std::lock_guard lock(mu_);
        store_.MarkReadToEnd();
      });
}

std::optional<int64_t> OffsetSyncReader::TranslateDownstream(const std::string& topic,
                                                             int32_t partition,
                                                             int64_t upstream_offset) const {
  std::lock_guard lock(mu_);
  return store_.TranslateDownstream(topic, partition, upstream_offset);
}

}  // namespace connectd::mirror
