#include "runtime/kafka/protocol/gssapi.h"

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace connectd::kafka::protocol {
namespace {

std::string Property(const std::map<std::string, std::string>& p, const std::string& key) {
  auto it = p.find(key);
  return it == p.end() ? "" : it->second;
}

// GSS-API's own words for a major/minor status pair.
std::string Describe(OM_uint32 major, OM_uint32 minor) {
  std::string out;
  for (auto [code, type] : {std::pair{major, GSS_C_GSS_CODE}, std::pair{minor, GSS_C_MECH_CODE}}) {
    if (type == GSS_C_MECH_CODE && code == 0) continue;
    OM_uint32 context = 0, ignored = 0;
    do {
      gss_buffer_desc text = GSS_C_EMPTY_BUFFER;
      gss_display_status(&ignored, code, type, GSS_C_NO_OID, &context, &text);
      if (!out.empty()) out += ": ";
      out.append(static_cast<const char*>(text.value), text.length);
      gss_release_buffer(&ignored, &text);
    } while (context != 0);
  }
  return out;
}

absl::Status GssError(const std::string& what, OM_uint32 major, OM_uint32 minor) {
  return absl::UnauthenticatedError("GSSAPI: " + what + ": " + Describe(major, minor));
}

struct Name {
  gss_name_t name = GSS_C_NO_NAME;
  ~Name() {
    OM_uint32 minor;
    if (name != GSS_C_NO_NAME) gss_release_name(&minor, &name);
  }
};

absl::Status Import(const std::string& text, gss_OID type, Name& out) {
  OM_uint32 minor = 0;
  gss_buffer_desc buffer{text.size(), const_cast<char*>(text.data())};
  OM_uint32 major = gss_import_name(&minor, &buffer, type, &out.name);
  if (GSS_ERROR(major)) return GssError("cannot read the name " + text, major, minor);
  return absl::OkStatus();
}

std::string Take(gss_buffer_desc& buffer) {
  std::string out(static_cast<const char*>(buffer.value), buffer.length);
  OM_uint32 minor;
  gss_release_buffer(&minor, &buffer);
  return out;
}

class Context : public GssapiContext {
 public:
  Context(gss_cred_id_t credential, std::string target_text)
      : credential_(credential), target_text_(std::move(target_text)) {}

  ~Context() override {
    OM_uint32 minor;
    if (context_ != GSS_C_NO_CONTEXT) gss_delete_sec_context(&minor, &context_, GSS_C_NO_BUFFER);
    if (credential_ != GSS_C_NO_CREDENTIAL) gss_release_cred(&minor, &credential_);
  }

  // The first step; talks to the KDC for the service ticket.
  absl::Status Start() {
    if (absl::Status imported = Import(target_text_, GSS_C_NT_HOSTBASED_SERVICE, target_);
        !imported.ok()) {
      return imported;
    }
    absl::StatusOr<std::string> token = Step(GSS_C_NO_BUFFER);
    if (!token.ok()) return token.status();
    first_token_ = *std::move(token);
    return absl::OkStatus();
  }

  const std::string& first_token() const override { return first_token_; }

  absl::StatusOr<std::optional<std::string>> Next(const std::string& server) override {
    switch (state_) {
      case State::kContext: {
        gss_buffer_desc input{server.size(), const_cast<char*>(server.data())};
        absl::StatusOr<std::string> token = Step(&input);
        if (!token.ok()) return token.status();
        return std::optional<std::string>(*std::move(token));  // may be empty: RFC 4752 3.1
      }
      case State::kSecurityLayer:
        return SecurityLayer(server);
      case State::kDone:
        return std::optional<std::string>();
    }
    return std::optional<std::string>();
  }

 private:
  enum class State { kContext, kSecurityLayer, kDone };

  absl::StatusOr<std::string> Step(gss_buffer_t input) {
    OM_uint32 minor = 0;
    gss_buffer_desc output = GSS_C_EMPTY_BUFFER;
    OM_uint32 major = gss_init_sec_context(
        &minor, credential_, &context_, target_.name, gss_mech_krb5,
        GSS_C_MUTUAL_FLAG | GSS_C_SEQUENCE_FLAG | GSS_C_INTEG_FLAG | GSS_C_CONF_FLAG, 0,
        GSS_C_NO_CHANNEL_BINDINGS, input, nullptr, &output, nullptr, nullptr);
    std::string token = Take(output);
    if (GSS_ERROR(major)) {
      return GssError("cannot establish a security context with " + target_text_, major, minor);
    }
    if (major == GSS_S_COMPLETE) state_ = State::kSecurityLayer;
    return token;
  }

  // RFC 4752 3.1: the server offers its layers and buffer size (wrapped); the client takes "no
  // security layer" (bit 1) and answers with that choice, a zero size and no authorization id.
  absl::StatusOr<std::optional<std::string>> SecurityLayer(const std::string& server) {
    OM_uint32 minor = 0;
    gss_buffer_desc wrapped{server.size(), const_cast<char*>(server.data())};
    gss_buffer_desc plain = GSS_C_EMPTY_BUFFER;
    OM_uint32 major = gss_unwrap(&minor, context_, &wrapped, &plain, nullptr, nullptr);
    if (GSS_ERROR(major)) return GssError("the broker's security layer offer", major, minor);
    std::string offer = Take(plain);
    if (offer.size() != 4 || (static_cast<unsigned char>(offer[0]) & 0x01) == 0) {
      return absl::UnauthenticatedError(
          "GSSAPI: the broker does not offer \"no security layer\", the only one connectd takes");
    }
    const std::string choice("\x01\x00\x00\x00", 4);
    gss_buffer_desc input{choice.size(), const_cast<char*>(choice.data())};
    gss_buffer_desc output = GSS_C_EMPTY_BUFFER;
    major = gss_wrap(&minor, context_, 0, GSS_C_QOP_DEFAULT, &input, nullptr, &output);
    if (GSS_ERROR(major)) return GssError("cannot answer the security layer offer", major, minor);
    state_ = State::kDone;
    return std::optional<std::string>(Take(output));
  }

  gss_cred_id_t credential_;
  const std::string target_text_;
  Name target_;
  gss_ctx_id_t context_ = GSS_C_NO_CONTEXT;
  State state_ = State::kContext;
  std::string first_token_;
};

class Client : public KerberosClient {
 public:
  Client(std::string service, std::string principal, std::string keytab)
      : service_(std::move(service)), principal_(std::move(principal)), keytab_(std::move(keytab)) {
    static std::atomic<int> next{0};
    // Tickets from the keytab go to a cache of this client's own, in memory.
    ccache_ = "MEMORY:connectd-group-" + std::to_string(next.fetch_add(1));
  }

  ~Client() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void Begin(const std::string& host, Callback done) override {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.push_back({host, std::move(done)});
    if (!thread_.joinable()) thread_ = std::thread([this] { Run(); });
    cv_.notify_one();
  }

 private:
  struct Job {
    std::string host;
    Callback done;
  };

  void Run() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
      if (stop_) {
        std::deque<Job> jobs = std::move(jobs_);
        lock.unlock();
        for (Job& job : jobs) job.done(absl::CancelledError("Kerberos client closed"));
        return;
      }
      Job job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job.done(Start(job.host));
      lock.lock();
    }
  }

  absl::StatusOr<gss_cred_id_t> Credential() {
    if (principal_.empty()) return GSS_C_NO_CREDENTIAL;  // the default cache's principal
    Name name;
    if (absl::Status imported = Import(principal_, GSS_KRB5_NT_PRINCIPAL_NAME, name);
        !imported.ok()) {
      return imported;
    }
    OM_uint32 minor = 0, major = 0;
    gss_cred_id_t credential = GSS_C_NO_CREDENTIAL;
    if (!keytab_.empty()) {
      gss_key_value_element_desc elements[] = {{"client_keytab", keytab_.c_str()},
                                               {"ccache", ccache_.c_str()}};
      gss_key_value_set_desc store{2, elements};
      major = gss_acquire_cred_from(&minor, name.name, GSS_C_INDEFINITE, GSS_C_NO_OID_SET,
                                    GSS_C_INITIATE, &store, &credential, nullptr, nullptr);
    } else {
      major = gss_acquire_cred(&minor, name.name, GSS_C_INDEFINITE, GSS_C_NO_OID_SET,
                               GSS_C_INITIATE, &credential, nullptr, nullptr);
    }
    if (GSS_ERROR(major)) {
      return GssError(
          "no credentials for " + principal_ +
              (keytab_.empty() ? " in the default credential cache" : " from keytab " + keytab_),
          major, minor);
    }
    return credential;
  }

  absl::StatusOr<std::unique_ptr<GssapiContext>> Start(const std::string& host) {
    absl::StatusOr<gss_cred_id_t> credential = Credential();
    if (!credential.ok()) return credential.status();
    auto context = std::make_unique<Context>(*credential, service_ + "@" + host);
    if (absl::Status started = context->Start(); !started.ok()) return started;
    return std::unique_ptr<GssapiContext>(std::move(context));
  }

  const std::string service_, principal_, keytab_;
  std::string ccache_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;     // guarded by mu_
  std::deque<Job> jobs_;  // guarded by mu_
  std::thread thread_;    // started by the first Begin, under mu_
};

}  // namespace

absl::StatusOr<std::shared_ptr<KerberosClient>> KerberosClient::FromProperties(
    const std::map<std::string, std::string>& p) {
  const std::string service = Property(p, "sasl.kerberos.service.name");
  if (service.empty()) {
    return absl::InvalidArgumentError(
        "sasl.mechanism=GSSAPI needs sasl.kerberos.service.name (the brokers' Kerberos service, "
        "e.g. kafka)");
  }
  const std::string keytab = Property(p, "sasl.kerberos.keytab");
  const std::string principal = Property(p, "sasl.kerberos.principal");
  if (!keytab.empty() && principal.empty()) {
    return absl::InvalidArgumentError("sasl.kerberos.keytab needs sasl.kerberos.principal");
  }
  return std::shared_ptr<KerberosClient>(std::make_shared<Client>(service, principal, keytab));
}

}  // namespace connectd::kafka::protocol
