#include "tests/unit/rest/capture_server.h"

#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "absl/strings/match.h"

namespace connectd::rest::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

std::string CapturedRequest::Header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (absl::EqualsIgnoreCase(k, name)) return v;
  }
  return "";
}

bool CapturedRequest::HasHeader(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (absl::EqualsIgnoreCase(k, name)) return true;
  }
  return false;
}

struct CaptureServer::Impl {
  asio::io_context ioc;
  asio::executor_work_guard<asio::io_context::executor_type> work{ioc.get_executor()};
  tcp::acceptor acceptor{ioc};
  std::thread thread;
  int port = 0;

  mutable std::mutex mu;
  std::vector<CapturedRequest> requests;                     // guarded by mu
  int status = 200;                                          // guarded by mu
  std::string body;                                          // guarded by mu
  std::vector<std::pair<std::string, std::string>> headers;  // guarded by mu
  bool silent = false;                                       // guarded by mu
  std::vector<std::shared_ptr<tcp::socket>> held;            // io thread only

  void Accept() {
    acceptor.async_accept([self = this](beast::error_code ec, tcp::socket socket) {
      if (ec) return;
      self->Serve(std::make_shared<tcp::socket>(std::move(socket)));
      self->Accept();
    });
  }

  void Serve(std::shared_ptr<tcp::socket> socket) {
    auto buffer = std::make_shared<beast::flat_buffer>();
    auto request = std::make_shared<http::request<http::string_body>>();
    http::async_read(*socket, *buffer, *request,
                     [self = this, socket, buffer, request](beast::error_code ec, std::size_t) {
                       if (ec) return;
                       self->Answer(socket, *request);
                     });
  }

  void Answer(const std::shared_ptr<tcp::socket>& socket,
              const http::request<http::string_body>& request) {
    CapturedRequest captured;
    captured.method = std::string(request.method_string());
    captured.target = std::string(request.target());
    for (const auto& field : request) {
      captured.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    captured.body = request.body();
    auto response = std::make_shared<http::response<http::string_body>>();
    {
      std::lock_guard lock(mu);
      requests.push_back(std::move(captured));
      if (silent) {
        held.push_back(socket);
        return;
      }
      response->result(static_cast<unsigned>(status));
      for (const auto& [name, value] : headers) response->insert(name, value);
      if (!body.empty()) response->set(http::field::content_type, "application/json");
      response->body() = body;
    }
    response->version(11);
    response->keep_alive(false);
    response->prepare_payload();
    http::async_write(*socket, *response, [socket, response](beast::error_code, std::size_t) {
      beast::error_code ignored;
      socket->shutdown(tcp::socket::shutdown_both, ignored);
      socket->close(ignored);
    });
  }
};

CaptureServer::CaptureServer() : impl_(std::make_unique<Impl>()) {
  tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  impl_->port = impl_->acceptor.local_endpoint().port();
  impl_->Accept();
  impl_->thread = std::thread([impl = impl_.get()] { impl->ioc.run(); });
}

// Pending handlers (and the sockets they hold) are destroyed with the io_context.
CaptureServer::~CaptureServer() {
  impl_->work.reset();
  impl_->ioc.stop();
  impl_->thread.join();
}

int CaptureServer::port() const { return impl_->port; }

std::string CaptureServer::url() const {
  return "http://127.0.0.1:" + std::to_string(port()) + "/";
}

void CaptureServer::Respond(int status, std::string body,
                            std::vector<std::pair<std::string, std::string>> headers) {
  std::lock_guard lock(impl_->mu);
  impl_->status = status;
  impl_->body = std::move(body);
  impl_->headers = std::move(headers);
}

void CaptureServer::set_silent(bool silent) {
  std::lock_guard lock(impl_->mu);
  impl_->silent = silent;
}

std::vector<CapturedRequest> CaptureServer::requests() const {
  std::lock_guard lock(impl_->mu);
  return impl_->requests;
}

}  // namespace connectd::rest::testing
