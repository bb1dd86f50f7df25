"""End to end over TLS: connectd workers whose Kafka clients reach the brokers only through
their SSL listeners (issue #5: the group membership client on a secured cluster; issue #6:
Kafka's MirrorConnectorsIntegrationSSLTest).

The ctest fixture starts ctest-a and ctest-b with `scripts/kafka start --ssl`: next to the
PLAINTEXT listener each broker has an SSL one, its certificate (IP:127.0.0.1, DNS:localhost)
signed by a throw-away CA ($CONNECTD_RUN_DIR/<cluster>/ssl_bootstrap and .../ca). The workers
get the Java keys a user writes: security.protocol=SSL, ssl.truststore.type=PEM and
ssl.truststore.location=<CA>, hostname verification on (Java's default). The tests' own checks
(kafka_test_tool) use the PLAINTEXT listener of the same brokers.

- DistributedSslTest: a pair of `connectd distributed` workers configured for SSL everywhere:
  internal topics (librdkafka), `connect` group membership (connectd's own protocol client), the
  tasks' producers. A VerifiableSource connector created over REST runs its tasks on both
  workers and its records land in the topic.
- MirrorConnectorsSslScenariosTest: Kafka's MirrorConnectorsIntegrationBaseTest scenarios
  (mirror_scenarios_test) with the backup cluster (ctest-b, alias B) on SSL, as Java's SSL
  variant runs them: the flow primary->backup writes to B over SSL (worker and target.cluster.*
  settings), backup->primary reads from B over SSL (source.cluster.*). ctest runs two of the
  scenarios; `python3 -m unittest ssl_test.MirrorConnectorsSslScenariosTest` runs them all.

Run, from tests/e2e (build dir: $CONNECTD_BUILD_DIR, else <repo>/build):
    CONNECTD_RUN_DIR=<run dir of clusters started with --ssl> python3 -m unittest -v ssl_test
"""
import time
import unittest
import uuid

import mirror_scenarios_test as scenarios
from connectd_e2e import kafka_ssl, ssl_client_props, wait_until
from distributed_cluster import VERIFIABLE_SOURCE, WorkerCluster, count_records, \
    delete_topics, verifiable_records


class DistributedSslTest(unittest.TestCase):

    def setUp(self):
        self.bootstrap, ca = kafka_ssl("ctest-a")
        self.cluster = WorkerCluster(["connectd", "connectd"], name="ssl-" + uuid.uuid4().hex[:8],
                                     props={"bootstrap.servers": self.bootstrap,
                                            **ssl_client_props(ca)})
        self.topic = f"{self.cluster.name}-verifiable"
        # Last: the topics go (through the PLAINTEXT listener) once the workers are stopped.
        self.addCleanup(delete_topics, self.topic, bootstrap=self.cluster.bootstrap)
        self.addCleanup(self.cluster.close)
        self.addCleanup(self._dump_logs_on_failure)

    def _dump_logs_on_failure(self):
        result = getattr(self._outcome, "result", None)
        if result and any(t is self for t, _ in result.failures + result.errors):
            print(self.cluster.tails(), flush=True)

    def test_connectd_pair_runs_a_connector_over_ssl(self):
        c = self.cluster
        t0 = time.time()
        c.start(timeout=90)
        for w in c.workers:
            # The group client found its coordinator on the listener it bootstrapped from.
            wait_until(lambda: f"Discovered group coordinator {self.bootstrap} " in w.tail(400),
                       timeout=10, what=f"{w}: coordinator on the SSL listener")
        name = "verifiable-ssl"
        code, body, text = c.any().post("/connectors", {"name": name, "config": {
            "connector.class": VERIFIABLE_SOURCE, "topic": self.topic, "tasks.max": "2",
            "throughput": "20"}})
        self.assertEqual(code, 201, text)
        c.wait_running(name, 2, timeout=60)

        def spread():
            # The connector and 2 tasks over 2 workers: after the follow-up round each has some.
            s = c.status(name)
            if not s or len(s["tasks"]) != 2 or any(t["state"] != "RUNNING" for t in s["tasks"]):
                return None
            used = {s["connector"]["worker_id"], *(t["worker_id"] for t in s["tasks"])}
            return s if used == {w.worker_id for w in c.workers} else None
        status = wait_until(spread, timeout=30, interval=0.5,
                            what="the connector and its tasks RUNNING on both workers")
        wait_until(lambda: (c.status(name, worker=c[1]) or {}).get("tasks") == status["tasks"],
                   timeout=10, what="the other worker showing the same tasks")
        wait_until(lambda: count_records(self.topic, c.bootstrap) >= 40, timeout=30,
                   what=f"records in {self.topic}")
        by_task = verifiable_records(self.topic, c.bootstrap)
        self.assertEqual(sorted(by_task), [0, 1], f"tasks that wrote: {sorted(by_task)}")
        for task, records in by_task.items():
            self.assertEqual([seq for seq, _ in records], list(range(len(records))),
                             f"task {task}'s seqnos")
        print(f"ssl pair: tasks on {sorted(t['worker_id'] for t in status['tasks'])}, "
              f"{sum(map(len, by_task.values()))} records, {time.time() - t0:.1f} s")
        code, _, text = c.any().delete(f"/connectors/{name}")
        self.assertEqual(code, 204, text)


class MirrorConnectorsSslScenariosTest(scenarios.MirrorConnectorsScenariosTest):
    """The scenarios with the backup cluster on SSL (Java's MirrorConnectorsIntegrationSSLTest)."""

    def setUp(self):
        self.b_ssl, self.b_ca = kafka_ssl("ctest-b")
        super().setUp()

    def mm2_config(self, source, target, **overrides):
        config = super().mm2_config(source, target, **overrides)
        for alias, side in ((source, "source"), (target, "target")):
            if alias == self.backup:
                config[f"{side}.cluster.bootstrap.servers"] = self.b_ssl
                config.update(ssl_client_props(self.b_ca, prefix=f"{side}.cluster."))
        return config

    def worker_props(self, target_bootstrap):
        if target_bootstrap != self.b:
            return {}
        return {"bootstrap.servers": self.b_ssl, **ssl_client_props(self.b_ca)}


if __name__ == "__main__":
    unittest.main()
