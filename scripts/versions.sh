# shellcheck shell=bash
# scripts/versions.sh -- the ONE place where pinned third-party versions live.
#
# Contract: this file is *sourced* (never executed) by the other scripts in
# scripts/. It only sets variables; it has no side effects and prints nothing.
# Only CONNECTD_CACHE can be overridden from the environment.
# shellcheck disable=SC2034  # the variables are used by the sourcing scripts

# Apache Kafka reference implementation (broker, Connect runtime, MirrorMaker 2)
# used as the behavioural oracle in the real-Kafka tests. Maven coordinates:
# org.apache.kafka:*:${KAFKA_VERSION}, Scala binary version ${KAFKA_SCALA_VERSION}.
KAFKA_VERSION=4.4.0
KAFKA_SCALA_VERSION=2.13

# MirrorMaker 2 (connect-mirror, connect-mirror-client) and the FileStream
# connectors (connect-file) come from a SEPARATE, self-consistent Kafka stack
# at this version (broker, clients, Connect runtime all at it too):
#   - 4.4.0 of those three artifacts is not on Maven Central (HTTP 404 when
#     this was pinned, while kafka_2.13/kafka-server/kafka-tools/
#     connect-runtime 4.4.0 were there);
#   - 4.3.1 jars cannot be mixed into the 4.4.0 classpath: they link against
#     org.apache.kafka.common.utils.{AppInfoParser,Exit}, which kafka-clients
#     4.4.0 moved to ...common.utils.internals (NoClassDefFoundError).
# `scripts/kafka java-classpath --mm2` gives that stack. When 4.4.0 appears,
# set this to ${KAFKA_VERSION}: the two stacks then collapse into one.
KAFKA_MM2_VERSION=4.3.1

# Logging backend put on the Kafka classpath. Kafka 4.x ships log4j2 behind
# slf4j 1.7 (its libs/ has log4j-api, log4j-core, log4j-slf4j-impl), so we do
# the same; Connect's /admin/loggers endpoint needs log4j-core at runtime.
LOG4J2_VERSION=2.25.3

# librdkafka: Debian's source package from the unstable suite (scripts/librdkafka builds it;
# Debian 12's 2.0.2 lacks SCRAM with Kafka 4.x and topic IDs). The .orig and .debian tarballs are
# checked against these digests (the .dsc of 2.14.2-1 lists them).
LIBRDKAFKA_DEBIAN_VERSION=2.14.2-1
LIBRDKAFKA_DEBIAN_POOL=http://deb.debian.org/debian/pool/main/libr/librdkafka
LIBRDKAFKA_ORIG_SHA256=4d53568c13717b167d12c7b2a0fe12aeb5d6bfe02de53df5b68f86d870a81b33
LIBRDKAFKA_DEBIAN_SHA256=35fbeb684225057fb27f81919b64d5b9dcb1c34d4b003a8e35e6142fcd757672

# Where downloaded artifacts (jars) are cached between runs. Safe to delete;
# `scripts/kafka fetch` repopulates it from Maven Central.
CONNECTD_CACHE="${CONNECTD_CACHE:-$HOME/.cache/connectd}"
