// File: broker_link.h
//
// BrokerLink: what a client of the data path (the batch copier) asks of one broker, as typed
// requests and responses: connect, Metadata, InitProducerId, Fetch, Produce (data_messages.h's
// versions). The copier's only way to a broker, so that a test puts a fake cluster behind it
// (tests/common/fake_kafka_cluster.h) and a run puts BrokerConnection behind it
// (MakeBrokerConnectionLinks below).
//
// Contract of every implementation:
//   - callbacks never run inside the call that registers them, and run on one thread per link
//     (the link's), in the order the requests were sent: one link answers in order;
//   - Connect's `done` gets OK, kUnavailable (unreachable), kDeadlineExceeded, or
//     kUnauthenticated/kPermissionDenied (the cluster refused the client's credentials);
//   - a request on a link that is not connected, or that failed, gets an error status;
//   - Close() is idempotent; what is pending is answered with kCancelled or not at all (a fake
//     drops it; a BrokerConnection's answers run on its io_context, which the owner stops after
//     closing its links), so an owner never counts on those answers;
//   - a Fetch's records are views into `FetchedData::frame`, which the link gives away: the
//     caller may rewrite bytes in it (stamp batches) and keeps it as long as it needs them;
//   - a Produce request's records must stay valid until its `done` ran (records_owner).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "absl/status/statusor.h"
#include "runtime/kafka/client/bootstrap.h"
#include "runtime/kafka/protocol/broker_connection.h"
#include "runtime/kafka/protocol/data_messages.h"

namespace connectd::kafka::client {

// A Fetch response and the bytes its records point into.
struct FetchedData {
  protocol::FetchResponse response;
  std::shared_ptr<char[]> frame;
};

class BrokerLink {
 public:
  template <typename T>
  using Done = std::function<void(absl::StatusOr<T>)>;

  virtual ~BrokerLink() = default;
  virtual void Connect(std::function<void(absl::Status)> done) = 0;
  virtual void Metadata(const protocol::MetadataRequest& request,
                        Done<protocol::MetadataResponse> done) = 0;
  virtual void InitProducerId(const protocol::InitProducerIdRequest& request,
                              Done<protocol::InitProducerIdResponse> done) = 0;
  virtual void Fetch(const protocol::FetchRequest& request, Done<FetchedData> done) = 0;
  virtual void Produce(const protocol::ProduceRequest& request,
                       Done<protocol::ProduceResponse> done) = 0;
  virtual void Close() = 0;
};

// Which broker a link is for: the cluster as its user names it ("source", "target"), the
// broker's node id (negative: the n-th bootstrap server, -1 first) and where it listens.
struct LinkSpec {
  std::string cluster;
  int32_t node_id = -1;
  BrokerAddress address;
};
using BrokerLinkFactory = std::function<std::shared_ptr<BrokerLink>(const LinkSpec&)>;

// How the real links of one cluster connect.
struct BrokerConnectionLinkOptions {
  protocol::SecurityConfig security;
  std::string client_id;
  std::chrono::milliseconds request_timeout{30000};
  // Where Fetch responses' bytes come from (null: allocated for each).
  std::shared_ptr<protocol::FrameBufferPool> frame_buffers;
};

// Links over BrokerConnection on `io` (which must outlive them): each request encoded in
// data_messages.h's version, Produce written around its batches (SendGathered), responses
// decoded on `io`'s thread.
BrokerLinkFactory MakeBrokerConnectionLinks(boost::asio::io_context& io,
                                            BrokerConnectionLinkOptions options);

}  // namespace connectd::kafka::client
