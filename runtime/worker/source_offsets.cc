#include "runtime/worker/source_offsets.h"

namespace connectd::worker {

std::string_view SubmittedRecords::Entry::partition() const { return *queue->partition; }

SubmittedRecords::Queue& SubmittedRecords::QueueOf(std::string_view partition) {
  if (last_ != nullptr && *last_->partition == partition) return *last_;
  // Debian's abseil has its own string_view type.
  auto [it, inserted] = queues_.try_emplace(absl::string_view(partition.data(), partition.size()));
  if (inserted) it->second.partition = &it->first;
  last_ = &it->second;
  return it->second;
}

SubmittedRecords::Entry* SubmittedRecords::Submit(std::string_view partition,
                                                  std::string_view offset) {
  Queue& queue = QueueOf(partition);
  Entry& entry = queue.entries.emplace_back();
  entry.queue = &queue;
  entry.offset.assign(offset);
  ++in_flight_;
  return &entry;
}

void SubmittedRecords::Ack(Entry* entry) {
  entry->acked = true;
  Queue& queue = *entry->queue;
  while (!queue.entries.empty() && queue.entries.front().acked) {
    if (!queue.committable) committable_.push_back(&queue);
    queue.committable = std::move(queue.entries.front().offset);
    queue.entries.pop_front();
    --in_flight_;
  }
}

std::map<std::string, std::string> SubmittedRecords::TakeCommittable() {
  std::map<std::string, std::string> out;
  for (Queue* queue : committable_) {
    out.emplace(*queue->partition, std::string(queue->committable->view()));
    queue->committable.reset();
  }
  committable_.clear();
  // Forget idle partitions: nothing in flight, nothing committable.
  for (auto it = queues_.begin(); it != queues_.end();) {
    if (it->second.entries.empty() && !it->second.committable) {
      if (&it->second == last_) last_ = nullptr;
      queues_.erase(it++);
    } else {
      ++it;
    }
  }
  return out;
}

void SubmittedRecords::Restore(std::map<std::string, std::string> offsets) {
  for (auto& [partition, offset] : offsets) {
    Queue& queue = QueueOf(partition);
    if (queue.committable) continue;  // a newer offset was taken since
    queue.committable.emplace(offset);
    committable_.push_back(&queue);
  }
}

}  // namespace connectd::worker
