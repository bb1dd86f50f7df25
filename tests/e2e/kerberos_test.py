"""SASL/GSSAPI (Kerberos) end to end (issue #28), against the GSSAPI listener the ctest fixture
starts on ctest-a (`scripts/kafka start --kerberos`): a throw-away MIT KDC on loopback (realm
CONNECTD.TEST), the broker's service principal kafka/localhost (the listener is advertised as
localhost), and the client principal connectd-krb with its keytab. User:connectd-krb is no
super user: it can do only what the ACLs granted here allow, so a worker that works
authenticated every client — librdkafka's (through Cyrus SASL's GSSAPI module and kinit) and
connectd's own group client (through GSS-API) — as that principal.

The workers get a Java worker's settings, unchanged: sasl.kerberos.service.name and
Krb5LoginModule with useKeyTab, keyTab and principal. Where Java reads
-Djava.security.krb5.conf, connectd (MIT's library) reads KRB5_CONFIG; librdkafka's kinit keeps
its tickets in the default credential cache, which each process gets its own of here
(KRB5CCNAME), as it would on separate hosts.

- KerberosDistributedTest: a `connectd distributed` pair runs a VerifiableSource connector
  (gap-free records, tasks on both workers); an unknown principal stops start-up with
  Kerberos's own words; without grants no topic is created.
- KerberosMirrorMakerTest: a dedicated `connectd mirror-maker` flow a->b from ctest-a's GSSAPI
  listener to the GSSAPI listener of a target cluster the test starts with the same KDC
  (`scripts/kafka start ... --kerberos-of ctest-a`: one realm, as one organisation's clusters
  share one): every client of the flow, the target's herder group included, uses Kerberos; a
  topic created after start is copied, heartbeats arrive.

Run, from tests/e2e:
    CONNECTD_RUN_DIR=<run dir of ctest-a started with --authorizer --kerberos> \\
        python3 -m unittest -v kerberos_test
"""
import os
import subprocess
import tempfile
import unittest
import uuid

from connectd_e2e import REPO_ROOT, kafka_bootstrap
from distributed_cluster import WorkerCluster, clean_up_pair, run_verifiable_pair
from mirror_maker_test import MirrorMakerTestBase
from secured_cluster_test import AclGrants, cluster_file, run_dir
import secured_mirror

KRB5_LOGIN_MODULE = "com.sun.security.auth.module.Krb5LoginModule"


def use_the_test_kdc():
    """Points this process and its children at ctest-a's KDC."""
    os.environ["KRB5_CONFIG"] = cluster_file("ctest-a", "kerberos_krb5_conf")


def kerberos_client_props(principal=None, cluster="ctest-a"):
    """A Java client's keytab login on `cluster`'s GSSAPI listener."""
    principal = principal or cluster_file(cluster, "kerberos_principal")
    keytab = cluster_file(cluster, "kerberos_keytab")
    return {"bootstrap.servers": cluster_file(cluster, "kerberos_bootstrap"),
            "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "GSSAPI",
            "sasl.kerberos.service.name": "kafka",
            "sasl.jaas.config": f'{KRB5_LOGIN_MODULE} required useKeyTab=true storeKey=true '
                                f'keyTab="{keytab}" principal="{principal}";'}


def own_credential_caches(cluster):
    """A credential cache per worker process, as separate hosts would have."""
    for worker in cluster.workers:
        worker.extra_env = {"KRB5CCNAME": "FILE:" + os.path.join(worker.dir, "krb5cc")}


class KerberosDistributedTest(AclGrants):

    def setUp(self):
        super().setUp()
        use_the_test_kdc()
        principal = cluster_file("ctest-a", "kerberos_principal")
        self.principal = "User:" + principal.split("@")[0]

    def test_pair_over_gssapi(self):
        name = "krb-" + uuid.uuid4().hex[:8]
        self.grant(name)
        props = kerberos_client_props()
        cluster = WorkerCluster(["connectd", "connectd"], name=name, props=props)
        own_credential_caches(cluster)
        topic = clean_up_pair(self, cluster)
        run_verifiable_pair(self, cluster, topic, props["bootstrap.servers"],
                            name=f"{name}-verifiable", listener="GSSAPI",
                            label="pair over GSSAPI (keytab, ACLs)")

    def test_an_unknown_principal_stops_start_up_in_kerberos_words(self):
        name = "krb-stranger-" + uuid.uuid4().hex[:8]
        self.grant(name)
        cluster = WorkerCluster(["connectd"], name=name,
                                props=kerberos_client_props("nobody@CONNECTD.TEST"))
        own_credential_caches(cluster)
        self.addCleanup(cluster.close)
        worker = cluster[0]
        worker.launch()
        worker.proc.wait(timeout=120)
        self.assertEqual(worker.proc.returncode, 1, worker.tail())
        with open(worker.log_path, errors="replace") as f:
            log = f.read()
        # MIT Kerberos' words, from connectd's own login (no kinit runs: issue 48).
        self.assertIn("Kerberos login of nobody@CONNECTD.TEST from keytab", log)
        self.assertIn("Keytab contains no suitable keys for nobody@CONNECTD.TEST", log)
        self.assertNotIn("kinit", log)

    def test_without_grants_the_ticket_creates_no_topic(self):
        name = "krb-noacl-" + uuid.uuid4().hex[:8]
        cluster = WorkerCluster(["connectd"], name=name, props=kerberos_client_props())
        own_credential_caches(cluster)
        self.addCleanup(cluster.close)
        worker = cluster[0]
        worker.launch()
        worker.proc.wait(timeout=120)
        self.assertEqual(worker.proc.returncode, 1, worker.tail())
        self.assertIn(f"creating topic {name}-", worker.tail())
        self.assertIn("Topic authorization failed", worker.tail())


class KerberosMirrorMakerTest(MirrorMakerTestBase):
    """A dedicated MirrorMaker flow a->b over GSSAPI from ctest-a to a target cluster sharing its
    KDC, as the ACL-limited User:connectd-krb on both."""

    @classmethod
    def setUpClass(cls):
        cls.target = "krb-target-" + uuid.uuid4().hex[:6]
        env = dict(os.environ, CONNECTD_RUN_DIR=run_dir())
        out = subprocess.run([os.path.join(REPO_ROOT, "scripts", "kafka"), "start", cls.target,
                              "--authorizer", "--kerberos-of", "ctest-a"],
                             capture_output=True, text=True, env=env, timeout=300)
        if out.returncode != 0:
            raise AssertionError(f"starting {cls.target}: {out.stderr[-3000:]}")

    @classmethod
    def tearDownClass(cls):
        env = dict(os.environ, CONNECTD_RUN_DIR=run_dir())
        subprocess.run([os.path.join(REPO_ROOT, "scripts", "kafka"), "stop", cls.target],
                       capture_output=True, env=env, timeout=120)

    def setUp(self):
        super().setUp()
        use_the_test_kdc()
        self.B = kafka_bootstrap(self.target)
        self.created = {self.A: [], self.B: []}
        principal = cluster_file("ctest-a", "kerberos_principal")
        secured_mirror.grant_flow(self, "User:" + principal.split("@")[0])
        cache = tempfile.mkdtemp(prefix="connectd-krb5cc-")
        os.environ["KRB5CCNAME"] = "FILE:" + os.path.join(cache, "krb5cc")
        self.addCleanup(os.environ.pop, "KRB5CCNAME", None)

    def test_flow_over_gssapi(self):
        secured_mirror.run_flow(
            self, {self.a: kerberos_client_props(cluster="ctest-a"),
                   self.b: kerberos_client_props(cluster=self.target)}, "GSSAPI",
            failures=("Authorization failed", "SASL authentication failed", "GSSAPI:"))

if __name__ == "__main__":
    unittest.main()
