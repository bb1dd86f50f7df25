// A member read without the mutex that guards it: scripts/check-thread-safety must refuse this
// file (ctest ThreadSafety.AnUnheldLockIsRefused), so the check can fail.
#include "absl/synchronization/mutex.h"

class Counter {
 public:
  int Read() const { return value_; }  // no lock: the analysis's error

 private:
  mutable absl::Mutex mu_;
  int value_ ABSL_GUARDED_BY(mu_) = 0;
};

int main() { return Counter().Read(); }
