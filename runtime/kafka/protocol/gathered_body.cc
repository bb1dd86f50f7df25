#include "runtime/kafka/protocol/gathered_body.h"

#include <utility>

namespace connectd::kafka::protocol {

GatheredBody::GatheredBody(std::string bytes) { fields_.Raw(bytes); }

void GatheredBody::AppendView(std::string_view bytes, std::shared_ptr<const void> owner) {
  views_.push_back({fields_.data().size(), bytes});
  if (owner != nullptr && (owners_.empty() || owners_.back() != owner)) {
    owners_.push_back(std::move(owner));
  }
}

size_t GatheredBody::size() const {
  size_t total = fields_.data().size();
  for (const View& v : views_) total += v.bytes.size();
  return total;
}

std::vector<std::string_view> GatheredBody::Pieces() const {
  const std::string_view fields = fields_.data();
  std::vector<std::string_view> pieces;
  pieces.reserve(2 * views_.size() + 1);
  size_t taken = 0;
  for (const View& v : views_) {
    if (v.fields_before > taken) pieces.push_back(fields.substr(taken, v.fields_before - taken));
    taken = v.fields_before;
    if (!v.bytes.empty()) pieces.push_back(v.bytes);
  }
  if (fields.size() > taken) pieces.push_back(fields.substr(taken));
  return pieces;
}

std::string GatheredBody::Flatten() const {
  std::string out;
  out.reserve(size());
  for (std::string_view piece : Pieces()) out.append(piece);
  return out;
}

}  // namespace connectd::kafka::protocol
