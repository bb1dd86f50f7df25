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
import unittest
import uuid

import mirror_scenarios_test as scenarios
from connectd_e2e import kafka_ssl, ssl_client_props
from distributed_cluster import WorkerCluster, clean_up_pair, run_verifiable_pair


class DistributedSslTest(unittest.TestCase):

    def setUp(self):
        self.bootstrap, ca = kafka_ssl("ctest-a")
        self.cluster = WorkerCluster(["connectd", "connectd"], name="ssl-" + uuid.uuid4().hex[:8],
                                     props={"bootstrap.servers": self.bootstrap,
                                            **ssl_client_props(ca)})
        self.topic = clean_up_pair(self, self.cluster)

    def test_connectd_pair_runs_a_connector_over_ssl(self):
        run_verifiable_pair(self, self.cluster, self.topic, self.bootstrap, name="verifiable-ssl",
                            listener="SSL", label="ssl pair", same_tasks_on_both=True)


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
