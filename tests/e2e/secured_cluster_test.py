"""A secured cluster, end to end (issue #10): SASL_SSL with an authorizer that enforces ACLs.

The ctest fixture starts ctest-a with `scripts/kafka start --authorizer --ssl --sasl`, which
gives the broker a SASL_SSL listener (the --ssl CA, PLAIN and SCRAM) and a second SASL user,
connectd-app, that is never a super user. The test grants that user only what a Connect worker
needs, with Kafka's own kafka-acls tool (org.apache.kafka.tools.AclCommand) over the PLAINTEXT
listener:
- ALL on topics prefixed with the cluster's name (internal topics and the data topic),
- ALL on the group named like the cluster,
- DESCRIBE and IDEMPOTENT_WRITE on the cluster,
and runs a pair of connectd workers as connectd-app over SASL_SSL (hostname verification on):
the internal topics (librdkafka), `connect` group membership (connectd's own protocol client)
and the tasks' producers all authenticate, are authorized and work. A VerifiableSource
connector's tasks spread over both workers and write gap-free records.

Then what an SRE sees when an ACL is missing: a worker whose group is not granted stops at
startup: "Uncaught exception in herder work thread, exiting: Not authorized to access group"
and exit status 1, as a Java worker does.

The pair authenticates with SCRAM-SHA-512 when connectd's librdkafka can (scripts/librdkafka's
patched build, which scripts/setup makes, or librdkafka >= 2.6.1: confluentinc/librdkafka#4895,
see sasl_test.py); with an unpatched older librdkafka it runs with PLAIN, and SCRAM is covered by
connectd's own group client (tests/integration/kafka/sasl_group_test.cc).

Run, from tests/e2e (build dir: $CONNECTD_BUILD_DIR, else <repo>/build):
    CONNECTD_RUN_DIR=<run dir of ctest-a started with --authorizer --ssl --sasl> \
        python3 -m unittest -v secured_cluster_test
"""
import os
import subprocess
import unittest
import uuid

from connectd_e2e import BUILD_DIR, REPO_ROOT, kafka_bootstrap, kafka_ssl
from distributed_cluster import WorkerCluster, clean_up_pair, java_bin, run_verifiable_pair


def run_dir():
    return os.environ.get("CONNECTD_RUN_DIR", os.path.join(BUILD_DIR, "kafka-run"))


def cluster_file(cluster, name):
    path = os.path.join(run_dir(), cluster, name)
    if not os.path.exists(path):
        raise AssertionError(f"Kafka test cluster {cluster} in {run_dir()} has no {name}: start "
                             f"it with `scripts/kafka start {cluster} --authorizer --ssl --sasl`")
    with open(path) as f:
        return f.read().strip()


def kafka_acls(bootstrap, *args):
    """Kafka's kafka-acls tool (AclCommand) against `bootstrap`, whose PLAINTEXT principal
    (User:ANONYMOUS) is a super user of the test cluster."""
    classpath = subprocess.run([os.path.join(REPO_ROOT, "scripts", "kafka"), "java-classpath"],
                               capture_output=True, text=True, check=True).stdout.strip()
    out = subprocess.run([java_bin(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", classpath,
                          "org.apache.kafka.tools.AclCommand", "--bootstrap-server", bootstrap,
                          *args], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise AssertionError(f"kafka-acls {args}: {out.stdout}{out.stderr}")
    return out.stdout


class SecuredClusterTest(unittest.TestCase):

    def setUp(self):
        self.plain = kafka_bootstrap("ctest-a")
        self.sasl_ssl = cluster_file("ctest-a", "sasl_ssl_bootstrap")
        self.user = cluster_file("ctest-a", "sasl_app_username")
        self.password = cluster_file("ctest-a", "sasl_app_password")
        self.ca = kafka_ssl("ctest-a")[1]
        self.principal = f"User:{self.user}"

    def client_props(self, mechanism="PLAIN"):
        module = ("org.apache.kafka.common.security.plain.PlainLoginModule" if mechanism == "PLAIN"
                  else "org.apache.kafka.common.security.scram.ScramLoginModule")
        return {"bootstrap.servers": self.sasl_ssl, "security.protocol": "SASL_SSL",
                "ssl.truststore.type": "PEM", "ssl.truststore.location": self.ca,
                "sasl.mechanism": mechanism,
                "sasl.jaas.config": f'{module} required username="{self.user}" '
                                    f'password="{self.password}";'}

    def grant(self, name, group=True):
        """What a Connect worker of cluster `name` needs, and nothing else."""
        args = ["--add", "--allow-principal", self.principal, "--operation", "All",
                "--topic", name, "--resource-pattern-type", "prefixed"]
        kafka_acls(self.plain, *args)
        if group:
            kafka_acls(self.plain, "--add", "--allow-principal", self.principal,
                       "--operation", "All", "--group", name)
        kafka_acls(self.plain, "--add", "--allow-principal", self.principal,
                   "--operation", "Describe", "--operation", "IdempotentWrite", "--cluster")
        self.addCleanup(self.revoke, name, group)

    def revoke(self, name, group):
        kafka_acls(self.plain, "--remove", "--force", "--allow-principal", self.principal,
                   "--operation", "All", "--topic", name, "--resource-pattern-type", "prefixed")
        if group:
            kafka_acls(self.plain, "--remove", "--force", "--allow-principal", self.principal,
                       "--operation", "All", "--group", name)

    def test_pair_as_an_acl_limited_user_over_sasl_ssl(self):
        mechanism = "SCRAM-SHA-512"
        name = "secured-" + uuid.uuid4().hex[:8]
        self.grant(name)
        cluster = WorkerCluster(["connectd", "connectd"], name=name,
                                props=self.client_props(mechanism))
        topic = clean_up_pair(self, cluster)
        self.assertTrue(topic.startswith(name), f"data topic {topic} outside the granted prefix")
        run_verifiable_pair(self, cluster, topic, self.sasl_ssl, name=f"{name}-verifiable",
                            listener="SASL_SSL", label=f"secured pair ({mechanism}, ACLs)")

    def test_missing_group_acl_is_named_at_startup(self):
        name = "secured-nogroup-" + uuid.uuid4().hex[:8]
        self.grant(name, group=False)
        cluster = WorkerCluster(["connectd"], name=name, props=self.client_props())
        self.addCleanup(cluster.close)
        worker = cluster[0]
        worker.launch()
        worker.proc.wait(timeout=120)
        self.assertEqual(worker.proc.returncode, 1, worker.tail())
        self.assertIn("Uncaught exception in herder work thread, exiting: Not authorized to "
                      f"access group: {name}", worker.tail())


if __name__ == "__main__":
    unittest.main()
