"""Distributed-mode clusters for the end-to-end tests: N Connect workers in one group, each a
Java Connect 4.4 worker (the reference jars) or a connectd worker, driven over REST.

A WorkerCluster is given one worker kind per position, so a mixed cluster is one call:

    cluster = WorkerCluster(["java", "connectd", "connectd"]).start()

Every worker gets its own REST port (worker id 127.0.0.1:<port>), the cluster's group.id and
internal topics (replication factor 1) and the worker properties of its kind:

- java: org.apache.kafka.connect.cli.ConnectDistributed from `scripts/kafka java-classpath`
  (Kafka 4.4.0). Connect's own test connectors (org.apache.kafka.connect.tools.Verifiable-
  SourceConnector, MockSourceConnector...) and the FileStream connectors are not published at
  4.4.0, so their 4.3.1 jars (connect-test-plugins, connect-file) are taken from the MirrorMaker 2
  stack (`java-classpath --mm2`) and put on the class path, followed by kafka-clients 4.3.1 as the
  LAST entry: the 4.3.1 connectors' version() calls org.apache.kafka.common.utils.AppInfoParser,
  which 4.4.0 moved to ...utils.internals; every other class resolves to 4.4.0 first. (Java
  loads org.apache.kafka.connect.tools.* only from the class path, not from a plugin.path dir:
  that package is not in plugin isolation's include list.)
  `scheduled.rebalance.max.delay.ms` is 5000 (Java's default is 300 000, which would make a
  failover take 5 minutes); override with WorkerCluster(props_by_kind={"java": {...}}).
- connectd: `<build>/bin/connectd distributed worker.properties` with plugin.path = the build's
  plugins and test plugins (which have Java's class names for VerifiableSource, MockSource and
  FileStreamSource/Sink). connectd's own defaults are used for everything else.

Only the Python standard library is used; Kafka access goes through tests/kafka_test_tool.
"""
import json
import os
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

from connectd_e2e import JAVA_OPTS, REPO_ROOT, _scripts_kafka, free_port, kafka_bootstrap, \
    wait_until, write_properties

BUILD_DIR = os.environ.get("CONNECTD_BUILD_DIR") or os.path.join(REPO_ROOT, "build")
CONNECTD = os.path.join(BUILD_DIR, "bin", "connectd")
PLUGINS = os.path.join(BUILD_DIR, "plugins")
TEST_PLUGINS = os.path.join(BUILD_DIR, "test-plugins", "good")
# The FileStream connectors: beside, not on, the default plugin.path (docs/security.md); a test
# that uses them names them.
FILE_CONNECTORS = os.path.join(BUILD_DIR, "file-connectors")
TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")

STRING_CONVERTER = "org.apache.kafka.connect.storage.StringConverter"
VERIFIABLE_SOURCE = "org.apache.kafka.connect.tools.VerifiableSourceConnector"
FILE_SOURCE = "org.apache.kafka.connect.file.FileStreamSourceConnector"
FILE_SINK = "org.apache.kafka.connect.file.FileStreamSinkConnector"

# Worker properties per kind, on top of the cluster's common ones (see WorkerCluster).
DEFAULT_PROPS_BY_KIND = {
    "java": {
        # Java waits up to this long for a lost worker to come back before reassigning its
        # connectors and tasks (default 300 000: a 5-minute failover).
        "scheduled.rebalance.max.delay.ms": "5000",
        # Every test connector has a ServiceLoader manifest: no reflective class path scan.
        "plugin.discovery": "service_load",
    },
    "connectd": {
        "plugin.path": f"{PLUGINS},{TEST_PLUGINS},{FILE_CONNECTORS}",
    },
}

# Log4j2 for the Java workers: the runtime at INFO (the herder logs every assignment, with the
# leader's URL) into worker.log, Kafka's clients at WARN. stdout (VerifiableSourceTask prints a
# JSON line per record) goes to stdout.log.
_JAVA_LOG4J2 = """status = warn
appender.file.type = File
appender.file.name = FILE
appender.file.fileName = {log}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.file.ref = FILE
logger.clients.name = org.apache.kafka.clients
logger.clients.level = WARN
logger.common.name = org.apache.kafka.common
logger.common.level = WARN
"""

_java_classpath_cache = []
_java_bin_cache = []


def java_bin():
    if not _java_bin_cache:
        _java_bin_cache.append(_scripts_kafka("java"))
    return _java_bin_cache[0]


def java_connect_classpath():
    """The class path of the Java workers: the 4.4.0 stack, then connect-test-plugins and
    connect-file from the MirrorMaker 2 stack (and its connect-mirror jars when
    CONNECTD_JAVA_WITH_MIRROR=1), then that stack's kafka-clients (see the module doc). When
    the two stacks are one version, nothing is added twice."""
    if not _java_classpath_cache:
        main = _scripts_kafka("java-classpath").split(":")
        mm2 = _scripts_kafka("java-classpath", "--mm2").split(":")
        have = {os.path.basename(j) for j in main}

        def pick(prefix):
            return [j for j in mm2 if os.path.basename(j).startswith(prefix)
                    and os.path.basename(j) not in have]
        extra = pick("connect-test-plugins-") + pick("connect-file-")
        if os.environ.get("CONNECTD_JAVA_WITH_MIRROR") == "1":
            extra += pick("connect-mirror-")  # MirrorMaker 2's connectors (the fault suite)
        if not extra and not any(os.path.basename(j).startswith("connect-test-plugins-")
                                 for j in main):
            raise AssertionError("connect-test-plugins is on neither Java stack "
                                 "(scripts/kafka-deps/pom.xml, mm2 profile)")
        if extra:
            extra += pick("kafka-clients-")
        _java_classpath_cache.append(":".join(main + extra))
    return _java_classpath_cache[0]


def http(method, url, body=None, timeout=60):
    """(status, parsed JSON or None, text). Connection errors and timeouts raise OSError."""
    data = None
    headers = {}
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, text = resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = None
    return status, parsed, text


# ---- Kafka, through tests/kafka_test_tool --------------------------------------------------------

def tool(*args, timeout=120):
    out = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"kafka_test_tool {args}: {out.stderr}")
    return out.stdout


def count_records(topic, bootstrap=None):
    """Records in `topic` (sum of its partitions' end offsets; 0 if it does not exist)."""
    return int(tool("count", bootstrap or kafka_bootstrap(), topic).strip())


def read_records(topic, bootstrap=None, seconds=60):
    """Every record of `topic` up to its current end, as dicts with partition, offset, key and
    value (str, or None for a null value) and timestamp (ms), in (partition, offset) order."""
    out = []
    for line in tool("consume-all", bootstrap or kafka_bootstrap(), topic, seconds,
                     timeout=seconds + 30).splitlines():
        r = json.loads(line)
        out.append({"partition": r["partition"], "offset": r["offset"],
                    "key": bytes.fromhex(r["key_hex"]).decode(errors="replace"),
                    "value": bytes.fromhex(r["value_hex"]).decode(errors="replace")
                    if r["value_hex"] else None,
                    "timestamp": r["timestamp"]})
    out.sort(key=lambda r: (r["partition"], r["offset"]))
    return out


def verifiable_records(topic, bootstrap=None):
    """VerifiableSource's records by task: {task: [(seqno, timestamp_ms), ...]} in the order
    they were written (one task's records share a key, hence a partition). Java's task and
    connectd's test plugin alike write key = task id (INT32), value = seqno (INT64), which the
    StringConverter makes "3" and "1234"."""
    by_task = {}
    for r in read_records(topic, bootstrap):
        by_task.setdefault(int(r["key"]), []).append((int(r["value"]), r["timestamp"]))
    return by_task


def status_records(topic, bootstrap=None):
    """The status topic's records as (key, value dict or None) in (partition, offset) order;
    keys are status-connector-<c> and status-task-<c>-<n>."""
    out = []
    for r in read_records(topic, bootstrap):
        value = None
        if r["value"] is not None:
            try:
                value = json.loads(r["value"])
            except ValueError:
                value = {"raw": r["value"]}
        out.append((r["key"], value))
    return out


def delete_topics(*topics, bootstrap=None):
    try:
        tool("delete", bootstrap or kafka_bootstrap(), *topics)
    except (AssertionError, subprocess.TimeoutExpired):
        pass  # best effort: the shared broker keeps a stray topic


# ---- Workers ----------------------------------------------------------------------------------

class Worker:
    """One distributed worker process. `kind` is "java" or "connectd"; the REST port and so the
    worker id (127.0.0.1:<port>) stay the same across restarts."""

    def __init__(self, kind, index, workdir, props):
        if kind not in ("java", "connectd"):
            raise ValueError(f"unknown worker kind {kind!r}")
        self.kind = kind
        self.index = index
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.worker_id = f"127.0.0.1:{self.port}"
        self.dir = os.path.join(workdir, f"worker-{index}-{kind}")
        os.makedirs(self.dir, exist_ok=True)
        self.props = dict(props)
        self.props["listeners"] = self.url
        self.log_path = os.path.join(self.dir, "worker.log")
        self.stdout_path = os.path.join(self.dir, "stdout.log")
        self.proc = None
        self.started_at = None
        self._out = None

    def __repr__(self):
        return f"worker {self.index} ({self.kind}, {self.worker_id})"

    def launch(self):
        """Starts the process and returns at once (see WorkerCluster.wait_ready)."""
        path = write_properties(os.path.join(self.dir, "worker.properties"), self.props)
        if self._out:
            self._out.close()
        if self.kind == "java":
            # log4j2 writes worker.log; stdout/stderr (JVM errors, and VerifiableSourceTask's
            # line per record) go to stdout.log.
            self._out = open(self.stdout_path, "a")
            log4j = os.path.join(self.dir, "log4j2.properties")
            with open(log4j, "w") as f:
                f.write(_JAVA_LOG4J2.format(log=self.log_path))
            opts = [o for o in JAVA_OPTS if not o.startswith("-Xmx")] + ["-Xmx512m"]
            cmd = [java_bin(), *opts, f"-Dlog4j2.configurationFile={log4j}",
                   "-cp", java_connect_classpath(),
                   "org.apache.kafka.connect.cli.ConnectDistributed", path]
        else:
            if not os.path.exists(CONNECTD):
                raise AssertionError(f"{CONNECTD} not built")
            self._out = open(self.log_path, "a")
            cmd = [CONNECTD, "distributed", path]
        self.started_at = time.time()
        env = dict(os.environ, **self.extra_env) if getattr(self, "extra_env", None) else None
        self.proc = subprocess.Popen(cmd, stdout=self._out, stderr=subprocess.STDOUT, env=env)
        return self

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def ready(self):
        """True once GET /health answers 200 (the worker finished startup: Java reads the
        internal topics and joins the group first; 503 before). Raises if the process died."""
        if not self.alive():
            raise AssertionError(f"{self} exited with {self.proc.returncode}:\n{self.tail()}")
        try:
            return http("GET", self.url + "/health", timeout=5)[0] == 200
        except OSError:
            return False

    def tail(self, lines=60):
        """The end of the worker's log without its REST access lines, which other workers'
        polling would fill it with (for a Java worker also stdout's non-JSON lines: the JVM's
        own errors land there)."""
        text = ""
        paths = [self.log_path] + ([self.stdout_path] if self.kind == "java" else [])
        for path in paths:
            try:
                with open(path, errors="replace") as f:
                    kept = [l for l in f.readlines()
                            if not l.startswith("{") and " HTTP/1.1\" " not in l]
                text += f"[{os.path.basename(path)}]\n" + "".join(kept[-lines:])
            except OSError:
                pass
        return text or "(no log)"

    def stop(self, sig=signal.SIGTERM, timeout=60, signalled=False):
        """Signals the process (unless `signalled`: a second SIGTERM makes connectd exit at
        once, 143) and waits; returns its exit status."""
        if self.alive():
            if not signalled:
                self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        return self.proc.returncode if self.proc else None

    def kill9(self):
        return self.stop(signal.SIGKILL)

    def close(self):
        if self.alive():
            self.proc.kill()
            self.proc.wait(timeout=30)
        if self._out:
            self._out.close()
            self._out = None

    # REST, as a user does it.
    def request(self, method, path, body=None, timeout=60):
        return http(method, self.url + path, body, timeout=timeout)

    def get(self, path, timeout=60):
        return self.request("GET", path, timeout=timeout)

    def post(self, path, body=None):
        return self.request("POST", path, body)

    def put(self, path, body=None):
        return self.request("PUT", path, body)

    def delete(self, path):
        return self.request("DELETE", path)

    def java_leader_url(self):
        """Java only: the leader URL of the last assignment this worker logged ("Joined group
        at generation N ... leaderUrl='http://127.0.0.1:P/'"), or None."""
        url = None
        try:
            with open(self.log_path, errors="replace") as f:
                for line in f:
                    if "Joined group at generation" in line and "leaderUrl='" in line:
                        url = line.split("leaderUrl='", 1)[1].split("'", 1)[0]
        except OSError:
            pass
        return url.rstrip("/") if url else None


class WorkerCluster:
    """Workers of the given kinds (one per position) in one Connect group on the shared test
    broker, with fresh internal topics: group.id, config/offset/status topics are named
    <name>-configs etc. from a unique `name`. `bootstrap` is the workers' cluster (where the
    internal topics live and the tasks' producers write), ctest-a's by default."""

    def __init__(self, kinds, name=None, props=None, props_by_kind=None, workdir=None,
                 bootstrap=None):
        self.name = name or "dist-" + uuid.uuid4().hex[:8]
        self.workdir = workdir or tempfile.mkdtemp(prefix=f"connectd-{self.name}-")
        self.bootstrap = bootstrap or kafka_bootstrap()
        self.config_topic = f"{self.name}-configs"
        self.offset_topic = f"{self.name}-offsets"
        self.status_topic = f"{self.name}-status"
        self.common = {
            "bootstrap.servers": self.bootstrap,
            "group.id": self.name,
            "config.storage.topic": self.config_topic,
            "offset.storage.topic": self.offset_topic,
            "status.storage.topic": self.status_topic,
            "config.storage.replication.factor": "1",
            "offset.storage.replication.factor": "1",
            "status.storage.replication.factor": "1",
            "key.converter": STRING_CONVERTER,
            "value.converter": STRING_CONVERTER,
            "offset.flush.interval.ms": "1000",
            "rest.advertised.host.name": "127.0.0.1",
        }
        self.common.update(props or {})
        self.props_by_kind = {k: dict(v) for k, v in DEFAULT_PROPS_BY_KIND.items()}
        for kind, extra in (props_by_kind or {}).items():
            self.props_by_kind.setdefault(kind, {}).update(extra)
        self.workers = []
        for kind in kinds:
            self._new_worker(kind)

    def _new_worker(self, kind):
        props = dict(self.common)
        props.update(self.props_by_kind.get(kind, {}))
        worker = Worker(kind, len(self.workers), self.workdir, props)
        self.workers.append(worker)
        return worker

    def __getitem__(self, i):
        return self.workers[i]

    def __len__(self):
        return len(self.workers)

    @property
    def kinds(self):
        """The kinds of the live workers."""
        return [w.kind for w in self.alive_workers()]

    def alive_workers(self):
        return [w for w in self.workers if w.alive()]

    def by_worker_id(self, worker_id):
        for w in self.workers:
            if w.worker_id == worker_id:
                return w
        return None

    # -- lifecycle

    def start(self, timeout=180):
        """Launches every worker at once (a JVM takes several seconds), then waits for all."""
        for w in self.workers:
            w.launch()
        self.wait_ready(timeout=timeout)
        return self

    def wait_ready(self, workers=None, timeout=180):
        workers = workers if workers is not None else self.alive_workers()
        wait_until(lambda: all(w.ready() for w in workers), timeout=timeout, interval=0.25,
                   what=f"REST /health of {workers}")

    def add_worker(self, kind, wait=True, timeout=180):
        worker = self._new_worker(kind).launch()
        if wait:
            self.wait_ready([worker], timeout=timeout)
        return worker

    def kill9(self, i):
        return self.workers[i].kill9()

    def restart(self, i, wait=True, timeout=180):
        """Starts worker i again (same port, worker id and properties)."""
        w = self.workers[i]
        if w.alive():
            raise AssertionError(f"{w} is still running")
        w.launch()
        if wait:
            self.wait_ready([w], timeout=timeout)
        return w

    def stop(self, sig=signal.SIGTERM):
        """Stops every live worker at once (signal all, then wait); returns the exit codes."""
        for w in self.alive_workers():
            w.proc.send_signal(sig)
        codes = []
        for w in self.workers:
            codes.append(w.stop(sig, signalled=True) if w.proc else None)
        return codes

    def close(self, delete_topics_too=True):
        for w in self.workers:
            w.close()
        if delete_topics_too:
            delete_topics(self.config_topic, self.offset_topic, self.status_topic,
                          bootstrap=self.bootstrap)

    def tails(self, lines=40):
        return "\n".join(f"---- {w} ----\n{w.tail(lines)}" for w in self.workers)

    # -- connectors

    def any(self):
        alive = self.alive_workers()
        if not alive:
            raise AssertionError("no live worker")
        return alive[0]

    def status(self, connector, worker=None):
        """GET /connectors/<c>/status on `worker` (default: the first live one) or None."""
        try:
            code, body, _ = (worker or self.any()).get(f"/connectors/{connector}/status",
                                                       timeout=10)
        except OSError:
            return None
        return body if code == 200 else None

    def task_owners(self, connector, worker=None):
        """{task id: worker id} of the tasks RUNNING per `worker`'s status view."""
        body = self.status(connector, worker) or {"tasks": []}
        return {t["id"]: t["worker_id"] for t in body["tasks"] if t["state"] == "RUNNING"}

    def wait_running(self, connector, tasks, timeout=90, on=None, worker=None):
        """Waits until the connector and exactly `tasks` tasks are RUNNING (on workers among
        `on`, if given) and returns {task id: worker id}."""
        allowed = {w.worker_id for w in on} if on is not None else None

        def check():
            body = self.status(connector, worker)
            if not body or body["connector"]["state"] != "RUNNING":
                return None
            states = body["tasks"]
            if len(states) != tasks or any(t["state"] != "RUNNING" for t in states):
                return None
            owners = {t["id"]: t["worker_id"] for t in states}
            if allowed is not None and (not set(owners.values()) <= allowed
                                        or body["connector"]["worker_id"] not in allowed):
                return None
            return owners
        return wait_until(check, timeout=timeout, interval=0.2,
                          what=f"{connector}: {tasks} tasks RUNNING"
                               + (f" on {sorted(allowed)}" if allowed else ""))

    def leader(self, timeout=60):
        """The worker that is the group's leader, found over REST alone (kind-neutral): a
        leader-only write sent with Connect's hidden `forward=false` parameter may not be
        forwarded, so a follower answers 409 ("Cannot complete request because of a conflicting
        operation (e.g. worker rebalance)") while the leader executes it. The write deletes a
        connector that does not exist: the leader answers 404, nothing changes. Retried until
        exactly one live worker answers 404 (during a rebalance all answer 409)."""
        probe = f"/connectors/leader-probe-{uuid.uuid4().hex[:6]}?forward=false"
        answers = {}

        def check():
            leaders = []
            for w in self.alive_workers():
                try:
                    code, _, text = w.request("DELETE", probe, timeout=10)
                except OSError as e:
                    code, text = "no answer", repr(e)
                answers[w.index] = (code, text[:200])
                if code == 404:
                    leaders.append(w)
            return leaders[0] if len(leaders) == 1 else None
        try:
            return wait_until(check, timeout=timeout, interval=0.5, what="exactly one leader")
        except AssertionError as e:
            raise AssertionError(f"{e}; last answers to DELETE {probe}: {answers}") from None


class RestProber(threading.Thread):
    """Keeps calling a few endpoints on some workers (every `interval` s, short timeouts) and
    records every distinct answer with the times (s since `t0`) it was first and last seen:
    what a user sees while a rebalance is going on."""

    def __init__(self, workers, requests, t0, interval=0.25):
        super().__init__(daemon=True)
        self.workers, self.requests, self.t0, self.interval = workers, requests, t0, interval
        self.stopping = threading.Event()
        self.seen = {}  # (worker index, method, path, status, message) -> [first, last, count]

    def run(self):
        while not self.stopping.is_set():
            for w in self.workers:
                for method, path in self.requests:
                    t = time.time()
                    try:
                        code, body, text = w.request(method, path, timeout=5)
                        msg = body.get("message") if isinstance(body, dict) and \
                            "error_code" in body else ("<body>" if text else "<empty>")
                    except OSError as e:
                        code, msg = "no answer", type(e).__name__
                    key = (w.index, method, path, code, msg)
                    entry = self.seen.setdefault(key, [t - self.t0, t - self.t0, 0])
                    entry[1] = t - self.t0
                    entry[2] += 1
            self.stopping.wait(self.interval)

    def finish(self):
        self.stopping.set()
        self.join(timeout=30)
        return self.seen

    def report(self, title):
        lines = [title]
        for (index, method, path, code, msg), (first, last, n) in sorted(
                self.seen.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], kv[1][0])):
            lines.append(f"  worker {index} {method} {path} -> {code} {msg!r}: "
                         f"{n}x from {first:+.1f}s to {last:+.1f}s")
        return "\n".join(lines)


# ---- A worker pair running VerifiableSource (the SSL and SASL tests) ---------------------------
def clean_up_pair(test, cluster):
    """Registers `test`'s clean-up of `cluster` and returns the topic its VerifiableSource
    connector writes: on a failure the workers' logs are printed first, then the workers stop,
    and last the topic goes (through the PLAINTEXT listener)."""
    topic = f"{cluster.name}-verifiable"
    test.addCleanup(delete_topics, topic, bootstrap=cluster.bootstrap)
    test.addCleanup(cluster.close)

    def dump_logs_on_failure():
        result = getattr(test._outcome, "result", None)
        if result and any(t is test for t, _ in result.failures + result.errors):
            print(cluster.tails(), flush=True)
    test.addCleanup(dump_logs_on_failure)
    return topic


def run_verifiable_pair(test, cluster, topic, coordinator, name, listener, label,
                        same_tasks_on_both=False):
    """Starts `cluster` (two workers whose clients use the secured listener `coordinator`, named
    `listener` in messages), checks that both found their group coordinator there, runs
    VerifiableSource connector `name` with 2 tasks writing to `topic`, and asserts through
    `test` that the connector and its tasks spread over both workers (with `same_tasks_on_both`,
    that the second worker reports the same tasks) and that each task wrote gap-free seqnos;
    prints a `label` summary line and deletes the connector."""
    c = cluster
    t0 = time.time()
    c.start(timeout=90)
    for w in c.workers:
        # The group client found its coordinator on the listener it bootstrapped from.
        wait_until(lambda: f"Discovered group coordinator {coordinator} " in w.tail(400),
                   timeout=10, what=f"{w}: coordinator on the {listener} listener")
    code, body, text = c.any().post("/connectors", {"name": name, "config": {
        "connector.class": VERIFIABLE_SOURCE, "topic": topic, "tasks.max": "2",
        "throughput": "20"}})
    test.assertEqual(code, 201, text)
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
    if same_tasks_on_both:
        wait_until(lambda: (c.status(name, worker=c[1]) or {}).get("tasks") == status["tasks"],
                   timeout=10, what="the other worker showing the same tasks")
    wait_until(lambda: count_records(topic, c.bootstrap) >= 40, timeout=30,
               what=f"records in {topic}")
    by_task = verifiable_records(topic, c.bootstrap)
    test.assertEqual(sorted(by_task), [0, 1], f"tasks that wrote: {sorted(by_task)}")
    for task, records in by_task.items():
        test.assertEqual([seq for seq, _ in records], list(range(len(records))),
                         f"task {task}'s seqnos")
    print(f"{label}: tasks on {sorted(t['worker_id'] for t in status['tasks'])}, "
          f"{sum(map(len, by_task.values()))} records, {time.time() - t0:.1f} s")
    code, _, text = c.any().delete(f"/connectors/{name}")
    test.assertEqual(code, 204, text)
