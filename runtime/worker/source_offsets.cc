#include "runtime/worker/source_offsets.h"

namespace connectd::worker {

SubmittedRecords::Entry* SubmittedRecords::Submit(std::string partition, std::string offset) {
  auto entry = std::make_unique<Entry>();
  entry->partition = std::move(partition);
  entry->offset = std::move(offset);
  Entry* raw = entry.get();
  queues_[raw->partition].push_back(std::move(entry));
  ++in_flight_;
  return raw;
}

void SubmittedRecords::Ack(Entry* entry) {
  entry->acked = true;
  auto it = queues_.find(entry->partition);
  if (it == queues_.end()) return;
  auto& queue = it->second;
  while (!queue.empty() && queue.front()->acked) {
    committable_[queue.front()->partition] = std::move(queue.front()->offset);
    queue.pop_front();
    --in_flight_;
  }
  if (queue.empty()) queues_.erase(it);
}

std::map<std::string, std::string> SubmittedRecords::TakeCommittable() {
  return std::exchange(committable_, {});
}

void SubmittedRecords::Restore(std::map<std::string, std::string> offsets) {
  for (auto& [partition, offset] : offsets) committable_.emplace(partition, std::move(offset));
}

}  // namespace connectd::worker
