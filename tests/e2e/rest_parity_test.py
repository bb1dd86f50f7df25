"""The REST API, differentially: one scripted session (plugins, config definitions, validation,
create, status, pause/resume/stop/restart, offsets, loggers, errors) sent to a Java Connect 4.4.0
worker and to a connectd worker, each in its own Connect group on the same broker. Every answer
is compared: status code, and JSON shape and values after replacing what is each worker's own
(its worker id, timestamps). What may differ is listed in ALLOWED, each entry with the section of
docs/compatibility.md that gives the reason; anything else that differs fails the test, all
differences listed at once. The Java worker is the truth.

Run: CONNECTD_RUN_DIR=... python3 -m unittest -v rest_parity_test (tests/e2e).
"""
import json
import re
import time
import unittest
import uuid

from distributed_cluster import FILE_SINK, FILE_SOURCE, WorkerCluster, delete_topics, wait_until

INSERT_FIELD = "org.apache.kafka.connect.transforms.InsertField$Value"
TOPIC_NAME_MATCHES = "org.apache.kafka.connect.transforms.predicates.TopicNameMatches"
JSON_CONVERTER = "org.apache.kafka.connect.json.JsonConverter"

# (step, regular expression over a difference's path) -> why (docs/compatibility.md).
ALLOWED = [
    # "REST: root resource": commit names connectd's build, not a Kafka commit.
    ("root", r"^\.commit: value$"),
    # Java's class path holds Connect's test connectors that connectd does not ship.
    ("plugins", r"^\[org\.apache\.kafka\.connect\.tools\.(MockSink|VerifiableSink|SchemaSource)"
                r"Connector/(sink|source)\]: only java$"),
    # Each worker's plugin path has its own plugins (connectd's: MirrorMaker 2 and test plugins,
    # with a transformation and a predicate), so the lists of classes differ by those.
    ("plugins", r"^\[[^\]]+\]: only connectd$"),
    # connectd's stand-ins for Connect's test connectors (test plugins) report their own version.
    ("plugins", r"^\[org\.apache\.kafka\.connect\.tools\.(Mock|Verifiable)SourceConnector/source\]"
                r"\.version: value$"),
    (r"validate-.*",
     r"^\.configs\[(transforms|predicates)\.[a-z]+\.type\]\.value\.recommended_values: "),
    # "REST: validation": the groups of a converter's own keys come in the order of its keys,
    # where Java's come in the order of a HashMap of them.
    ("validate-sink", r"^\.groups\[[67]\]: value$"),
    # "REST: errors": an unknown connector class names the classes loaded, where Java prints
    # its PluginDesc objects.
    ("create-unknown-class", r"^\.message: value$"),
    # "REST: better answers than Java's 500": a body with a name but no config, and PATCH
    # offsets with a non-array, are client errors (400) with a message naming the problem.
    ("create-no-config", r"^(status|\.error_code: value|\.message: value)$"),
    ("patch-offsets-not-array", r"^(status|\.error_code: value|\.message: value)$"),
    # "REST: /admin/loggers": each process knows the loggers its own code uses.
    ("loggers", r"^\.[^ ]+: only (java|connectd)$"),
    (r"(set|reset)-logger-namespace", r"^: length "),
    (r"(set|reset)-logger-namespace", r"^\[\d+\]: value$"),
]


def normalize(value, worker):
    """Replaces a worker's own id and URL by the tokens <worker> and <url>, recursively."""
    if isinstance(value, dict):
        return {k: normalize(v, worker) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v, worker) for v in value]
    if isinstance(value, str):
        return value.replace(worker.worker_id, "<worker>").replace(worker.url, "<url>")
    return value


def diff(java, connectd, path="", out=None):
    """Differences between two JSON values as 'path: what' strings. Lists of config infos and
    of config keys are matched by name, plugin lists by class and type."""
    out = [] if out is None else out
    if type(java) is not type(connectd):
        out.append(f"{path}: type {type(java).__name__} vs {type(connectd).__name__} "
                   f"({json.dumps(java)[:120]} vs {json.dumps(connectd)[:120]})")
    elif isinstance(java, dict):
        for key in java:
            if key not in connectd:
                out.append(f"{path}.{key}: only java")
            else:
                diff(java[key], connectd[key], f"{path}.{key}", out)
        for key in connectd:
            if key not in java:
                out.append(f"{path}.{key}: only connectd")
    elif isinstance(java, list):
        keyed = _keyed(java), _keyed(connectd)
        if keyed[0] is not None and keyed[1] is not None:
            for name, item in keyed[0].items():
                if name not in keyed[1]:
                    out.append(f"{path}[{name}]: only java")
                else:
                    diff(item, keyed[1][name], f"{path}[{name}]", out)
            for name in keyed[1]:
                if name not in keyed[0]:
                    out.append(f"{path}[{name}]: only connectd")
            common = [n for n in keyed[0] if n in keyed[1] and not _unordered(n)]
            others = [n for n in keyed[1] if n in keyed[0] and not _unordered(n)]
            if common != others:
                first = next(i for i, (a, b) in enumerate(zip(common, others)) if a != b)
                out.append(f"{path}: order from {first}: {common[first:first + 4]} vs "
                           f"{others[first:first + 4]}")
        else:
            if len(java) != len(connectd):
                out.append(f"{path}: length {len(java)} vs {len(connectd)} "
                           f"({json.dumps(java)[:160]} vs {json.dumps(connectd)[:160]})")
            for i, (a, b) in enumerate(zip(java, connectd)):
                diff(a, b, f"{path}[{i}]", out)
    elif java != connectd:
        out.append(f"{path}: value ({json.dumps(java)[:160]} vs {json.dumps(connectd)[:160]})")
    return out


def _unordered(name):
    """A converter's own keys in a validation: Java lists them in HashMap order."""
    return re.match(r"(key|value|header)\.converter\.(?!plugin\.version$)", name) is not None


def _keyed(items):
    """{name: item} for a list of config infos, config keys or plugins; else None."""
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    if all("definition" in i for i in items):
        return {i["definition"]["name"]: i for i in items}
    if all("name" in i and "type" in i and "importance" in i for i in items):
        return {i["name"]: i for i in items}
    if all("class" in i and "type" in i for i in items):
        return {f"{i['class']}/{i['type']}": i for i in items}
    return None


def allowed(step, difference):
    path = difference.split(" (", 1)[0]
    return any(re.fullmatch(s, step) and re.search(p, path) for s, p in ALLOWED)


class RestParityTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.java = WorkerCluster(["java"])
        cls.connectd = WorkerCluster(["connectd"])
        cls.java.start()
        cls.connectd.start()
        cls.topic = "parity-" + uuid.uuid4().hex[:8]
        cls.differences = []

    @classmethod
    def tearDownClass(cls):
        for cluster in (cls.java, cls.connectd):
            cluster.close()
        delete_topics(cls.topic)

    def exchange(self, step, method, path, body=None):
        """Sends one request to both workers; records every difference not allowed."""
        answers = []
        for cluster in (self.java, self.connectd):
            worker = cluster[0]
            status, parsed, text = worker.request(method, path, body)
            answers.append((status, normalize(parsed if parsed is not None else text, worker)))
        (java_status, java_body), (connectd_status, connectd_body) = answers
        found = []
        if java_status != connectd_status:
            found.append(f"status ({java_status} vs {connectd_status})")
        found += diff(java_body, connectd_body)
        for d in found:
            if not allowed(step, d):
                self.differences.append(f"{step}: {method} {path}: {d}")
        return answers

    def wait_states(self, connector, state):
        for cluster in (self.java, self.connectd):
            def reached():
                status = cluster[0].get(f"/connectors/{connector}/status")[1] or {}
                tasks = status.get("tasks", [])
                if state != "STOPPED" and not tasks:
                    return False
                return status.get("connector", {}).get("state") == state and all(
                    t.get("state") == state for t in tasks)
            wait_until(reached, timeout=60, what=f"{connector} {state} on {cluster[0]}")

    def test_the_same_session_gets_the_same_answers(self):
        t = self.topic
        self.exchange("root", "GET", "/")
        self.exchange("plugins", "GET", "/connector-plugins?connectorsOnly=false")
        for plugin in ("FileStreamSource", FILE_SINK, INSERT_FIELD, TOPIC_NAME_MATCHES,
                       JSON_CONVERTER, "org.apache.kafka.connect.storage.StringConverter"):
            self.exchange("plugin-config", "GET", f"/connector-plugins/{plugin}/config")
        self.exchange("plugin-config-version", "GET",
                      "/connector-plugins/FileStreamSource/config?version=4.4.0")
        self.exchange("plugin-config-version", "GET",
                      "/connector-plugins/FileStreamSource/config?version=[4.0,5.0)")
        self.exchange("plugin-config-version-missing", "GET",
                      "/connector-plugins/FileStreamSource/config?version=9.9")
        self.exchange("plugin-config-unknown", "GET", "/connector-plugins/Nope/config")

        source = {"connector.class": FILE_SOURCE, "topic": t, "file": "/etc/hostname"}
        self.exchange("validate-bad-int", "PUT", "/connector-plugins/FileStreamSource/config/validate",
                      dict(source, **{"tasks.max": "abc"}))
        self.exchange("validate-transform", "PUT",
                      "/connector-plugins/FileStreamSource/config/validate",
                      dict(source, **{"tasks.max": " 2 ", "transforms": "a",
                                      "transforms.a.type": INSERT_FIELD,
                                      "transforms.a.static.field": "f",
                                      "transforms.a.static.value": "v",
                                      "errors.log.enable": "TRUE"}))
        self.exchange("validate-sink", "PUT", "/connector-plugins/FileStreamSink/config/validate",
                      {"connector.class": FILE_SINK, "topics": t, "name": "", "file": "/tmp/x",
                       "transforms": "f", "transforms.f.type":
                           "org.apache.kafka.connect.transforms.Filter",
                       "transforms.f.predicate": "p", "predicates": "p",
                       "predicates.p.type": TOPIC_NAME_MATCHES, "predicates.p.pattern": "x.*",
                       "errors.tolerance": "bogus", "key.converter": JSON_CONVERTER,
                       "key.converter.schemas.enable": "false"})
        self.exchange("validate-version-missing", "PUT",
                      "/connector-plugins/FileStreamSink/config/validate",
                      {"connector.class": FILE_SINK, "topics": t,
                       "connector.plugin.version": "1.0"})
        self.exchange("validate-version-range", "PUT",
                      "/connector-plugins/FileStreamSink/config/validate",
                      {"connector.class": FILE_SINK, "topics": t, "name": "x",
                       "connector.plugin.version": "[4.0,5.0)"})
        self.exchange("validate-no-class", "PUT",
                      "/connector-plugins/FileStreamSink/config/validate", {"topics": t})

        self.exchange("create-version-missing", "POST", "/connectors",
                      {"name": "pinned", "config": dict(source, **{
                          "connector.plugin.version": "1.0"})})
        self.exchange("create", "POST", "/connectors", {"name": "fs", "config": source})
        self.wait_states("fs", "RUNNING")
        for path in ("/connectors", "/connectors?expand=status&expand=info", "/connectors/fs",
                     "/connectors/fs/config", "/connectors/fs/status", "/connectors/fs/tasks",
                     "/connectors/fs/tasks/0/status", "/connectors/fs/topics",
                     "/connectors/fs/tasks-config", "/connectors/missing",
                     "/connectors/missing/status"):
            self.exchange("read", "GET", path)
        self.exchange("pause", "PUT", "/connectors/fs/pause")
        self.wait_states("fs", "PAUSED")
        self.exchange("read", "GET", "/connectors/fs/status")
        self.exchange("resume", "PUT", "/connectors/fs/resume")
        self.wait_states("fs", "RUNNING")
        self.exchange("stop", "PUT", "/connectors/fs/stop")
        self.wait_states("fs", "STOPPED")
        self.exchange("read", "GET", "/connectors/fs/status")
        self.exchange("offsets", "GET", "/connectors/fs/offsets")
        self.exchange("patch-offsets-not-array", "PATCH", "/connectors/fs/offsets",
                      {"offsets": 5})
        self.exchange("update-bad-int", "PUT", "/connectors/fs/config",
                      dict(source, **{"tasks.max": "abc"}))
        self.exchange("create-no-config", "POST", "/connectors", {"name": "nocfg"})
        self.exchange("create-unknown-class", "POST", "/connectors",
                      {"name": "bad", "config": {"connector.class": "Nope"}})
        self.exchange("resume", "PUT", "/connectors/fs/resume")
        self.wait_states("fs", "RUNNING")
        self.exchange("restart", "POST", "/connectors/fs/restart?includeTasks=true&onlyFailed=true")

        self.exchange("loggers", "GET", "/admin/loggers")
        self.exchange("logger", "GET", "/admin/loggers/root")
        self.exchange("set-logger-namespace", "PUT", "/admin/loggers/org.apache.kafka.connect",
                      {"level": "DEBUG"})
        # A class logger below the namespace: its effective level, modified by that PUT.
        logger = "/admin/loggers/org.apache.kafka.connect.runtime.WorkerSourceTask"
        java = self.java[0].get(logger)
        connectd = self.connectd[0].get(logger)
        self.assertEqual((java[0], java[1]["level"]), (connectd[0], connectd[1]["level"]),
                         (java, connectd))
        self.assertEqual(type(java[1]["last_modified"]), type(connectd[1]["last_modified"]))
        self.exchange("logger-unknown", "GET", "/admin/loggers/no.such.logger")
        self.exchange("logger-bad-level", "PUT", "/admin/loggers/x.y", {"level": "nope"})
        self.exchange("reset-logger-namespace", "PUT", "/admin/loggers/org.apache.kafka.connect",
                      {"level": "INFO"})
        self.exchange("delete", "DELETE", "/connectors/fs")
        self.exchange("read", "GET", "/connectors")

        self.assertEqual(self.differences, [], "differences from Java Connect 4.4:\n" +
                         "\n".join(self.differences))


if __name__ == "__main__":
    unittest.main()
