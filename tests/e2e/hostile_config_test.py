"""Hostile connector configs (issue 48): whoever reaches the REST API writes connector configs, so
every value is an attack. A standalone worker with default settings (the MirrorMaker and
FileStream plugins on its plugin.path, a FileConfigProvider allowed one directory) runs under
strace, which records every program it starts and every address it connects to, beside a canary
listener that counts every connection made to it.

For every string key a connector config can set — each plugin's own keys (its ConfigDef as
/connector-plugins/{p}/config/validate lists it, Connect's framework keys, transforms and
predicates among them), every Java client key under each client prefix (producer.override.*,
consumer.override.*, source.cluster.*, target.cluster.*, the MirrorMaker client prefixes) and
librdkafka's keys that load code or run commands — values with shell metacharacters, $(),
backticks, newlines, path traversal, file: and http: URLs and host:port pointing at the canary,
and config-provider references to files outside the allowed directory are tried:

- phase A: each (key, value) alone through the validate endpoint;
- phase B: per plugin and value, one connector with that value in every key validation accepted,
  created, run for a while (tasks start, clients are made) and deleted;
- phase C: the attacks of the issue and Kafka's CVEs of this class, each refused at creation with
  an error that names the key (the Kerberos principal/keytab of the issue's reproduction, the
  OAuth token endpoint and JNDI/LDAP login modules pointed at the canary, a shared object that
  marks when loaded named in plugin.path-like keys, the file offset store, the mock cluster).

At the end: no file created by any value, no program started (strace: one execve, the worker's
own), no connection to the canary and none outside loopback but DNS, the marking shared object
never loaded. The detectors are checked first (the canary counts a connection, strace sees the
worker's connections to its broker, the shared object marks when loaded), so the test cannot
pass by not looking. The summary line gives the counts:

    summary: configs=N validated=A created=B scenarios=C refused=R side_effects=0
"""
import ctypes
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import uuid
from concurrent.futures import ThreadPoolExecutor

from connectd_e2e import (FILE_CONNECTORS, PLUGINS, REPO_ROOT, StandaloneWorker, kafka_bootstrap,
                          wait_until)

FILE_SOURCE = "org.apache.kafka.connect.file.FileStreamSourceConnector"
FILE_SINK = "org.apache.kafka.connect.file.FileStreamSinkConnector"
MIRROR_SOURCE = "org.apache.kafka.connect.mirror.MirrorSourceConnector"
MIRROR_HEARTBEAT = "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector"
MIRROR_CHECKPOINT = "org.apache.kafka.connect.mirror.MirrorCheckpointConnector"
KRB5 = "com.sun.security.auth.module.Krb5LoginModule"
STRING_TYPES = {"STRING", "PASSWORD", "LIST", "CLASS"}
# librdkafka's names a connector config could try (they load code, run a command, write files,
# open listeners or take pointers); on top of Java's client keys.
LIBRDKAFKA_DANGEROUS = ["plugin.library.paths", "ssl.engine.location", "ssl.engine.id",
                        "ssl.providers", "sasl.kerberos.kinit.cmd", "offset.store.method",
                        "offset.store.path", "test.mock.num.brokers", "ut_handle_ProduceResponse",
                        "sasl.oauthbearer.assertion.file",
                        "sasl.oauthbearer.metadata.authentication.type", "interceptors", "opaque",
                        "debug", "log.queue", "enable.partition.eof"]


def java_client_keys():
    path = os.path.join(REPO_ROOT, "tests", "golden", "client_defaults", "java_client_defaults.tsv")
    with open(path) as f:
        return sorted({line.split("\t")[1] for line in f.read().splitlines()[1:]})


class Canary:
    """A TCP listener on loopback that counts every connection made to it."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.count = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.count += 1
            try:
                conn.sendall(b"HTTP/1.1 500 canary\r\nContent-Length: 0\r\n\r\n")
            except OSError:
                pass
            conn.close()

    def attempts(self):
        with self._lock:
            return self.count

    def close(self):
        self.sock.close()


class TracedWorker(StandaloneWorker):
    """A standalone worker under `strace -f`: every execve and connect it makes, to a file."""

    def __init__(self, trace_path, **kwargs):
        super().__init__(**kwargs)
        self.trace_path = trace_path

    def command(self, properties_path):
        return ["strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=execve,execveat,connect",
                "-o", self.trace_path, *super().command(properties_path)]

    def trace(self):
        with open(self.trace_path, errors="replace") as f:
            return f.read()


def connects(trace):
    """(family, address, port) of every connect() in an strace log."""
    out = []
    for line in trace.splitlines():
        if " connect(" not in line:
            continue
        inet = re.search(r'sin6?_port=htons\((\d+)\).*?(?:inet_addr\("([^"]+)"\)|'
                         r'inet_pton\(AF_INET6, "([^"]+)")', line)
        if inet:
            out.append(("inet", inet.group(2) or inet.group(3), int(inet.group(1))))
        elif "AF_UNIX" in line:
            out.append(("unix", line, 0))
    return out


def execs(trace):
    return [line for line in trace.splitlines() if re.search(r" execve(at)?\(", line)]


def nameservers():
    servers = set()
    try:
        with open("/etc/resolv.conf") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 2 and parts[0] == "nameserver":
                    servers.add(parts[1])
    except OSError:
        pass
    return servers


class HostileConfigTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="connectd-hostile-")
        cls.markers = os.path.join(cls.work, "markers")
        cls.allowed = os.path.join(cls.work, "allowed")
        os.makedirs(cls.markers)
        os.makedirs(cls.allowed)
        with open(os.path.join(cls.allowed, "secrets.properties"), "w") as f:
            f.write("password=allowed-secret\n")
        cls.canary = Canary()
        cls.shared_object = cls.build_marking_shared_object()
        cls.bootstrap = kafka_bootstrap("ctest-a")
        cls.target = kafka_bootstrap("ctest-b")
        os.environ.pop("KAFKA_OPTS", None)  # Java's defaults: no token URL, no JNDI, no LDAP
        cls.worker = TracedWorker(
            os.path.join(cls.work, "worker.strace"),
            plugin_path=f"{PLUGINS},{FILE_CONNECTORS}",
            extra={"config.providers": "file",
                   "config.providers.file.class":
                       "org.apache.kafka.common.config.provider.FileConfigProvider",
                   "config.providers.file.param.allowed.paths": cls.allowed}).start()
        cls.tried = cls.validated = cls.created = cls.scenarios = cls.refused = 0

    @classmethod
    def tearDownClass(cls):
        try:
            cls.worker.stop(timeout=90)
        except subprocess.TimeoutExpired:
            cls.worker.kill9()
        cls.canary.close()
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def build_marking_shared_object(cls):
        """A shared object that creates <markers>/so-loaded when something loads it."""
        source = os.path.join(cls.work, "marker.c")
        with open(source, "w") as f:
            f.write('#include <fcntl.h>\n#include <unistd.h>\n'
                    '__attribute__((constructor)) static void loaded(void) {\n'
                    f'  int fd = open("{cls.markers}/so-loaded", O_CREAT | O_WRONLY, 0644);\n'
                    '  if (fd >= 0) close(fd);\n}\n')
        library = os.path.join(cls.work, "libmarker.so")
        subprocess.run(["cc", "-shared", "-fPIC", "-o", library, source], check=True)
        return library

    # ---- the values and keys ----------------------------------------------------------------

    def values(self, key):
        m = self.markers
        out = [("dollar", f"$(touch {m}/dollar-{key})"), ("backtick", f"`touch {m}/backtick`"),
               ("semicolon", f"x;touch {m}/semicolon;"), ("pipe", f"x|touch {m}/pipe"),
               ("newline", f"x\ntouch {m}/newline\n"),
               ("traversal", "../../../../../../../../etc/passwd"),
               ("file-url", "file:///etc/passwd"),
               ("provider", "${file:/etc/passwd:root}"),
               ("shared-object", self.shared_object)]
        # Bootstrap servers are dialled by design (a MirrorMaker flow names its clusters, as in
        # Java); every other key gets the canary too.
        if not key.endswith("bootstrap.servers"):
            out += [("http-url", f"http://127.0.0.1:{self.canary.port}/hostile"),
                    ("host-port", f"127.0.0.1:{self.canary.port}")]
        return out

    def base_config(self, cls):
        topic = f"hostile-{uuid.uuid4().hex[:6]}"
        name = f"hostile-{uuid.uuid4().hex[:6]}"
        if cls == FILE_SOURCE:
            return {"connector.class": cls, "name": name,
                    "file": os.path.join(self.work, "in.txt"), "topic": topic}
        if cls == FILE_SINK:
            return {"connector.class": cls, "name": name,
                    "file": os.path.join(self.work, "out.txt"), "topics": topic}
        config = {"connector.class": cls, "name": name,
                  "source.cluster.alias": "ha", "target.cluster.alias": "hb",
                  "source.cluster.bootstrap.servers": self.bootstrap,
                  "target.cluster.bootstrap.servers": self.target}
        if cls == MIRROR_SOURCE:
            config["topics"] = topic
        return config

    def plugin_keys(self, cls):
        status, body, text = self.worker.put(
            f"/connector-plugins/{cls}/config/validate", {"connector.class": cls, "name": "probe"})
        self.assertEqual(status, 200, text)
        return sorted(c["definition"]["name"] for c in body["configs"]
                      if c["definition"]["type"] in STRING_TYPES)

    def client_keys(self, cls):
        keys = java_client_keys() + LIBRDKAFKA_DANGEROUS
        if cls == FILE_SOURCE:
            prefixes = ["producer.override."]
        elif cls == FILE_SINK:
            prefixes = ["consumer.override."]
        elif cls == MIRROR_SOURCE:
            prefixes = ["source.cluster.", "target.cluster.", "consumer.", "producer.", "admin.",
                        "source.consumer.", "target.producer.", "source.admin.", "target.admin."]
        else:
            prefixes = ["source.cluster.", "target.cluster."]
        return [p + k for p in prefixes for k in keys]

    def stage_keys(self):
        """Transformation and predicate keys, each set beside a valid chain."""
        chain = {"transforms": "t", "transforms.t.type":
                 "org.apache.kafka.connect.transforms.RegexRouter",
                 "transforms.t.regex": "(.*)", "transforms.t.replacement": "$1",
                 "transforms.t.predicate": "p", "predicates": "p",
                 "predicates.p.type":
                     "org.apache.kafka.connect.transforms.predicates.TopicNameMatches",
                 "predicates.p.pattern": ".*"}
        return chain, list(chain)

    # ---- the phases -------------------------------------------------------------------------

    def validate(self, cls, config):
        status, body, text = self.worker.put(f"/connector-plugins/{cls}/config/validate", config)
        return status, body, text

    def check_answer(self, key, status, body, text, problems):
        """A validation answer: 200 with the errors on their keys (or an error body naming it)."""
        if status == 200:
            errors = [(c["value"]["name"], e) for c in body["configs"]
                      for e in c["value"]["errors"]]
            # A transformation's or predicate's own key is named as its stage names it
            # ("... for configuration pattern: ..."), as in Java's messages.
            short = key.rsplit(".", 1)[-1] if key.startswith(("transforms.", "predicates.")) \
                else key
            if errors and not any(name == key or key in e or f"configuration {short}" in e
                                  for name, e in errors):
                problems.append(f"{key}: errors name other keys only: {errors[:3]}")
            return bool(errors)
        if status == 400 and body and body.get("error_code") == 400:
            if key not in body["message"]:
                problems.append(f"{key}: 400 not naming the key: {body['message'][:200]}")
            return True
        problems.append(f"{key}: HTTP {status}: {text[:200]}")
        return True

    def phase_a(self):
        """Each (key, value) alone through the validate endpoint; the keys validation accepts
        each value in, per plugin."""
        accepted = {}
        problems = []
        jobs = []
        chain, stage_keys = self.stage_keys()
        for cls in (FILE_SOURCE, FILE_SINK, MIRROR_SOURCE, MIRROR_HEARTBEAT, MIRROR_CHECKPOINT):
            # connector.class picks the plugin (the endpoint refuses another, as Connect does).
            keys = sorted(set(self.plugin_keys(cls) + self.client_keys(cls) + stage_keys) -
                          {"connector.class"})
            for key in keys:
                for name, value in self.values(key):
                    config = self.base_config(cls)
                    if key in chain:
                        config.update(chain)
                    config[key] = value
                    jobs.append((cls, key, name, config))

        def run(job):
            cls, key, name, config = job
            status, body, text = self.validate(cls, config)
            return job, status, body, text

        with ThreadPoolExecutor(max_workers=4) as pool:
            for (cls, key, name, config), status, body, text in pool.map(run, jobs):
                refused = self.check_answer(key, status, body, text, problems)
                type(self).tried += 1
                type(self).validated += 1
                if refused:
                    type(self).refused += 1
                else:
                    accepted.setdefault((cls, name), []).append(key)
        kinds = {}
        for problem in problems:
            kinds.setdefault(re.sub(r"[^:]*: ", "", problem, count=1)[:60], problem)
        for problem in list(kinds.values())[:40]:
            print("problem:", problem[:400])
        self.assertEqual(problems[:20], [], f"{len(problems)} answers")
        return accepted

    def phase_b(self, accepted):
        """Per plugin and value: one connector with the value in every key validation accepted
        it in (bootstrap servers kept: they are dialled by design), run, then deleted."""
        created = []
        # Kept as the base config has them: the cluster addresses, the connector's identity, and
        # the FileStream connectors' file, which they read and write by design (the reason they
        # are not on the default plugin.path): a hostile path there would be read or written.
        kept = {"name", "connector.class", "file"}
        for (cls, name), keys in sorted(accepted.items()):
            config = self.base_config(cls)
            value = dict(self.values("x"))[name]
            for key in keys:
                if not key.endswith("bootstrap.servers") and key not in kept:
                    config[key] = value
            connector = config["name"]
            status, body, text = self.worker.post("/connectors",
                                                  {"name": connector, "config": config})
            type(self).tried += 1
            if status == 201:
                type(self).created += 1
                created.append(connector)
            else:
                type(self).refused += 1
                self.assertEqual(status, 400, text)
        # Tasks start and make their clients; then every connector goes.
        wait_until(lambda: all(self.worker.state(c) is not None for c in created), timeout=60,
                   what="every hostile connector to report a state")
        time.sleep(5)
        for connector in created:
            self.worker.delete(f"/connectors/{connector}")

    def expect_refused(self, cls, extra, key, *words):
        """POST /connectors with `extra` over the plugin's base config: 400 naming `key`."""
        config = self.base_config(cls)
        config.update(extra)
        status, body, text = self.worker.post("/connectors",
                                              {"name": config["name"], "config": config})
        type(self).tried += 1
        type(self).scenarios += 1
        type(self).refused += 1
        self.assertEqual(status, 400, text)
        self.assertIn(key, body["message"])
        for word in words:
            self.assertIn(word, body["message"])

    def phase_c(self):
        marker = self.markers
        gssapi = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "GSSAPI",
                  "sasl.kerberos.service.name": "kafka"}
        # The reproduction, through a FileStreamSource's producer overrides.
        jaas = (f'{KRB5} required useKeyTab=true keyTab="kt$(touch {marker}/a)" '
                f'principal="x;touch {marker}/b";')
        self.expect_refused(FILE_SOURCE, {**{f"producer.override.{k}": v for k, v in gssapi.items()},
                                          "producer.override.sasl.jaas.config": jaas},
                            "producer.override.sasl.jaas.config", "principal is refused")
        good_principal = (f'{KRB5} required useKeyTab=true keyTab="kt$(touch {marker}/a)" '
                          f'principal="kafka/host@EXAMPLE.COM";')
        self.expect_refused(FILE_SOURCE, {**{f"producer.override.{k}": v for k, v in gssapi.items()},
                                          "producer.override.sasl.jaas.config": good_principal},
                            "producer.override.sasl.jaas.config", "keyTab is refused")
        # ... and through a MirrorHeartbeat's target cluster, a principal with backticks.
        backticks = (f'{KRB5} required useKeyTab=true keyTab="/etc/krb5.keytab" '
                     f'principal="`touch {marker}/c`@R";')
        self.expect_refused(MIRROR_HEARTBEAT,
                            {**{f"target.cluster.{k}": v for k, v in gssapi.items()},
                             "target.cluster.sasl.jaas.config": backticks},
                            "target.cluster.sasl.jaas.config", "principal is refused")
        # CVE-2025-27817: a token endpoint on the canary (Java 4.x's allow-list is empty).
        oauth = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "OAUTHBEARER",
                 "sasl.login.callback.handler.class":
                     "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
                 "sasl.oauthbearer.token.endpoint.url": f"http://127.0.0.1:{self.canary.port}/t",
                 "sasl.jaas.config": "org.apache.kafka.common.security.oauthbearer."
                                     "OAuthBearerLoginModule required clientId=a clientSecret=b;"}
        self.expect_refused(FILE_SOURCE, {f"producer.override.{k}": v for k, v in oauth.items()},
                            "producer.override.sasl.oauthbearer.token.endpoint.url",
                            "cannot be accessed due to restrictions")
        self.expect_refused(MIRROR_SOURCE, {f"source.cluster.{k}": v for k, v in oauth.items()},
                            "source.cluster.sasl.oauthbearer.token.endpoint.url",
                            "cannot be accessed due to restrictions")
        # CVE-2023-25194 / CVE-2025-27818: JNDI and LDAP login modules at the canary.
        for module in ("JndiLoginModule", "LdapLoginModule"):
            ldap = {"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
                    "sasl.jaas.config": f'com.sun.security.auth.module.{module} required '
                                        f'user.provider.url="ldap://127.0.0.1:{self.canary.port}/o" '
                                        'userProvider="ldap://127.0.0.1:1/o";'}
            self.expect_refused(FILE_SINK, {f"consumer.override.{k}": v for k, v in ldap.items()},
                                "consumer.override.sasl.jaas.config", f"{module} is not allowed")
        # Code: librdkafka's plugin and engine loaders, pointed at the marking shared object.
        for key in ("plugin.library.paths", "ssl.engine.location", "ssl.providers"):
            self.expect_refused(FILE_SOURCE, {f"producer.override.{key}": self.shared_object},
                                f"producer.override.{key}", "is not accepted")
            self.expect_refused(MIRROR_SOURCE, {f"target.producer.{key}": self.shared_object},
                                f"target.producer.{key}", "is not accepted")
        # A command line, the file offset store, librdkafka's in-process mock cluster.
        self.expect_refused(FILE_SINK, {"consumer.override.offset.store.method": "file",
                                        "consumer.override.offset.store.path": f"{marker}/o"},
                            "consumer.override.offset.store", "is not accepted")
        self.expect_refused(FILE_SOURCE, {"producer.override.test.mock.num.brokers": "3"},
                            "producer.override.test.mock.num.brokers", "not a Kafka client config")
        self.expect_refused(FILE_SOURCE, {**{f"producer.override.{k}": v for k, v in gssapi.items()},
                                          "producer.override.sasl.kerberos.kinit.cmd":
                                              f"touch {marker}/kinit",
                                          "producer.override.sasl.jaas.config":
                                              f'{KRB5} required useTicketCache=true;'},
                            "producer.override.sasl.kerberos.kinit.cmd", "runs no kinit")
        # Found by the client_config fuzz target: a key store naming a directory threw through
        # the translation (a crash of the worker), a device would be read without end.
        for path in ("/", "/dev/zero"):
            self.expect_refused(FILE_SOURCE, {"producer.override.security.protocol": "SSL",
                                              "producer.override.ssl.truststore.location": path},
                                "producer.override.ssl.truststore.location")
        # A value std::regex recursed into until the stack ran out (bd56ef5: the worker died).
        config = self.base_config(FILE_SOURCE)
        config["x.note"] = "${" + "a" * 150000 + ":" + "b" * 150000
        status, body, text = self.worker.post("/connectors",
                                              {"name": config["name"], "config": config})
        type(self).tried += 1
        type(self).scenarios += 1
        self.assertEqual(status, 201, text[:300])
        self.worker.delete(f"/connectors/{config['name']}")
        self.assertIsNone(self.worker.proc.poll(), "the worker died of a long value")
        # A config-provider reference outside allowed.paths stays a reference: the connector
        # gets the text, never the file (KIP-993); one inside resolves.
        config = self.base_config(FILE_SOURCE)
        name = config["name"]
        config["file"] = "${file:/etc/passwd:root}"
        status, body, text = self.worker.post("/connectors", {"name": name, "config": config})
        type(self).tried += 1
        type(self).scenarios += 1
        self.assertEqual(status, 201, text)
        wait_until(lambda: self.worker.get(f"/connectors/{name}/tasks")[0] == 200, timeout=30,
                   what="the provider connector's tasks")
        tasks = self.worker.get(f"/connectors/{name}/tasks")[2]
        self.assertNotIn("/bin/", tasks)  # /etc/passwd's shells
        self.worker.delete(f"/connectors/{name}")

    def test_hostile_configs_have_no_side_effect(self):
        # The detectors see what they are there to see.
        with socket.create_connection(("127.0.0.1", self.canary.port), timeout=5):
            pass
        wait_until(lambda: self.canary.attempts() == 1, timeout=5, what="the canary's count")
        self.canary.count = 0
        ctypes.CDLL(self.shared_object)
        self.assertTrue(os.path.exists(os.path.join(self.markers, "so-loaded")))
        os.remove(os.path.join(self.markers, "so-loaded"))
        broker_port = int(self.bootstrap.rsplit(":", 1)[1])
        wait_until(lambda: any(p == broker_port for _, _, p in connects(self.worker.trace())),
                   timeout=30, what="strace to show the worker's connection to its broker")
        self.assertEqual(len(execs(self.worker.trace())), 1, execs(self.worker.trace()))

        accepted = self.phase_a()
        self.phase_b(accepted)
        self.phase_c()

        trace = self.worker.trace()
        started = execs(trace)
        foreign = [(f, a, p) for f, a, p in connects(trace)
                   if f == "inet" and (p == self.canary.port or
                                       not (a.startswith("127.") or a == "::1" or
                                            (p == 53 and a in nameservers())))]
        created = sorted(os.listdir(self.markers))
        side_effects = (len(started) - 1) + len(foreign) + len(created) + self.canary.attempts()
        print(f"summary: configs={self.tried} validated={self.validated} created={self.created} "
              f"scenarios={self.scenarios} refused={self.refused} side_effects={side_effects}")
        self.assertEqual(started[1:], [], "programs started")
        self.assertEqual(foreign, [], "connections outside loopback and DNS, or to the canary")
        self.assertEqual(created, [], "files created by config values")
        self.assertEqual(self.canary.attempts(), 0, "connections to the canary")
        self.assertIsNone(self.worker.proc.poll(), self.worker.tail())
        self.assertGreater(self.tried, 10000)


if __name__ == "__main__":
    unittest.main()
