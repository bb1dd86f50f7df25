#include "tests/unit/rest/test_http_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "absl/strings/match.h"

namespace connectd::rest::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

std::string HttpResult::Header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (absl::EqualsIgnoreCase(k, name)) return v;
  }
  return "";
}

bool HttpResult::HasHeader(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (absl::EqualsIgnoreCase(k, name)) return true;
  }
  return false;
}

std::vector<std::string> HttpResult::Headers(const std::string& name) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : headers) {
    if (absl::EqualsIgnoreCase(k, name)) out.push_back(v);
  }
  return out;
}

struct TestHttpClient::Impl {
  int port;
  std::shared_ptr<asio::ssl::context> tls;
  asio::io_context ioc;
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;

  beast::tcp_stream& Lowest() { return secure ? beast::get_lowest_layer(*secure) : *plain; }

  // Runs the io_context until `done` or the deadline.
  bool RunUntil(const bool& done, std::chrono::milliseconds timeout) {
    ioc.restart();
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done && std::chrono::steady_clock::now() < deadline) {
      ioc.run_for(std::chrono::milliseconds(20));
      if (ioc.stopped()) ioc.restart();
    }
    return done;
  }

  std::string Connect(std::chrono::milliseconds timeout) {
    plain.reset();
    secure.reset();
    buffer.clear();
    tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port));
    beast::error_code result;
    bool done = false;
    if (tls) {
      secure.emplace(ioc, *tls);
      SSL_set_tlsext_host_name(secure->native_handle(), "localhost");
      Lowest().expires_after(timeout);
      Lowest().async_connect(endpoint, [&](beast::error_code ec) {
        if (ec) {
          result = ec;
          done = true;
          return;
        }
        secure->async_handshake(asio::ssl::stream_base::client, [&](beast::error_code ec2) {
          result = ec2;
          done = true;
        });
      });
    } else {
      plain.emplace(ioc);
      plain->expires_after(timeout);
      plain->async_connect(endpoint, [&](beast::error_code ec) {
        result = ec;
        done = true;
      });
    }
    if (!RunUntil(done, timeout)) return "connect timed out";
    if (result) {
      plain.reset();
      secure.reset();
      return "connect failed: " + result.message();
    }
    return "";
  }

  template <typename Stream>
  HttpResult Exchange(Stream& stream, http::request<http::string_body>& request,
                      std::chrono::milliseconds timeout) {
    HttpResult out;
    beast::error_code result;
    bool done = false;
    http::response_parser<http::string_body> parser;
    parser.body_limit(boost::none);
    if (request.method() == http::verb::head) parser.skip(true);
    Lowest().expires_after(timeout);
    http::async_write(stream, request, [&](beast::error_code ec, std::size_t) {
      if (ec) {
        result = ec;
        done = true;
        return;
      }
      http::async_read(stream, buffer, parser, [&](beast::error_code ec2, std::size_t) {
        result = ec2;
        done = true;
      });
    });
    if (!RunUntil(done, timeout)) {
      out.error = "request timed out";
      return out;
    }
    if (result) {
      out.error = result.message();
      return out;
    }
    auto& response = parser.get();
    out.status = static_cast<int>(response.result_int());
    out.body = response.body();
    out.keep_alive = response.keep_alive();
    for (const auto& field : response) {
      out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    return out;
  }
};

TestHttpClient::TestHttpClient(int port, std::shared_ptr<asio::ssl::context> tls)
    : impl_(std::make_unique<Impl>()) {
  impl_->port = port;
  impl_->tls = std::move(tls);
}

TestHttpClient::~TestHttpClient() = default;

bool TestHttpClient::connected() const {
  return impl_->plain.has_value() || impl_->secure.has_value();
}

void TestHttpClient::Close() {
  impl_->plain.reset();
  impl_->secure.reset();
}

HttpResult TestHttpClient::Send(const std::string& method, const std::string& target,
                                const std::string& body,
                                const std::vector<std::pair<std::string, std::string>>& headers) {
  if (!connected()) {
    std::string error = impl_->Connect(timeout);
    if (!error.empty()) {
      HttpResult out;
      out.error = error;
      return out;
    }
  }
  http::request<http::string_body> request;
  request.method_string(method);
  request.target(target);
  request.version(11);
  request.set(http::field::host, "127.0.0.1:" + std::to_string(impl_->port));
  bool has_content_type = false;
  for (const auto& [name, value] : headers) {
    request.insert(name, value);
    has_content_type |= absl::EqualsIgnoreCase(name, "Content-Type");
  }
  if (!body.empty() && !has_content_type)
    request.set(http::field::content_type, "application/json");
  request.body() = body;
  request.prepare_payload();
  HttpResult out = impl_->secure ? impl_->Exchange(*impl_->secure, request, timeout)
                                 : impl_->Exchange(*impl_->plain, request, timeout);
  if (!out.error.empty() || !out.keep_alive) Close();
  return out;
}

HttpResult HttpRequest(int port, const std::string& method, const std::string& target,
                       const std::string& body,
                       const std::vector<std::pair<std::string, std::string>>& headers) {
  TestHttpClient client(port);
  return client.Send(method, target, body, headers);
}

RawResult RawExchange(int port, const std::string& bytes, std::chrono::milliseconds timeout) {
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  RawResult out;
  tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port));
  bool done = false;
  std::array<char, 4096> chunk;
  std::function<void()> read_more = [&] {
    stream.async_read_some(asio::buffer(chunk), [&](beast::error_code ec, std::size_t n) {
      out.data.append(chunk.data(), n);
      if (ec) {
        out.closed = ec != beast::error::timeout;
        done = true;
        return;
      }
      read_more();
    });
  };
  stream.expires_after(timeout);
  stream.async_connect(endpoint, [&](beast::error_code ec) {
    if (ec) {
      done = true;
      return;
    }
    asio::async_write(stream, asio::buffer(bytes), [&](beast::error_code ec2, std::size_t) {
      if (ec2) {
        out.closed = ec2 != beast::error::timeout;
        done = true;
        return;
      }
      read_more();
    });
  });
  ioc.run_for(timeout + std::chrono::milliseconds(200));
  return out;
}

}  // namespace connectd::rest::testing
