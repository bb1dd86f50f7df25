"""SASL/OAUTHBEARER end to end (issue #28), against the OAUTH listeners the ctest fixture starts
(`scripts/kafka start --oauth`): RS256 JWTs from a throw-away identity provider on loopback
(scripts/lib/oidc_server.py), verified by the broker with the provider's JWKS. The provider's
client connectd-oauth gets tokens for User:connectd-oauth, which is no super user: it can do only
what the ACLs granted here allow, so a worker that works authenticated every client — librdkafka's
(internal topics, tasks, MirrorMaker's) and connectd's own group client — as that principal.
Tokens live 30 s and the listener ends a session after 20 s, or when its token expires, unless
the client re-authenticates (KIP-368): the tests run past both.

The workers get a Java worker's settings, unchanged: KIP-768's OAuthBearerLoginCallbackHandler,
sasl.oauthbearer.token.endpoint.url and OAuthBearerLoginModule's clientId/clientSecret.

- OAuthDistributedTest: a `connectd distributed` pair runs a VerifiableSource connector, then,
  past the first tokens' expiry, a second one: gap-free records, no rebalance caused by a lost
  session, several tokens fetched; a wrong client secret stops start-up naming the token
  endpoint's refusal and never printing the secret; without grants no topic is created.
- OAuthMirrorMakerTest: a dedicated `connectd mirror-maker` flow a->b whose every client uses
  OAUTHBEARER on both clusters copies a topic created after start, with heartbeats.

Run, from tests/e2e:
    CONNECTD_RUN_DIR=<run dir of ctest-a/b started with --authorizer --oauth> \\
        python3 -m unittest -v oauth_test
"""
import json
import os
import re
import time
import unittest
import urllib.request
import uuid

from connectd_e2e import kafka_bootstrap, wait_until
from distributed_cluster import WorkerCluster, clean_up_pair, count_records, run_verifiable_pair
from distributed_cluster import VERIFIABLE_SOURCE, tool
from mirror_maker_test import MirrorMakerTestBase
from secured_cluster_test import AclGrants, cluster_file
import secured_mirror

OIDC_HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"


def setUpModule():
    """Java 4.x fetches OAuth tokens only from the URLs this system property lists, and so does
    connectd (issue 48): the workers get it through KAFKA_OPTS, as a Java worker would."""
    urls = ",".join(cluster_file(c, "oauth_token_url") for c in ("ctest-a", "ctest-b"))
    previous = os.environ.get("KAFKA_OPTS")
    os.environ["KAFKA_OPTS"] = f"{previous or ''} " \
        f"-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls={urls}".strip()
    unittest.addModuleCleanup(
        lambda: os.environ.pop("KAFKA_OPTS") if previous is None
        else os.environ.__setitem__("KAFKA_OPTS", previous))


def oauth_client_props(cluster="ctest-a", secret=None):
    """A Java client's OIDC client-credentials settings for `cluster`'s OAUTH listener."""
    client_id = cluster_file(cluster, "oauth_client_id")
    secret = secret or cluster_file(cluster, "oauth_client_secret")
    return {"bootstrap.servers": cluster_file(cluster, "oauth_bootstrap"),
            "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
            "sasl.login.callback.handler.class": OIDC_HANDLER,
            "sasl.oauthbearer.token.endpoint.url": cluster_file(cluster, "oauth_token_url"),
            "sasl.jaas.config": f'{LOGIN_MODULE} required clientId="{client_id}" '
                                f'clientSecret="{secret}";'}


def generation(worker):
    """The last generation `worker` joined its group in."""
    joined = re.findall(r"Joined group \S+ at generation (\d+)", worker.tail(4000))
    return int(joined[-1]) if joined else 0


def tokens_issued(cluster="ctest-a"):
    url = cluster_file(cluster, "oauth_token_url").rsplit("/", 1)[0] + "/stats"
    with urllib.request.urlopen(url, timeout=10) as response:
        stats = json.load(response)
    return stats["issued"].get(cluster_file(cluster, "oauth_client_id"), 0)


class OAuthDistributedTest(AclGrants):

    def setUp(self):
        super().setUp()
        self.principal = "User:" + cluster_file("ctest-a", "oauth_client_id")

    def test_pair_over_oauthbearer_past_token_expiry(self):
        name = "oauth-" + uuid.uuid4().hex[:8]
        self.grant(name)
        props = oauth_client_props()
        issued_before = tokens_issued()
        cluster = WorkerCluster(["connectd", "connectd"], name=name, props=props)
        topic = clean_up_pair(self, cluster)
        started = time.time()
        run_verifiable_pair(self, cluster, topic, props["bootstrap.servers"],
                            name=f"{name}-verifiable", listener="OAUTH",
                            label="pair over OAUTHBEARER (OIDC client credentials, ACLs)")
        time.sleep(3)  # the rounds that removing the connector caused
        idle = [generation(w) for w in cluster.workers]

        # Past the first tokens' expiry (30 s) and the listener's session limit (20 s): new
        # clients get new tokens, open connections re-authenticated.
        time.sleep(max(0, started + 40 - time.time()))
        # An idle group has no rounds: a session the broker cut would have made one.
        self.assertEqual([generation(w) for w in cluster.workers], idle,
                         "the group rebalanced while idle past the tokens' expiry")
        second = f"{name}-late"
        self.addCleanup(tool, "delete", cluster.bootstrap, f"{second}-topic")
        code, _, text = cluster.any().post("/connectors", {"name": second, "config": {
            "connector.class": VERIFIABLE_SOURCE, "topic": f"{second}-topic", "tasks.max": "2",
            "throughput": "20"}})
        self.assertEqual(code, 201, text)
        cluster.wait_running(second, 2, timeout=60)
        wait_until(lambda: count_records(f"{second}-topic", cluster.bootstrap) >= 40,
                   timeout=30, what=f"records in {second}-topic after the tokens expired")
        for worker in cluster.workers:
            # A coordinator still loading its partition (a new group, a broker just started) is
            # the broker's start-up, not a session the broker cut.
            log = "\n".join(line for line in worker.tail(4000).splitlines()
                            if "(COORDINATOR_LOAD_IN_PROGRESS)" not in line)
            for failure in ("re-authentication", "SASL authentication failed",
                            "Failed to acquire SASL OAUTHBEARER token", "is unavailable or invalid"):
                self.assertNotIn(failure, log, f"{worker}: {failure}")
            # The second connector's rounds (its connector, then its tasks), nothing more.
            self.assertLessEqual(generation(worker), idle[0] + 2, f"{worker} rejoined")
        # Each worker fetched its own tokens and renewed them at 80% of their 30 s lifetime.
        self.assertGreaterEqual(tokens_issued() - issued_before, 4)

    def test_a_wrong_client_secret_stops_start_up_naming_the_refusal(self):
        name = "oauth-badsecret-" + uuid.uuid4().hex[:8]
        self.grant(name)
        tail = self.failed_start(name, oauth_client_props(secret="not-the-secret"), timeout=120)
        self.assertIn("401", tail)
        self.assertIn(cluster_file("ctest-a", "oauth_token_url"), tail)
        self.assertNotIn("not-the-secret", tail)

    def test_without_grants_the_token_creates_no_topic(self):
        name = "oauth-noacl-" + uuid.uuid4().hex[:8]
        tail = self.failed_start(name, oauth_client_props())
        self.assertIn(f"creating topic {name}-", tail)
        self.assertIn("Topic authorization failed", tail)


class OAuthMirrorMakerTest(MirrorMakerTestBase):
    """A dedicated MirrorMaker flow a->b over OAUTHBEARER on both clusters, as an ACL-limited
    principal on each."""

    def setUp(self):
        super().setUp()
        secured_mirror.grant_flow(self, "User:" + cluster_file("ctest-a", "oauth_client_id"))

    def test_flow_over_oauthbearer(self):
        secured_mirror.run_flow(self, {self.a: oauth_client_props("ctest-a"),
                                       self.b: oauth_client_props("ctest-b")}, "OAUTHBEARER",
                                failures=("Authorization failed", "SASL authentication failed"))

if __name__ == "__main__":
    unittest.main()
