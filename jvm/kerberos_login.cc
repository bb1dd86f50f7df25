#include "jvm/kerberos_login.h"

#include <gssapi/gssapi_krb5.h>
#include <krb5.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <utility>

#include "jvm/java_kerberos_config.h"

namespace connectd::jvm {
namespace {

// Java's KerberosLogin defaults (SaslConfigs).
constexpr double kRenewWindowFactor = 0.8;
constexpr double kRenewJitter = 0.05;
constexpr std::chrono::seconds kMinTimeBeforeRelogin{60};
constexpr std::chrono::seconds kRetryAfterFailure{10};

std::atomic<KerberosLogSink> log_sink{nullptr};

void Log(const std::string& message) {
  if (KerberosLogSink sink = log_sink.load()) sink(message);
}

// MIT's words for `code` in `context`.
std::string Krb5Message(krb5_context context, krb5_error_code code) {
  const char* text = krb5_get_error_message(context, code);
  std::string out = text != nullptr ? text : "Kerberos error " + std::to_string(code);
  krb5_free_error_message(context, text);
  return out;
}

class Login : public KerberosLogin {
 public:
  Login(std::string principal, std::string keytab, std::string ccache)
      : principal_(std::move(principal)), keytab_(std::move(keytab)), ccache_(std::move(ccache)) {}

  ~Login() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (renewer_.joinable()) renewer_.join();
    if (context_ != nullptr) {
      krb5_ccache cache = nullptr;
      if (krb5_cc_resolve(context_, ccache_.c_str(), &cache) == 0) krb5_cc_destroy(context_, cache);
      krb5_free_context(context_);
    }
  }

  // The first login, on the caller's thread; then the renewer starts.
  bool Start(std::string& error) {
    if (krb5_error_code code = krb5_init_context(&context_); code != 0) {
      context_ = nullptr;
      error = "cannot initialise Kerberos (" + std::to_string(code) + ")";
      return false;
    }
    std::chrono::system_clock::time_point next;
    if (!LoginOnce(next, error)) return false;
    renewer_ = std::thread([this, next] { Renew(next); });
    return true;
  }

  const std::string& ccache() const override { return ccache_; }
  int logins() const override { return logins_.load(); }

 private:
  // Tickets from the keytab into a new cache, then moved into ours in one step (MIT's
  // krb5_cc_move replaces a MEMORY cache's contents atomically), so a client connecting during a
  // renewal never finds the cache empty. `next`: when to renew (Java's schedule).
  bool LoginOnce(std::chrono::system_clock::time_point& next, std::string& error) {
    krb5_principal client = nullptr;
    krb5_keytab keytab = nullptr;
    krb5_ccache staging = nullptr, cache = nullptr;
    krb5_get_init_creds_opt* options = nullptr;
    krb5_creds creds{};
    bool have_creds = false;
    krb5_error_code code = krb5_parse_name(context_, principal_.c_str(), &client);
    if (code == 0) code = krb5_kt_resolve(context_, keytab_.c_str(), &keytab);
    if (code == 0) code = krb5_cc_new_unique(context_, "MEMORY", nullptr, &staging);
    if (code == 0) code = krb5_cc_initialize(context_, staging, client);
    if (code == 0) code = krb5_get_init_creds_opt_alloc(context_, &options);
    if (code == 0) code = krb5_get_init_creds_opt_set_out_ccache(context_, options, staging);
    if (code == 0) {
      code = krb5_get_init_creds_keytab(context_, &creds, client, keytab, 0, nullptr, options);
      have_creds = code == 0;
    }
    if (code == 0) code = krb5_cc_resolve(context_, ccache_.c_str(), &cache);
    if (code == 0) {
      code = krb5_cc_move(context_, staging, cache);
      if (code == 0) staging = nullptr;  // moved: closed by krb5_cc_move
    }
    if (code != 0) {
      error = "Kerberos login of " + principal_ + " from keytab " + keytab_ +
              " failed: " + Krb5Message(context_, code);
    } else {
      logins_.fetch_add(1);
      next = RenewalTime(creds.times.starttime != 0 ? creds.times.starttime : creds.times.authtime,
                         creds.times.endtime);
    }
    if (have_creds) krb5_free_cred_contents(context_, &creds);
    if (options != nullptr) krb5_get_init_creds_opt_free(context_, options);
    if (staging != nullptr) krb5_cc_destroy(context_, staging);
    if (cache != nullptr) krb5_cc_close(context_, cache);
    if (keytab != nullptr) krb5_kt_close(context_, keytab);
    if (client != nullptr) krb5_free_principal(context_, client);
    return code == 0;
  }

  std::chrono::system_clock::time_point RenewalTime(krb5_timestamp start, krb5_timestamp end) {
    using std::chrono::system_clock;
    const auto now = system_clock::now();
    const double life = static_cast<double>(static_cast<uint32_t>(end) - static_cast<uint32_t>(start));
    std::uniform_real_distribution<double> jitter(0.0, kRenewJitter);
    const double factor = kRenewWindowFactor + jitter(random_);
    const auto at = system_clock::from_time_t(static_cast<uint32_t>(start)) +
                    std::chrono::milliseconds(static_cast<int64_t>(life * factor * 1000));
    return std::max(at, now + kMinTimeBeforeRelogin);
  }

  void Renew(std::chrono::system_clock::time_point next) {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      if (cv_.wait_until(lock, next, [this] { return stop_; })) return;
      lock.unlock();
      std::string error;
      if (!LoginOnce(next, error)) {
        Log(error + "; trying again in " + std::to_string(kRetryAfterFailure.count()) + " s");
        next = std::chrono::system_clock::now() + kRetryAfterFailure;
      }
      lock.lock();
    }
  }

  const std::string principal_, keytab_, ccache_;
  krb5_context context_ = nullptr;  // the first login's thread, then the renewer's only
  std::mt19937_64 random_{std::random_device{}()};
  std::atomic<int> logins_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;  // guarded by mu_
  std::thread renewer_;
};

struct Registry {
  std::mutex mu;
  std::map<std::pair<std::string, std::string>, std::weak_ptr<KerberosLogin>> logins;  // guarded
  int next_id = 0;                                                                        // by mu
};

Registry& TheRegistry() {
  static auto* registry = new Registry();
  return *registry;
}

}  // namespace

std::shared_ptr<KerberosLogin> KerberosLogin::Acquire(const std::string& principal,
                                                      const std::string& keytab,
                                                      std::string& error) {
  if (std::string why = PrincipalSyntaxError(principal); !why.empty()) {
    error = "the Kerberos principal is refused: " + why;
    return nullptr;
  }
  if (std::string why = KeytabPathError(keytab); !why.empty()) {
    error = "the Kerberos keytab is refused: " + why;
    return nullptr;
  }
  Registry& registry = TheRegistry();
  // Held while logging in: two clients of one principal log in once.
  std::lock_guard<std::mutex> lock(registry.mu);
  std::erase_if(registry.logins, [](const auto& entry) { return entry.second.expired(); });
  auto& slot = registry.logins[{principal, keytab}];
  if (std::shared_ptr<KerberosLogin> live = slot.lock()) return live;
  auto login = std::make_shared<Login>(
      principal, keytab, "MEMORY:connectd-login-" + std::to_string(registry.next_id++));
  if (!login->Start(error)) return nullptr;
  slot = login;
  return login;
}

bool UseCredentialCacheOnThisThread(const std::string& ccache) {
  OM_uint32 minor = 0;
  return !GSS_ERROR(gss_krb5_ccache_name(&minor, ccache.c_str(), nullptr));
}

void SetKerberosLoginLogSink(KerberosLogSink sink) { log_sink.store(sink); }

}  // namespace connectd::jvm
