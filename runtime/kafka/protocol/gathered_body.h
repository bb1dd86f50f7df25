// File: gathered_body.h
//
// A request body that is mostly bytes held elsewhere — the record batches of a Produce request
// (issue 31's pass-through): its small fields are written into a string of its own, its large
// ranges are views, and whatever owns the viewed bytes is kept alive with the body. A plaintext
// connection writes the pieces as they are (one gather write, no copy); Flatten() makes one
// string of them (TLS, tests).
//
//   GatheredBody body;
//   body.fields().Int32(partition).UnsignedVarint(batch.size() + 1);
//   body.AppendView(batch, frame);  // `frame` owns the batch's bytes
//   body.fields().EmptyTaggedFields();
//
// Thread-safety: a value; one thread at a time. The viewed bytes must not change while the body
// is being written to a socket.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/kafka/protocol/wire.h"

namespace connectd::kafka::protocol {

class GatheredBody {
 public:
  GatheredBody() = default;
  // A body of `bytes` alone (no views).
  explicit GatheredBody(std::string bytes);

  // Appends fields after what the body holds so far.
  WireWriter& fields() { return fields_; }
  // Appends a view of `bytes`, which `owner` keeps valid (null: the caller guarantees they
  // outlive the body).
  void AppendView(std::string_view bytes, std::shared_ptr<const void> owner);

  size_t size() const;
  // The body's bytes in order. Views into the body: valid until it is changed or destroyed.
  std::vector<std::string_view> Pieces() const;
  std::string Flatten() const;

 private:
  struct View {
    size_t fields_before;  // how many bytes of fields_ precede it
    std::string_view bytes;
  };
  WireWriter fields_;
  std::vector<View> views_;
  std::vector<std::shared_ptr<const void>> owners_;  // distinct owners, in order of appearance
};

}  // namespace connectd::kafka::protocol
