// File: fifo.h
//
// Fifo<T>: a first-in first-out queue that holds nothing while empty, for the per-partition
// queues of a task that mirrors thousands of partitions, most of them idle. A std::deque holds
// a 512-byte block and its map from construction (1.2 KB a partition for two); a Fifo is one
// pointer until its first item, and gives its deque back when it empties.
//
// Not thread-safe.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <utility>

namespace connectd::mirror {

template <typename T>
class Fifo {
 public:
  bool empty() const { return items_ == nullptr; }
  size_t size() const { return items_ ? items_->size() : 0; }
  // Requires !empty().
  const T& front() const { return items_->front(); }
  const T& back() const { return items_->back(); }

  template <typename... Args>
  void emplace_back(Args&&... args) {
    if (items_ == nullptr) items_ = std::make_unique<std::deque<T>>();
    items_->emplace_back(std::forward<Args>(args)...);
  }

  // Requires !empty().
  void pop_front() {
    items_->pop_front();
    if (items_->empty()) items_.reset();
  }

 private:
  std::unique_ptr<std::deque<T>> items_;  // null while empty
};

}  // namespace connectd::mirror
