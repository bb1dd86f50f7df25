// File: kerberos_login.h
//
// A Kerberos login from a keytab held in the process, as Java's KerberosLogin holds one: tickets
// from the KDC into a credential cache in memory (MIT's MEMORY: type) private to the login, and a
// thread that renews them before they expire. No kinit, no shell, no file written: nothing of a
// principal or keytab name ever reaches a command line.
//
// Renewal follows Java's schedule (KerberosLogin, with Java's defaults): at 80% of the ticket's
// life plus up to 5% of jitter (sasl.kerberos.ticket.renew.window.factor 0.8,
// sasl.kerberos.ticket.renew.jitter 0.05), never sooner than 60 s after the last login
// (sasl.kerberos.min.time.before.relogin 60000); a failed renewal is tried again every 10 s
// while the old ticket lasts. Clients with the same principal and keytab share one login.
//
//   std::string error;
//   std::shared_ptr<KerberosLogin> login = KerberosLogin::Acquire(principal, keytab, error);
//   if (!login) ... error names the principal, the keytab and MIT's reason
//   UseCredentialCacheOnThisThread(login->ccache());   // GSS-API on this thread uses it
//
// Threads: Acquire may be called on any thread and blocks while it talks to the KDC (first
// login only). Each login renews on a thread of its own, stopped when the last holder lets go.
#pragma once

#include <memory>
#include <string>

namespace connectd::jvm {

class KerberosLogin {
 public:
  // Logs `principal` in from `keytab`, or shares the live login of the same pair. nullptr with
  // `error` set (naming the principal and keytab, with MIT's reason) when the names are refused
  // (PrincipalSyntaxError, KeytabPathError in java_kerberos_config.h) or the KDC gives no ticket.
  static std::shared_ptr<KerberosLogin> Acquire(const std::string& principal,
                                                const std::string& keytab, std::string& error);

  virtual ~KerberosLogin() = default;

  // The credential cache holding this login's tickets ("MEMORY:connectd-login-N").
  virtual const std::string& ccache() const = 0;

  // How many logins (initial and renewals) succeeded; for tests and diagnostics.
  virtual int logins() const = 0;
};

// Makes `ccache` the default credential cache of GSS-API on the calling thread (MIT's
// gss_krb5_ccache_name): what Cyrus SASL's GSSAPI module, asking for default credentials, uses.
// False if GSS-API refused it.
bool UseCredentialCacheOnThisThread(const std::string& ccache);

// Where renewal failures are reported (a login has no caller to return them to). Default: none.
// Set once at start, before any login; `sink` must be callable from any thread.
using KerberosLogSink = void (*)(const std::string& message);
void SetKerberosLoginLogSink(KerberosLogSink sink);

}  // namespace connectd::jvm
