// File: librdkafka_properties.h
//
// The allow-list of librdkafka properties: the only ones connectd passes to a librdkafka client,
// whoever set them (a worker config, a connector config and its overrides, a MirrorMaker prefix).
// Whoever can reach the REST API writes connector configs, so every value is hostile: a
// property that loads code (plugin.library.paths, ssl.engine.location, ssl.providers), runs a
// command (sasl.kerberos.kinit.cmd), takes a callback or pointer, writes files (the legacy file
// offset store) or asks a host no config names (a cloud metadata service) is never accepted.
// Every property of librdkafka 2.14.2's CONFIGURATION.md has a row, so a new one is refused until
// someone decides about it (JavaClientConfigTest checks the table against the list).
#pragma once

#include <string>
#include <string_view>

namespace connectd::jvm {

enum class PropertyUse {
  kAccepted,      // passed on as set
  kFile,          // names a file the client reads: a path (no control characters), never a device,
                  // a FIFO or a socket
  kOAuthUrl,      // an URL the client fetches tokens from:
                  // org.apache.kafka.sasl.oauthbearer.allowed.urls
  kConnectdOnly,  // set by connectd's own code only (how it reads the client), never by a config
  kRefused,       // never passed on, not even by connectd's code; `why` says why
};

struct LibrdkafkaProperty {
  const char* name;
  PropertyUse use;
  const char* why;  // kConnectdOnly, kRefused: the reason, completing "<key> is not accepted: "
};

// The row for `name`, or nullptr when librdkafka 2.14.2 has no such property (or a hidden one,
// such as its test.mock.* keys).
const LibrdkafkaProperty* FindLibrdkafkaProperty(std::string_view name);

// Why `name`=`value` must not reach a librdkafka client, or "" when it may. Names the key, never
// echoes the value (it may be a secret). kOAuthUrl is checked by the caller against
// org.apache.kafka.sasl.oauthbearer.allowed.urls; here only that it is a property.
std::string LibrdkafkaPropertyRefusal(const std::string& name, const std::string& value);

}  // namespace connectd::jvm
