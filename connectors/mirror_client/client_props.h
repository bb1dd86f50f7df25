// File: client_props.h
//
// The Java client properties of one of MirrorMaker 2's own clients, derived from a connector
// config as Kafka's MirrorConnectorConfig derives them: the connection settings of
// `<side>.cluster.*` (bootstrap.servers, security.protocol, client.id, client.dns.lookup,
// ssl.*, sasl.*), then the connector-wide `<role>.*`, then `<side>.<role>.*` (side: source |
// target; role: consumer, producer, admin; `<role>.override.*` is the worker's, not ours).
//
// Shared by the MM2 connectors (connectors/mirror/kafka_clients.h) and the worker's flow-health
// service (runtime/mirror_maker/health/), which reads a flow's heartbeats with the flow's own
// settings. Standard library only; pure, any thread.
#pragma once

#include <map>
#include <string>

namespace connectd::mirror {

// The Java client properties of `side` ("source"|"target") and `role` ("consumer",
// "producer", "admin") from a connector config.
std::map<std::string, std::string> ClientProps(const std::map<std::string, std::string>& connector,
                                               const std::string& side, const std::string& role);

// The same for one of MirrorMaker 2's named clients, with Kafka's client.id (KAFKA-14838): the
// configured client.id, if any, then "|", then "<source>-><target>|<name>[-<task.index>]|
// <mm2_role>", e.g. "A->B|mm2-source-0|replication-consumer" (`connector` is the connector's
// or the task's config; mm2_role e.g. replication-consumer, replication-source-admin).
std::map<std::string, std::string> ClientProps(const std::map<std::string, std::string>& connector,
                                               const std::string& side, const std::string& role,
                                               const std::string& mm2_role);

}  // namespace connectd::mirror
