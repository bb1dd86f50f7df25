// File: java_kerberos_config.h
//
// A Java client's SASL/GSSAPI settings as librdkafka's, which connectd's own group client reads
// too (runtime/kafka/protocol/gssapi.h):
//   - sasl.kerberos.service.name, else the JAAS option serviceName (as Java falls back to it);
//   - com.sun.security.auth.module.Krb5LoginModule with useKeyTab=true, keyTab and principal:
//     sasl.kerberos.keytab and sasl.kerberos.principal, the principal's syntax and the keytab's
//     path checked (PrincipalSyntaxError, KeytabPathError); every client logs in from the keytab
//     in the process (kerberos_login.h, client_conf.h; the group client through GSS-API);
//   - useTicketCache=true without a keytab: the default credential cache as it is, kept fresh by
//     whatever keeps it fresh for Java (kinit, k5start);
//   - connectd never runs kinit (librdkafka's sasl.kerberos.min.time.before.relogin is always 0:
//     its kinit command line would run through a shell with config text in it). Java's renewal
//     tuning (sasl.kerberos.min.time.before.relogin, sasl.kerberos.ticket.renew.*) is dropped:
//     logins renew on Java's defaults; the broker-side principal.to.local rules are dropped too.
// What connectd cannot do stops the client naming the key or option: another login module, a
// ticketCache path (set KRB5CCNAME instead), a keytab without principal, a principal or keytab
// path the checks refuse, Java's sasl.kerberos.kinit.cmd other than its default (librdkafka's key
// of that name is a whole command line, never accepted). The Kerberos configuration is MIT's
// (/etc/krb5.conf or KRB5_CONFIG), where Java reads -Djava.security.krb5.conf.
#pragma once

#include <map>
#include <string>

#include "jvm/java_client_config.h"
#include "jvm/java_jaas_config.h"

namespace connectd::jvm {

// Adds the librdkafka properties (or errors) for sasl.mechanism=GSSAPI to `out`; `jaas` is the
// parsed sasl.jaas.config.
void TranslateKerberos(const std::map<std::string, std::string>& java, const JaasLoginModule& jaas,
                       TranslatedConfig& out);

// Why `principal` is not a Kerberos principal name connectd accepts, or "" if it is:
// name[/instance...][@REALM], each part non-empty, of letters, digits and . - _ + = , : $ (what
// a KDC's principals are made of; $ for Active Directory's machine accounts). Never echoes the
// value.
std::string PrincipalSyntaxError(const std::string& principal);

// Why `keytab` is not a keytab connectd reads, or "" if it is: an absolute path to a file
// (optionally written FILE:/path), without "." or ".." parts or control characters. Other
// keytab types (MEMORY:, WRFILE:, KEYRING:) are refused. Never echoes the value.
std::string KeytabPathError(const std::string& keytab);

// Whether a Java client key is one of Java's sasl.kerberos.* keys, which TranslateKerberos reads
// or drops (librdkafka's own sasl.kerberos.keytab and .principal are passed on as they are).
bool IsKerberosKey(const std::string& key);

}  // namespace connectd::jvm
