"""End to end with HTTP Basic authentication (issue #10, security): two `connectd distributed`
workers with Connect's `rest.extension.classes=...BasicAuthSecurityRestExtension` and the JAAS
file a Java deployment uses (KAFKA_OPTS=-Djava.security.auth.login.config=..., a
PropertyFileLoginModule credentials file).

- Requests without or with wrong credentials are 401 "User cannot access the resource." (what
  a Java 4.4 worker with connect-basic-auth-extension answers), /health included.
- A connector created through the follower is forwarded to the leader with the caller's
  Authorization header (Java's forwarding rule), so it works only because the header travels.
- The follower hands its task configs to the leader through the internal, signed
  POST /connectors/{c}/tasks, which the filter exempts: the connector's tasks run on both
  workers and their records land in Kafka.

Run, from tests/e2e (build dir: $CONNECTD_BUILD_DIR, else <repo>/build):
    CONNECTD_RUN_DIR=<run dir of the ctest clusters> python3 -m unittest -v basic_auth_test
"""
import base64
import json
import os
import tempfile
import unittest
import urllib.error
import urllib.request
import uuid

from distributed_cluster import (VERIFIABLE_SOURCE, WorkerCluster, count_records, delete_topics,
                                 wait_until)

USER, PASSWORD = "alice", "s3cret:with-colon"


def request(method, url, body=None, credentials=None, timeout=30):
    """(status, text, headers) of one request, with HTTP Basic `credentials` (user, password)."""
    headers = {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if credentials:
        token = base64.b64encode(":".join(credentials).encode()).decode()
        headers["Authorization"] = "Basic " + token
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read().decode(), dict(resp.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), dict(e.headers)


class BasicAuthDistributedTest(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="connectd-basic-auth-")
        credentials = os.path.join(self.dir, "credentials.properties")
        with open(credentials, "w") as f:
            f.write(f"# Connect's PropertyFileLoginModule format\n{USER}={PASSWORD}\nbob=other\n")
        jaas = os.path.join(self.dir, "jaas.conf")
        with open(jaas, "w") as f:
            f.write("KafkaConnect {\n"
                    "  org.apache.kafka.connect.rest.basic.auth.extension.PropertyFileLoginModule"
                    f" required\n  file=\"{credentials}\";\n}};\n")
        self.cluster = WorkerCluster(
            ["connectd", "connectd"], name="auth-" + uuid.uuid4().hex[:8],
            props={"rest.extension.classes": "org.apache.kafka.connect.rest.basic.auth."
                                             "extension.BasicAuthSecurityRestExtension"})
        self.topic = f"{self.cluster.name}-verifiable"
        self.addCleanup(delete_topics, self.topic, bootstrap=self.cluster.bootstrap)
        self.addCleanup(self.cluster.close)
        old = os.environ.get("KAFKA_OPTS")
        os.environ["KAFKA_OPTS"] = f"-Xmx1g -Djava.security.auth.login.config={jaas}"
        try:
            for w in self.cluster.workers:
                w.launch()
        finally:
            if old is None:
                del os.environ["KAFKA_OPTS"]
            else:
                os.environ["KAFKA_OPTS"] = old

    def ok(self, worker, method, path, body=None):
        return request(method, worker.url + path, body, credentials=(USER, PASSWORD))

    def test_credentials_forwarding_and_signed_internal_requests(self):
        c = self.cluster
        def healthy(w):
            if not w.alive():
                raise AssertionError(f"{w} exited:\n{w.tail()}")
            try:
                return self.ok(w, "GET", "/health")[0] == 200
            except OSError:  # not listening yet
                return False
        for w in c.workers:
            wait_until(lambda: healthy(w), timeout=90, interval=0.25,
                       what=f"{w}: /health with credentials")

        for credentials in (None, (USER, "wrong"), ("mallory", PASSWORD), ("", PASSWORD)):
            code, text, headers = request("GET", c[0].url + "/connectors", credentials=credentials)
            self.assertEqual((code, text), (401, "User cannot access the resource."), credentials)
            self.assertNotIn("WWW-Authenticate", headers)
        self.assertEqual(request("GET", c[1].url + "/health")[0], 401)
        self.assertEqual(request("GET", c[1].url + "/no-such-path")[0], 404)  # routing first
        code, text, _ = self.ok(c[0], "GET", "/")
        self.assertEqual(code, 200, text)

        # Created through each worker in turn: one of them is a follower, which forwards the
        # request with the caller's Authorization header to the leader.
        leader_url = None
        for i, w in enumerate(c.workers):
            code, text, _ = self.ok(w, "POST", "/connectors", {"name": f"probe-{i}", "config": {
                "connector.class": VERIFIABLE_SOURCE, "topic": self.topic + "-probe",
                "tasks.max": "1", "throughput": "1"}})
            self.assertEqual(code, 201, f"{w}: {text}")
        for i in range(len(c.workers)):
            self.assertEqual(self.ok(c[0], "DELETE", f"/connectors/probe-{i}")[0], 204)
        delete_topics(self.topic + "-probe", bootstrap=c.bootstrap)

        # Two connectors on two workers: the assignor gives each worker one, so one connector's
        # owner is a follower, which gets its task configs to the leader only through the
        # exempt, signed internal request POST /connectors/{c}/tasks.
        names = ["verifiable-a", "verifiable-b"]
        for name in names:
            code, text, _ = self.ok(c[1], "POST", "/connectors", {"name": name, "config": {
                "connector.class": VERIFIABLE_SOURCE, "topic": self.topic, "tasks.max": "1",
                "throughput": "20"}})
            self.assertEqual(code, 201, text)

        def running():
            owners = set()
            for name in names:
                code, text, _ = self.ok(c[0], "GET", f"/connectors/{name}/status")
                if code != 200:
                    return None
                s = json.loads(text)
                if len(s["tasks"]) != 1 or s["tasks"][0]["state"] != "RUNNING":
                    return None
                owners.add(s["connector"]["worker_id"])
            return owners
        owners = wait_until(running, timeout=60, interval=0.5,
                            what="both connectors' tasks RUNNING")
        wait_until(lambda: running() == {w.worker_id for w in c.workers}, timeout=30,
                   interval=0.5, what="one connector on each worker")
        wait_until(lambda: count_records(self.topic, c.bootstrap) >= 40, timeout=30,
                   what=f"records in {self.topic}")
        print(f"basic auth: connectors owned by {sorted(owners)}, "
              f"{count_records(self.topic, c.bootstrap)} records")
        for name in names:
            self.assertEqual(self.ok(c[0], "DELETE", f"/connectors/{name}")[0], 204)


if __name__ == "__main__":
    unittest.main()
