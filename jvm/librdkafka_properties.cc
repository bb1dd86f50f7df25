#include "jvm/librdkafka_properties.h"

#include <sys/stat.h>

#include <map>

namespace connectd::jvm {
namespace {

constexpr PropertyUse kOk = PropertyUse::kAccepted;
constexpr PropertyUse kFile = PropertyUse::kFile;
constexpr PropertyUse kUrl = PropertyUse::kOAuthUrl;
constexpr PropertyUse kNo = PropertyUse::kRefused;
constexpr PropertyUse kOurs = PropertyUse::kConnectdOnly;

constexpr char kCode[] = "it loads code into the worker";
constexpr char kApi[] = "it is set by code through librdkafka's API, never from a config";
constexpr char kOwn[] = "connectd sets it for how it reads the client";
constexpr char kFileStore[] =
    "librdkafka's file offset store writes files; Connect keeps offsets itself";

// Every property of librdkafka 2.14.2's CONFIGURATION.md, global and topic.
constexpr LibrdkafkaProperty kProperties[] = {
    // Connections, metadata, protocol.
    {"builtin.features", kOk, ""},
    {"client.id", kOk, ""},
    {"metadata.broker.list", kOk, ""},
    {"bootstrap.servers", kOk, ""},
    {"client.dns.lookup", kOk, ""},
    {"client.rack", kOk, ""},
    {"message.max.bytes", kOk, ""},
    {"message.copy.max.bytes", kOk, ""},
    {"receive.message.max.bytes", kOk, ""},
    {"max.in.flight.requests.per.connection", kOk, ""},
    {"max.in.flight", kOk, ""},
    {"metadata.recovery.strategy", kOk, ""},
    {"metadata.recovery.rebootstrap.trigger.ms", kOk, ""},
    {"topic.metadata.refresh.interval.ms", kOk, ""},
    {"metadata.max.age.ms", kOk, ""},
    {"topic.metadata.refresh.fast.interval.ms", kOk, ""},
    {"topic.metadata.refresh.fast.cnt", kOk, ""},
    {"topic.metadata.refresh.sparse", kOk, ""},
    {"topic.metadata.propagation.max.ms", kOk, ""},
    {"topic.blacklist", kOk, ""},
    {"debug", kOk, ""},
    {"socket.timeout.ms", kOk, ""},
    {"socket.blocking.max.ms", kOk, ""},
    {"socket.send.buffer.bytes", kOk, ""},
    {"socket.receive.buffer.bytes", kOk, ""},
    {"socket.keepalive.enable", kOk, ""},
    {"socket.nagle.disable", kOk, ""},
    {"socket.max.fails", kOk, ""},
    {"broker.address.ttl", kOk, ""},
    {"broker.address.family", kOk, ""},
    {"socket.connection.setup.timeout.ms", kOk, ""},
    {"connections.max.idle.ms", kOk, ""},
    {"reconnect.backoff.jitter.ms", kOk, ""},
    {"reconnect.backoff.ms", kOk, ""},
    {"reconnect.backoff.max.ms", kOk, ""},
    {"retry.backoff.ms", kOk, ""},
    {"retry.backoff.max.ms", kOk, ""},
    {"statistics.interval.ms", kOk, ""},
    {"log_level", kOk, ""},
    {"log.thread.name", kOk, ""},
    {"log.connection.close", kOk, ""},
    {"enable.random.seed", kOk, ""},
    {"api.version.request", kOk, ""},
    {"api.version.request.timeout.ms", kOk, ""},
    {"api.version.fallback.ms", kOk, ""},
    {"broker.version.fallback", kOk, ""},
    {"allow.auto.create.topics", kOk, ""},
    {"enable.metrics.push", kOk, ""},
    // How connectd reads a client's events and logs.
    {"log.queue", kOurs, kOwn},
    {"enabled_events", kOurs, kOwn},
    {"consume.callback.max.messages", kOurs, kOwn},
    {"internal.termination.signal", kNo, "it makes librdkafka signal the worker's threads"},
    // Callbacks, pointers and what only the API sets.
    {"error_cb", kNo, kApi},
    {"throttle_cb", kNo, kApi},
    {"stats_cb", kNo, kApi},
    {"log_cb", kNo, kApi},
    {"background_event_cb", kNo, kApi},
    {"socket_cb", kNo, kApi},
    {"connect_cb", kNo, kApi},
    {"closesocket_cb", kNo, kApi},
    {"open_cb", kNo, kApi},
    {"resolve_cb", kNo, kApi},
    {"opaque", kNo, kApi},
    {"default_topic_conf", kNo, kApi},
    {"interceptors", kNo, kApi},
    {"oauthbearer_token_refresh_cb", kNo, kApi},
    {"ssl.certificate.verify_cb", kNo, kApi},
    {"ssl_engine_callback_data", kNo, kApi},
    {"ssl_key", kNo, kApi},
    {"ssl_certificate", kNo, kApi},
    {"ssl_ca", kNo, kApi},
    {"consume_cb", kNo, kApi},
    {"rebalance_cb", kNo, kApi},
    {"offset_commit_cb", kNo, kApi},
    {"dr_cb", kNo, kApi},
    {"dr_msg_cb", kNo, kApi},
    {"partitioner_cb", kNo, kApi},
    {"msg_order_cmp", kNo, kApi},
    // Code.
    {"plugin.library.paths", kNo, kCode},
    {"ssl.engine.location", kNo, kCode},
    {"ssl.engine.id", kNo, "it selects an OpenSSL engine, which is code loaded into the worker"},
    {"ssl.providers", kNo, kCode},
    // TLS.
    {"security.protocol", kOk, ""},
    {"ssl.cipher.suites", kOk, ""},
    {"ssl.curves.list", kOk, ""},
    {"ssl.sigalgs.list", kOk, ""},
    {"ssl.key.location", kFile, ""},
    {"ssl.key.password", kOk, ""},
    {"ssl.key.pem", kOk, ""},
    {"ssl.certificate.location", kFile, ""},
    {"ssl.certificate.pem", kOk, ""},
    {"ssl.ca.location", kFile, ""},
    {"https.ca.location", kFile, ""},
    {"https.ca.pem", kOk, ""},
    {"ssl.ca.pem", kOk, ""},
    {"ssl.ca.certificate.stores", kOk, ""},
    {"ssl.crl.location", kFile, ""},
    {"ssl.keystore.location", kFile, ""},
    {"ssl.keystore.password", kOk, ""},
    {"enable.ssl.certificate.verification", kOk, ""},
    {"ssl.endpoint.identification.algorithm", kOk, ""},
    // SASL.
    {"sasl.mechanisms", kOk, ""},
    {"sasl.mechanism", kOk, ""},
    {"sasl.kerberos.service.name", kOk, ""},
    {"sasl.kerberos.principal", kOk, ""},
    {"sasl.kerberos.kinit.cmd", kNo,
     "it is a command line librdkafka runs through a shell; connectd logs in from the keytab "
     "itself"},
    {"sasl.kerberos.keytab", kFile, ""},
    {"sasl.kerberos.min.time.before.relogin", kOk, ""},
    {"sasl.username", kOk, ""},
    {"sasl.password", kOk, ""},
    {"sasl.oauthbearer.config", kOk, ""},
    {"enable.sasl.oauthbearer.unsecure.jwt", kOk, ""},
    {"sasl.oauthbearer.method", kOk, ""},
    {"sasl.oauthbearer.client.id", kOk, ""},
    {"sasl.oauthbearer.client.credentials.client.id", kOk, ""},
    {"sasl.oauthbearer.client.credentials.client.secret", kOk, ""},
    {"sasl.oauthbearer.client.secret", kOk, ""},
    {"sasl.oauthbearer.scope", kOk, ""},
    {"sasl.oauthbearer.extensions", kOk, ""},
    {"sasl.oauthbearer.token.endpoint.url", kUrl, ""},
    {"sasl.oauthbearer.sub.claim.name", kOk, ""},
    {"sasl.oauthbearer.grant.type", kOk, ""},
    {"sasl.oauthbearer.assertion.algorithm", kOk, ""},
    {"sasl.oauthbearer.assertion.private.key.file", kNo,
     "connectd does not sign client assertions (the jwt-bearer grant)"},
    {"sasl.oauthbearer.assertion.private.key.passphrase", kOk, ""},
    {"sasl.oauthbearer.assertion.private.key.pem", kOk, ""},
    {"sasl.oauthbearer.assertion.file", kNo,
     "connectd does not read client assertions from files (the jwt-bearer grant)"},
    {"sasl.oauthbearer.assertion.claim.aud", kOk, ""},
    {"sasl.oauthbearer.assertion.claim.exp.seconds", kOk, ""},
    {"sasl.oauthbearer.assertion.claim.iss", kOk, ""},
    {"sasl.oauthbearer.assertion.claim.jti.include", kOk, ""},
    {"sasl.oauthbearer.assertion.claim.nbf.seconds", kOk, ""},
    {"sasl.oauthbearer.assertion.claim.sub", kOk, ""},
    {"sasl.oauthbearer.assertion.jwt.template.file", kNo,
     "connectd does not read client assertion templates from files (the jwt-bearer grant)"},
    {"sasl.oauthbearer.metadata.authentication.type", kNo,
     "it asks a cloud metadata service, a host no config names, for credentials"},
    // Consumers.
    {"group.id", kOk, ""},
    {"group.instance.id", kOk, ""},
    {"partition.assignment.strategy", kOk, ""},
    {"session.timeout.ms", kOk, ""},
    {"heartbeat.interval.ms", kOk, ""},
    {"group.protocol.type", kOk, ""},
    {"group.protocol", kOk, ""},
    {"group.remote.assignor", kOk, ""},
    {"coordinator.query.interval.ms", kOk, ""},
    {"max.poll.interval.ms", kOk, ""},
    {"enable.auto.commit", kOk, ""},
    {"auto.commit.enable", kOk, ""},
    {"auto.commit.interval.ms", kOk, ""},
    {"enable.auto.offset.store", kOk, ""},
    {"queued.min.messages", kOk, ""},
    {"queued.max.messages.kbytes", kOk, ""},
    {"fetch.wait.max.ms", kOk, ""},
    {"fetch.queue.backoff.ms", kOk, ""},
    {"fetch.message.max.bytes", kOk, ""},
    {"max.partition.fetch.bytes", kOk, ""},
    {"fetch.max.bytes", kOk, ""},
    {"fetch.min.bytes", kOk, ""},
    {"fetch.error.backoff.ms", kOk, ""},
    {"isolation.level", kOk, ""},
    {"enable.partition.eof", kOurs, kOwn},
    {"check.crcs", kOk, ""},
    {"auto.offset.reset", kOk, ""},
    {"offset.store.method", kNo, kFileStore},
    {"offset.store.path", kNo, kFileStore},
    {"offset.store.sync.interval.ms", kNo, kFileStore},
    // Producers.
    {"transactional.id", kOk, ""},
    {"transaction.timeout.ms", kOk, ""},
    {"enable.idempotence", kOk, ""},
    {"enable.gapless.guarantee", kOk, ""},
    {"queue.buffering.max.messages", kOk, ""},
    {"queue.buffering.max.kbytes", kOk, ""},
    {"queue.buffering.max.ms", kOk, ""},
    {"linger.ms", kOk, ""},
    {"message.send.max.retries", kOk, ""},
    {"retries", kOk, ""},
    {"queue.buffering.backpressure.threshold", kOk, ""},
    {"compression.codec", kOk, ""},
    {"compression.type", kOk, ""},
    {"compression.level", kOk, ""},
    {"batch.num.messages", kOk, ""},
    {"batch.size", kOk, ""},
    {"delivery.report.only.error", kOurs, kOwn},
    {"sticky.partitioning.linger.ms", kOk, ""},
    {"request.required.acks", kOk, ""},
    {"acks", kOk, ""},
    {"request.timeout.ms", kOk, ""},
    {"message.timeout.ms", kOk, ""},
    {"delivery.timeout.ms", kOk, ""},
    {"queuing.strategy", kOk, ""},
    {"produce.offset.report", kOk, ""},
    {"partitioner", kOk, ""},
};

const std::map<std::string_view, const LibrdkafkaProperty*>& Index() {
  static const auto* index = [] {
    auto* map = new std::map<std::string_view, const LibrdkafkaProperty*>();
    for (const LibrdkafkaProperty& p : kProperties) map->emplace(p.name, &p);
    return map;
  }();
  return *index;
}

}  // namespace

const LibrdkafkaProperty* FindLibrdkafkaProperty(std::string_view name) {
  auto it = Index().find(name);
  return it == Index().end() ? nullptr : it->second;
}

std::string LibrdkafkaPropertyRefusal(const std::string& name, const std::string& value) {
  const LibrdkafkaProperty* property = FindLibrdkafkaProperty(name);
  if (property == nullptr) {
    return name + " is not a Kafka client config connectd knows (neither Java's nor librdkafka's)";
  }
  if (property->use == PropertyUse::kRefused || property->use == PropertyUse::kConnectdOnly) {
    return name + " is not accepted: " + property->why;
  }
  if (property->use == PropertyUse::kFile) {
    for (char c : value) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f)
        return name + " must be a file path (it holds a control character)";
    }
    // A device (/dev/zero, /dev/stdin), a FIFO or a socket would have the client read without
    // end or wait forever. What does not exist is left to the client to report.
    struct stat info {};
    if (stat(value.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISDIR(info.st_mode)) {
      return name + " must name a file or a directory";
    }
  }
  return "";
}

}  // namespace connectd::jvm
