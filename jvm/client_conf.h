// File: client_conf.h
//
// The one way connectd makes a librdkafka client config, in the runtime and in its plugins
// alike, from the librdkafka properties TranslateJavaClientConfig gives (plus connectd's own
// settings for the client):
//   - no property that loads code, runs a command, writes files or takes a callback is set
//     (librdkafka_properties.h: rows kRefused), whoever asked;
//   - librdkafka never runs kinit: sasl.kerberos.min.time.before.relogin is always 0. SASL/GSSAPI
//     with a keytab logs in in the process instead (kerberos_login.h): an interceptor makes the
//     login's in-memory credential cache the default of every thread of the client, where Cyrus
//     SASL's GSSAPI module looks for tickets;
//   - a property librdkafka does not know is left out with a warning naming the key.
//
//   std::vector<std::string> warnings;
//   std::string error;
//   rd_kafka_conf_t* conf = MakeClientConf(properties, warnings, error);   // nullptr: error
//
// Threads: any; blocks while a first Kerberos login talks to the KDC.
#pragma once

#include <librdkafka/rdkafka.h>

#include <map>
#include <string>
#include <vector>

namespace connectd::jvm {

// A new librdkafka config (the caller owns it: rd_kafka_new takes it, or rd_kafka_conf_destroy),
// or nullptr with `error` naming the key (never its value) or the Kerberos login's failure.
rd_kafka_conf_t* MakeClientConf(const std::map<std::string, std::string>& properties,
                                std::vector<std::string>& warnings, std::string& error);

}  // namespace connectd::jvm
