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

JavaKeyStoresTest (issue #28): the same pair over the SSL listener with the client certificate
and CA in the Java stores `scripts/kafka --ssl` writes (JKS, and PKCS12): every client presents
the keystore's certificate and is User:CN=connectd-client, granted as above; without grants the
worker stops at startup (so no client fell back to an anonymous connection); a wrong store
password stops it naming the key, never printing the password.

JavaKeyStoresMirrorMakerTest (issue #28): a dedicated `connectd mirror-maker` flow a->b over the
SSL listeners of ctest-a and ctest-b, the source's clients with JKS stores and the target's with
PKCS12, every one User:CN=connectd-client on its cluster, granted only by ACLs: a topic created
after start is mirrored, heartbeats arrive.

The pair authenticates with SCRAM-SHA-512 (librdkafka 2.14.2, built by scripts/librdkafka).

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
from mirror_maker_test import MirrorMakerTestBase
import secured_mirror


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


class AclGrants(unittest.TestCase):
    """grant(): ACLs for a test's principal on ctest-a, revoked when the test ends."""

    principal = None

    def setUp(self):
        self.plain = kafka_bootstrap("ctest-a")

    def grant(self, name, group=True, principal=None):
        """What a Connect worker of cluster `name` needs, and nothing else."""
        principal = principal or self.principal
        args = ["--add", "--allow-principal", principal, "--operation", "All",
                "--topic", name, "--resource-pattern-type", "prefixed"]
        kafka_acls(self.plain, *args)
        if group:
            kafka_acls(self.plain, "--add", "--allow-principal", principal,
                       "--operation", "All", "--group", name)
        kafka_acls(self.plain, "--add", "--allow-principal", principal,
                   "--operation", "Describe", "--operation", "IdempotentWrite", "--cluster")
        self.addCleanup(self.revoke, name, group, principal)

    def failed_start(self, name, props, timeout=120):
        """Starts one worker of cluster `name` with `props`, asserts it exits 1 at startup and
        returns the end of its log."""
        cluster = WorkerCluster(["connectd"], name=name, props=props)
        self.addCleanup(cluster.close)
        worker = cluster[0]
        worker.launch()
        worker.proc.wait(timeout=timeout)
        self.assertEqual(worker.proc.returncode, 1, worker.tail())
        return worker.tail()

    def revoke(self, name, group, principal):
        kafka_acls(self.plain, "--remove", "--force", "--allow-principal", principal,
                   "--operation", "All", "--topic", name, "--resource-pattern-type", "prefixed")
        if group:
            kafka_acls(self.plain, "--remove", "--force", "--allow-principal", principal,
                       "--operation", "All", "--group", name)


class SecuredClusterTest(AclGrants):

    def setUp(self):
        super().setUp()
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
        tail = self.failed_start(name, self.client_props())
        self.assertIn("Uncaught exception in herder work thread, exiting: Not authorized to "
                      f"access group: {name}", tail)


class JavaKeyStoresTest(AclGrants):
    """Issue #28: a worker pair over SSL whose every client — internal topics, tasks and the
    `connect` group client — presents the client certificate from the Java keystore a Java
    worker would name (JKS or PKCS12) and trusts the CA of a Java truststore of the same type.
    The SSL listener requests a certificate: presenting this one makes the worker
    User:CN=connectd-client, which only the ACLs granted here empower (without a certificate
    it would be User:ANONYMOUS, a super user of the test cluster)."""

    principal = CERT_PRINCIPAL = "User:CN=connectd-client"

    def store_props(self, store_type):
        return java_store_props("ctest-a", store_type)

    def check_pair(self, store_type):
        name = f"stores-{store_type.lower()}-" + uuid.uuid4().hex[:8]
        self.grant(name)
        props = self.store_props(store_type)
        cluster = WorkerCluster(["connectd", "connectd"], name=name, props=props)
        topic = clean_up_pair(self, cluster)
        run_verifiable_pair(self, cluster, topic, props["bootstrap.servers"],
                            name=f"{name}-verifiable", listener="SSL",
                            label=f"pair with {store_type} stores as {self.CERT_PRINCIPAL}")

    def test_pair_with_jks_stores(self):
        self.check_pair("JKS")

    def test_pair_with_pkcs12_stores(self):
        self.check_pair("PKCS12")

    def test_the_certificate_is_who_the_group_client_is(self):
        # Topics granted, the group not: had the group client connected without the certificate
        # (as User:ANONYMOUS, a super user) the worker would join; it stops at the group.
        name = "stores-nogroup-" + uuid.uuid4().hex[:8]
        self.grant(name, group=False)
        tail = self.failed_start(name, self.store_props("JKS"))
        self.assertIn("Uncaught exception in herder work thread, exiting: Not authorized to "
                      f"access group: {name}", tail)

    def test_without_grants_the_certificate_creates_no_topic(self):
        name = "stores-noacl-" + uuid.uuid4().hex[:8]
        tail = self.failed_start(name, self.store_props("PKCS12"))
        self.assertIn(f"creating topic {name}-", tail)
        self.assertIn("Topic authorization failed", tail)

    def test_a_wrong_store_password_stops_start_up_naming_the_key(self):
        props = self.store_props("PKCS12")
        props["ssl.truststore.password"] = "not-the-password"
        tail = self.failed_start("stores-badpw-" + uuid.uuid4().hex[:8], props, timeout=60)
        self.assertIn("ssl.truststore.location: ", tail)
        self.assertIn("failed its integrity check", tail)
        self.assertNotIn("not-the-password", tail)


def java_store_props(cluster, store_type):
    """A Java client's SSL settings for `cluster`'s SSL listener with the client certificate and
    the CA in the Java stores `scripts/kafka --ssl` writes (JKS or PKCS12)."""
    ssl_dir = os.path.join(run_dir(), cluster, "ssl")
    password = cluster_file(cluster, os.path.join("ssl", "store_password"))
    ext = "jks" if store_type == "JKS" else "p12"
    props = {"bootstrap.servers": kafka_ssl(cluster)[0], "security.protocol": "SSL",
             "ssl.truststore.location": os.path.join(ssl_dir, f"truststore.{ext}"),
             "ssl.truststore.password": password,
             "ssl.keystore.location": os.path.join(ssl_dir, f"client.keystore.{ext}"),
             "ssl.keystore.password": password, "ssl.key.password": password}
    if store_type != "JKS":  # Java's default type is JKS: leave it unsaid there
        props["ssl.truststore.type"] = props["ssl.keystore.type"] = store_type
    return props


class JavaKeyStoresMirrorMakerTest(MirrorMakerTestBase):
    """Issue #28: a dedicated MirrorMaker flow a->b over SSL whose every client presents the
    client certificate from Java stores, JKS on the source cluster and PKCS12 on the target, as
    the ACL-limited User:CN=connectd-client on both."""

    def setUp(self):
        super().setUp()
        secured_mirror.grant_flow(self, JavaKeyStoresTest.CERT_PRINCIPAL)

    def test_flow_with_jks_and_pkcs12_stores(self):
        secured_mirror.run_flow(self, {self.a: java_store_props("ctest-a", "JKS"),
                                       self.b: java_store_props("ctest-b", "PKCS12")},
                                "SSL with Java stores")

if __name__ == "__main__":
    unittest.main()
