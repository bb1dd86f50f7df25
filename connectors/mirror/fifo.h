// File: fifo.h
//
// Fifo<T>: a first-in first-out queue on one vector, for the per-partition queues of a task
// that mirrors thousands of partitions. Unlike std::deque, an empty Fifo allocates nothing (a
// deque holds a 512-byte block and its map from construction: 1.2 KB a partition for two).
// Popping advances a head index; the consumed prefix is dropped once it is half the vector,
// and an emptied queue keeps at most a small vector.
//
// Not thread-safe.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace connectd::mirror {

template <typename T>
class Fifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  const T& front() const { return items_[head_]; }
  const T& back() const { return items_.back(); }

  template <typename... Args>
  void emplace_back(Args&&... args) {
    items_.emplace_back(std::forward<Args>(args)...);
  }

  // Requires !empty().
  void pop_front() {
    ++head_;
    if (head_ == items_.size()) {
      // Emptied: keep a small vector for the next items, give a burst's back.
      if (items_.capacity() > kKeptCapacity) {
        std::vector<T>().swap(items_);
      } else {
        items_.clear();
      }
      head_ = 0;
    } else if (head_ >= 16 && head_ * 2 >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

 private:
  static constexpr size_t kKeptCapacity = 256;
  std::vector<T> items_;
  size_t head_ = 0;  // items_[0, head_) are popped
};

}  // namespace connectd::mirror
