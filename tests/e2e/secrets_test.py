"""Secrets stay secret (issue #10): values that come through config providers never appear in the
worker's log, in any REST answer or in the internal topics, and PASSWORD-type configs are
`[hidden]` in validation results.

A 2-worker connectd cluster (internal topics on ctest-b) with FileConfigProvider reads a secrets
file; the workers' own clients reach ctest-b through its SASL_PLAINTEXT listener with
`sasl.jaas.config=${file:<secrets>:jaas}` in the worker properties. A MirrorSource connector reads ctest-a through its SASL_PLAINTEXT listener with
`source.cluster.sasl.jaas.config=${file:<secrets>:jaas}`: records arriving on B prove the
reference was resolved for the task's consumer. The same connector carries a second provider
value in `ssl.truststore.password` (a PASSWORD key of MirrorMaker 2's config, unused in plain
text) and a literal `ssl.key.password`. Every logger is at TRACE while the connector is created,
started, reconfigured and validated.

What is checked, with the two provider values (the SASL password and a random token) as the
needles:
- the log of both workers (which must hold TRACE lines, so that the check means something);
- every REST answer a user or a scraper reads: connectors (plain and expanded), config, tasks,
  status, topics, offsets, validate, loggers, /metrics, /mirror/flows, /mirror/task-metrics;
- the config, offsets and status topics, whose task configs must hold the `${file:...}`
  references instead (Connect's reverse transform);
- validate shows `[hidden]` for both password keys, and neither the token nor the literal value.

Run, from tests/e2e (build dir: $CONNECTD_BUILD_DIR, else <repo>/build):
    CONNECTD_RUN_DIR=<run dir of ctest-a/ctest-b started with --sasl> \
        python3 -m unittest -v secrets_test
"""
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
import unittest
import urllib.parse
import uuid

from connectd_e2e import kafka_bootstrap, wait_until
from distributed_cluster import WorkerCluster, count_records, delete_topics, read_records, tool
from sasl_test import kafka_sasl

SOURCE_CLASS = "org.apache.kafka.connect.mirror.MirrorSourceConnector"
BYTE_ARRAY = "org.apache.kafka.connect.converters.ByteArrayConverter"
RECORDS = 200


class SecretsNeverLeakTest(unittest.TestCase):

    def setUp(self):
        self.uid = uuid.uuid4().hex[:8]
        self.a_sasl, self.user, self.password = kafka_sasl("ctest-a")
        self.a, self.b = kafka_bootstrap("ctest-a"), kafka_bootstrap("ctest-b")
        self.token = "tok-" + secrets.token_hex(16)
        self.literal = "lit-" + secrets.token_hex(16)
        self.topic = f"secrets-{self.uid}"
        self.connector = f"mm2-secrets-{self.uid}"
        tool("create", self.a, self.topic, 2)
        self.addCleanup(delete_topics, self.topic, bootstrap=self.a)
        self.addCleanup(delete_topics, f"A.{self.topic}", bootstrap=self.b)

        # The workers' own clients (internal topics, group, the tasks' producers) reach B through
        # its SASL listener with the same provider reference.
        self.secrets_dir = tempfile.mkdtemp(prefix="connectd-leakcheck-")
        self.addCleanup(shutil.rmtree, self.secrets_dir, True)
        self.secrets_path = os.path.join(self.secrets_dir, "secrets.properties")
        with open(self.secrets_path, "w") as f:
            f.write("jaas=org.apache.kafka.common.security.plain.PlainLoginModule required "
                    f'username="{self.user}" password="{self.password}";\n')
            f.write(f"token={self.token}\n")
        self.b_sasl = kafka_sasl("ctest-b")[0]
        self.cluster = WorkerCluster(
            ["connectd", "connectd"], name=f"leakcheck-{self.uid}", bootstrap=self.b_sasl,
            props={"key.converter": BYTE_ARRAY, "value.converter": BYTE_ARRAY,
                   "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
                   "sasl.jaas.config": self.ref("jaas"),
                   "config.providers": "file",
                   "config.providers.file.class":
                       "org.apache.kafka.common.config.provider.FileConfigProvider"})
        self.addCleanup(self.cluster.close)
        self.cluster.start(timeout=90)
        self.any = self.cluster[0]

    def ref(self, key):
        return "${file:%s:%s}" % (self.secrets_path, key)

    def connector_config(self):
        return {"connector.class": SOURCE_CLASS, "tasks.max": "1",
                "source.cluster.alias": "A", "target.cluster.alias": "B",
                "source.cluster.bootstrap.servers": self.a_sasl,
                "source.cluster.security.protocol": "SASL_PLAINTEXT",
                "source.cluster.sasl.mechanism": "PLAIN",
                "source.cluster.sasl.jaas.config": self.ref("jaas"),
                "target.cluster.bootstrap.servers": self.b,
                "ssl.truststore.password": self.ref("token"),
                "ssl.key.password": self.literal,
                "topics": self.topic, "replication.factor": "1",
                "offset-syncs.topic.replication.factor": "1",
                "sync.topic.acls.enabled": "false", "refresh.topics.interval.seconds": "1"}

    def rest(self, method, path, body=None, expect=200):
        code, parsed, text = self.any.request(method, path, body)
        self.assertEqual(code, expect, f"{method} {path}: {text}")
        return parsed, text

    def assert_clean(self, where, text, allow_literal=True):
        for name, needle in (("the SASL password", self.password), ("the token", self.token)):
            self.assertNotIn(needle, text, f"{name} appears in {where}")
        if not allow_literal:
            self.assertNotIn(self.literal, text, f"the literal password appears in {where}")

    def test_provider_values_never_leave_the_task(self):
        # Everything at TRACE from here on, on both workers (cluster scope).
        self.rest("PUT", "/admin/loggers/root?scope=cluster", {"level": "TRACE"}, expect=204)
        wait_until(lambda: all(w.get("/admin/loggers/root")[1].get("level") == "TRACE"
                               for w in self.cluster.workers),
                   timeout=30, what="root logger at TRACE on both workers")

        # Validation first: both password keys [hidden], no value of either in the answer.
        validated, text = self.rest(
            "PUT", f"/connector-plugins/{SOURCE_CLASS}/config/validate",
            self.connector_config())
        values = {c["value"]["name"]: c["value"] for c in validated["configs"]}
        for key in ("ssl.truststore.password", "ssl.key.password"):
            self.assertIn(key, values)
            self.assertEqual(values[key]["value"], "[hidden]", f"validate shows {key}")
        self.assert_clean("the validate answer", text, allow_literal=False)

        # Create, run, mirror: the jaas reference was resolved for the source consumer.
        self.rest("PUT", f"/connectors/{self.connector}/config", self.connector_config(),
                  expect=201)
        tool("produce", self.a, self.topic, RECORDS, 2)
        wait_until(lambda: count_records(f"A.{self.topic}", self.b) >= RECORDS, timeout=90,
                   interval=0.5, what=f"{RECORDS} records mirrored over SASL to B")
        self.assertEqual(len(read_records(f"A.{self.topic}", self.b)), RECORDS)

        # Reconfigure once through the other worker (new task configs written through the
        # reverse transform again): one of the two PUTs went through a follower, which forwards
        # the body to the leader.
        config = self.connector_config()
        config["offset.lag.max"] = "50"
        code, _, text = self.cluster[1].request("PUT", f"/connectors/{self.connector}/config",
                                                config)
        self.assertEqual(code, 200, text)
        wait_until(lambda: self.rest("GET", f"/connectors/{self.connector}/tasks")[0][0][
            "config"].get("offset.lag.max") == "50", timeout=60, interval=0.5,
            what="the reconfigured task configs")

        # REST: what a user, a dashboard or a scraper reads.
        c = urllib.parse.quote(self.connector)
        paths = ["/connectors", "/connectors?expand=info&expand=status", f"/connectors/{c}",
                 f"/connectors/{c}/config", f"/connectors/{c}/tasks", f"/connectors/{c}/status",
                 f"/connectors/{c}/tasks/0/status", f"/connectors/{c}/topics",
                 f"/connectors/{c}/offsets", "/admin/loggers", "/metrics", "/mirror/flows",
                 "/mirror/task-metrics", "/"]
        for worker in self.cluster.workers:
            for path in paths:
                code, _, text = worker.request("GET", path)
                self.assertEqual(code, 200, f"GET {path} on {worker}: {text}")
                self.assert_clean(f"GET {path} on {worker}", text)
        # The config and the task configs show the references, as Java's do.
        tasks, _ = self.rest("GET", f"/connectors/{c}/tasks")
        self.assertEqual(tasks[0]["config"]["source.cluster.sasl.jaas.config"], self.ref("jaas"))
        self.assertEqual(tasks[0]["config"]["ssl.truststore.password"], self.ref("token"))

        # Internal topics: references only.
        configs = "\n".join(json.dumps(r) for r in read_records(self.cluster.config_topic,
                                                                 self.b))
        self.assert_clean("the config topic", configs)
        self.assertIn(json.dumps(self.ref("jaas"))[1:-1], configs,
                      "the config topic's task configs hold the jaas reference")
        for topic in (self.cluster.offset_topic, self.cluster.status_topic):
            self.assert_clean(f"the topic {topic}",
                              "\n".join(json.dumps(r) for r in read_records(topic, self.b)))

        # Logs: TRACE lines were written, none holds a secret value or the literal password.
        self.rest("DELETE", f"/connectors/{c}", expect=204)
        time.sleep(1)
        for worker in self.cluster.workers:
            with open(worker.log_path, errors="replace") as f:
                log = f.read()
            self.assertIn("TRACE", log, f"{worker} wrote no TRACE line: the check would be void")
            self.assert_clean(f"the log of {worker} ({worker.log_path})", log,
                              allow_literal=False)
        print(f"\nsecrets: {RECORDS} records mirrored over SASL with provider values; "
              f"{len(paths) * len(self.cluster.workers)} REST answers, 3 internal topics and "
              f"{sum(os.path.getsize(w.log_path) for w in self.cluster.workers)} bytes of "
              f"TRACE logs hold none of them", file=sys.stderr)


if __name__ == "__main__":
    unittest.main()
