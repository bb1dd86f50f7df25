#include "runtime/kafka/client/broker_link.h"

#include <utility>

namespace connectd::kafka::client {

namespace kp = protocol;

namespace {

// A BrokerLink over one BrokerConnection: requests in data_messages.h's versions (the only ones
// the copier speaks), decoded where the answer arrives (the connection's thread).
class BrokerConnectionLink final : public BrokerLink {
 public:
  explicit BrokerConnectionLink(std::shared_ptr<kp::BrokerConnection> connection)
      : connection_(std::move(connection)) {}
  ~BrokerConnectionLink() override { connection_->Close(); }

  void Connect(std::function<void(absl::Status)> done) override {
    connection_->Connect(std::move(done));
  }
  void Metadata(const kp::MetadataRequest& request, Done<kp::MetadataResponse> done) override {
    Send(kp::ApiKey::kMetadata, kp::GatheredBody(request.Encode()), std::move(done),
         [](const kp::BrokerConnection::ResponseFrame& frame) {
           return kp::MetadataResponse::Decode(frame.body());
         });
  }
  void InitProducerId(const kp::InitProducerIdRequest& request,
                      Done<kp::InitProducerIdResponse> done) override {
    Send(kp::ApiKey::kInitProducerId, kp::GatheredBody(request.Encode()), std::move(done),
         [](const kp::BrokerConnection::ResponseFrame& frame) {
           return kp::InitProducerIdResponse::Decode(frame.body());
         });
  }
  void Fetch(const kp::FetchRequest& request, Done<FetchedData> done) override {
    Send(kp::ApiKey::kFetch, kp::GatheredBody(request.Encode()), std::move(done),
         [](const kp::BrokerConnection::ResponseFrame& frame) -> absl::StatusOr<FetchedData> {
           absl::StatusOr<kp::FetchResponse> response = kp::FetchResponse::Decode(frame.body());
           if (!response.ok()) return response.status();
           return FetchedData{*std::move(response), frame.bytes};
         });
  }
  void Produce(const kp::ProduceRequest& request, Done<kp::ProduceResponse> done) override {
    Send(kp::ApiKey::kProduce, request.EncodeGathered(), std::move(done),
         [](const kp::BrokerConnection::ResponseFrame& frame) {
           return kp::ProduceResponse::Decode(frame.body());
         });
  }
  void Close() override { connection_->Close(); }

 private:
  template <typename T, typename Decode>
  void Send(kp::ApiKey key, kp::GatheredBody body, Done<T> done, Decode decode) {
    connection_->SendGathered(
        key, [body = std::move(body)](int16_t) mutable { return std::move(body); },
        [done = std::move(done), decode = std::move(decode)](
            absl::StatusOr<kp::BrokerConnection::ResponseFrame> frame, int16_t) {
          if (!frame.ok()) return done(frame.status());
          done(decode(*frame));
        });
  }

  const std::shared_ptr<kp::BrokerConnection> connection_;
};

}  // namespace

BrokerLinkFactory MakeBrokerConnectionLinks(boost::asio::io_context& io,
                                            BrokerConnectionLinkOptions options) {
  return [&io, options = std::move(options)](const LinkSpec& spec) -> std::shared_ptr<BrokerLink> {
    kp::BrokerConnection::Options connection;
    connection.host = spec.address.host;
    connection.port = spec.address.port;
    connection.security = options.security;
    connection.client_id = options.client_id;
    connection.request_timeout = options.request_timeout;
    connection.frame_buffers = options.frame_buffers;
    return std::make_shared<BrokerConnectionLink>(kp::BrokerConnection::Create(io, connection));
  };
}

}  // namespace connectd::kafka::client
