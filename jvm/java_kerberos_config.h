// File: java_kerberos_config.h
//
// A Java client's SASL/GSSAPI settings as librdkafka's, which connectd's own group client reads
// too (runtime/kafka/protocol/gssapi.h):
//   - sasl.kerberos.service.name, else the JAAS option serviceName (as Java falls back to it);
//   - com.sun.security.auth.module.Krb5LoginModule with useKeyTab=true, keyTab and principal:
//     sasl.kerberos.keytab and sasl.kerberos.principal (librdkafka renews tickets from the keytab
//     with kinit; the group client through GSS-API);
//   - useTicketCache=true without a keytab: the default credential cache as it is
//     (sasl.kerberos.min.time.before.relogin=0: no kinit), kept fresh by whatever keeps it
//     fresh for Java (kinit, k5start);
//   - sasl.kerberos.min.time.before.relogin passed on (same meaning); Java's ticket renewal
//     tuning (sasl.kerberos.ticket.renew.*) and the broker-side principal.to.local rules dropped.
// What connectd cannot do stops the client naming the key or option: another login module, a
// ticketCache path (set KRB5CCNAME instead), a keytab without principal, Java's
// sasl.kerberos.kinit.cmd other than its default (librdkafka's key of that name is a whole
// command line). The Kerberos configuration is MIT's (/etc/krb5.conf or KRB5_CONFIG), where
// Java reads -Djava.security.krb5.conf.
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

// Whether a Java client key is one of Java's sasl.kerberos.* keys, which TranslateKerberos reads
// or drops (librdkafka's own sasl.kerberos.keytab and .principal are passed on as they are).
bool IsKerberosKey(const std::string& key);

}  // namespace connectd::jvm
