"""Helpers for end-to-end tests: connectd worker processes driven over REST as a user drives them.

Only the Python standard library is used. The real Kafka cluster comes from the ctest fixture
(`kafka`), whose bootstrap address is in $CONNECTD_RUN_DIR/<cluster>/bootstrap.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                                "lib"))
import free_ports  # noqa: E402  (scripts/lib: ports below the ephemeral range, reserved)

BUILD_DIR = os.environ.get("CONNECTD_BUILD_DIR", "build")
CONNECTD = os.path.join(BUILD_DIR, "bin", "connectd")
PLUGINS = os.path.join(BUILD_DIR, "plugins")
TEST_PLUGINS = os.path.join(BUILD_DIR, "test-plugins", "good")
# The FileStream connectors: beside, not on, the default plugin.path (docs/security.md); a test
# that uses them names them.
FILE_CONNECTORS = os.path.join(BUILD_DIR, "file-connectors")


def kafka_bootstrap(cluster="ctest-a"):
    run_dir = os.environ.get("CONNECTD_RUN_DIR", os.path.join(BUILD_DIR, "kafka-run"))
    with open(os.path.join(run_dir, cluster, "bootstrap")) as f:
        return f.read().strip()


def kafka_ssl(cluster="ctest-a"):
    """(bootstrap, CA file) of the cluster's SSL listener (`scripts/kafka start --ssl`, as the
    ctest fixture starts its clusters): a throw-away CA signed the broker's certificate for
    IP:127.0.0.1 and DNS:localhost."""
    run_dir = os.environ.get("CONNECTD_RUN_DIR", os.path.join(BUILD_DIR, "kafka-run"))
    try:
        with open(os.path.join(run_dir, cluster, "ssl_bootstrap")) as f:
            bootstrap = f.read().strip()
        with open(os.path.join(run_dir, cluster, "ca")) as f:
            ca = f.read().strip()
    except FileNotFoundError:
        raise AssertionError(f"Kafka test cluster {cluster} in {run_dir} has no SSL listener: "
                             f"start it with `scripts/kafka start {cluster} --ssl`") from None
    return bootstrap, ca


def ssl_client_props(ca, prefix=""):
    """Java client keys for the SSL listener, hostname verification on (Java's default)."""
    return {f"{prefix}security.protocol": "SSL", f"{prefix}ssl.truststore.type": "PEM",
            f"{prefix}ssl.truststore.location": ca}


def free_port():
    """A port for a worker's listener; see scripts/lib/free_ports.py for why not bind(0)."""
    return free_ports.free_port()


def http(method, url, body=None, headers=None):
    """Returns (status, parsed JSON body or None, raw text)."""
    data = None
    hdrs = dict(headers or {})
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        hdrs.setdefault("Content-Type", "application/json")
    req = urllib.request.Request(url, data=data, method=method, headers=hdrs)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            text = resp.read().decode()
            status = resp.status
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        status = e.code
    try:
        parsed = json.loads(text) if text else None
    except ValueError:
        parsed = None
    return status, parsed, text


def wait_until(predicate, timeout=30.0, interval=0.1, what="condition"):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")


class StandaloneWorker:
    """A `connectd standalone` process with its own temp dir, port and offset file."""

    def __init__(self, extra=None, plugin_path=None, workdir=None, options=()):
        self.workdir = workdir or tempfile.mkdtemp(prefix="connectd-e2e-")
        self.options = list(options)  # connectd's options before the command (logging)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.props = {
            "bootstrap.servers": kafka_bootstrap(),
            "key.converter": "org.apache.kafka.connect.storage.StringConverter",
            "value.converter": "org.apache.kafka.connect.storage.StringConverter",
            "offset.storage.file.filename": os.path.join(self.workdir, "offsets"),
            "offset.flush.interval.ms": "1000",
            "listeners": f"http://127.0.0.1:{self.port}",
            "plugin.path": plugin_path or f"{PLUGINS},{TEST_PLUGINS},{FILE_CONNECTORS}",
        }
        self.props.update(extra or {})
        self.proc = None
        self.log_path = os.path.join(self.workdir, "worker.log")

    def start(self):
        path = os.path.join(self.workdir, "worker.properties")
        with open(path, "w") as f:
            for k, v in self.props.items():
                f.write(f"{k}={v}\n")
        self.log = open(self.log_path, "a")
        self.proc = subprocess.Popen(self.command(path), stdout=self.log, stderr=subprocess.STDOUT)
        wait_until(lambda: self._healthy(), timeout=90, what="worker REST /health")
        return self

    def command(self, properties_path):
        """The worker's argv (a subclass may run it under another program)."""
        return [CONNECTD, *self.options, "standalone", properties_path]

    def _healthy(self):
        if self.proc.poll() is not None:
            raise AssertionError(f"worker exited with {self.proc.returncode}:\n{self.tail()}")
        try:
            return http("GET", self.url + "/health")[0] == 200
        except OSError:
            return False

    def tail(self, lines=40):
        with open(self.log_path) as f:
            return "".join(f.readlines()[-lines:])

    def get(self, path):
        return http("GET", self.url + path)

    def put(self, path, body=None):
        return http("PUT", self.url + path, body)

    def post(self, path, body=None):
        return http("POST", self.url + path, body)

    def patch(self, path, body):
        return http("PATCH", self.url + path, body)

    def delete(self, path):
        return http("DELETE", self.url + path)

    def state(self, connector):
        status, body, _ = self.get(f"/connectors/{connector}/status")
        if status != 200:
            return None
        return body["connector"]["state"], [t["state"] for t in body["tasks"]]

    def wait_state(self, connector, connector_state, task_states, timeout=30):
        return wait_until(lambda: self.state(connector) == (connector_state, task_states),
                          timeout=timeout, what=f"{connector} {connector_state} {task_states}")

    def stop(self, sig=signal.SIGTERM, timeout=30):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=timeout)
        return self.proc.returncode if self.proc else None

    def kill9(self):
        return self.stop(signal.SIGKILL)


# ---- The Java reference: Apache Kafka's own classes, from scripts/kafka's jar cache ------------

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
JAVA_SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "java")
# What `scripts/kafka run-class` gives short-lived tool JVMs: start fast, stay small.
JAVA_OPTS = ["-Xms64m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
             "-Djava.net.preferIPv4Stack=true", "-Djava.awt.headless=true"]
_java_cache = {}


def _scripts_kafka(*args):
    out = subprocess.run([os.path.join(REPO_ROOT, "scripts", "kafka"), *args], capture_output=True,
                         text=True, timeout=600)
    if out.returncode != 0:
        raise AssertionError(f"scripts/kafka {' '.join(args)}: {out.stderr}")
    return out.stdout.strip()


def java_mm2_command():
    """[java, options..., -cp, <MirrorMaker 2 stack classpath>], as `scripts/kafka run-class --mm2`
    builds it (connect-runtime, connect-mirror, connect-mirror-client and their dependencies)."""
    if "mm2" not in _java_cache:
        _java_cache["mm2"] = [_scripts_kafka("java"), *JAVA_OPTS, "-cp",
                              _scripts_kafka("java-classpath", "--mm2")]
    return list(_java_cache["mm2"])


def run_java_source(source, *args, timeout=120):
    """Runs tests/e2e/java/<source> with Java's single-file source launcher on the MirrorMaker 2
    classpath and returns its stdout; a non-zero exit fails the test with its stderr."""
    cmd = java_mm2_command() + [os.path.join(JAVA_SOURCES, source), *map(str, args)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"java {source} {args} exited {out.returncode}:\n{out.stderr[-4000:]}")
    return out.stdout


def write_properties(path, props):
    with open(path, "w") as f:
        for k, v in props.items():
            f.write(f"{k}={v}\n")
    return path


_JAVA_LOG4J2 = """status = warn
appender.out.type = Console
appender.out.name = STDOUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = STDOUT
logger.clients.name = org.apache.kafka.clients
logger.clients.level = WARN
logger.common.name = org.apache.kafka.common
logger.common.level = WARN
"""


class JavaStandaloneWorker:
    """Apache Kafka's own standalone Connect worker (org.apache.kafka.connect.cli.ConnectStandalone
    from the MirrorMaker 2 stack; MM2's connectors are on its classpath, found by ServiceLoader),
    with its own REST port and log file in `workdir`. `props` are worker properties on top of the
    REST listener; connector properties files are given to start(), as on Java's command line."""

    def __init__(self, workdir, props):
        self.workdir = workdir
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.props = {"listeners": f"http://127.0.0.1:{self.port}",
                      "plugin.discovery": "service_load"}
        self.props.update(props)
        self.proc = None
        self.log_path = os.path.join(workdir, f"java-worker-{self.port}.log")

    def start(self, *connector_files, timeout=90):
        worker_file = write_properties(
            os.path.join(self.workdir, f"java-worker-{self.port}.properties"), self.props)
        log4j = os.path.join(self.workdir, "java-log4j2.properties")
        with open(log4j, "w") as f:
            f.write(_JAVA_LOG4J2)
        cmd = java_mm2_command()
        cmd[1:1] = [f"-Dlog4j2.configurationFile={log4j}"]
        cmd += ["org.apache.kafka.connect.cli.ConnectStandalone", worker_file, *connector_files]
        self.log = open(self.log_path, "a")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        wait_until(self._healthy, timeout=timeout, interval=0.25, what="Java worker REST")
        return self

    def _healthy(self):
        if self.proc.poll() is not None:
            raise AssertionError(f"Java worker exited with {self.proc.returncode}:\n{self.tail()}")
        try:
            return http("GET", self.url + "/")[0] == 200
        except OSError:
            return False

    def tail(self, lines=60):
        with open(self.log_path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])

    def get(self, path):
        return http("GET", self.url + path)

    def state(self, connector):
        try:
            status, body, _ = self.get(f"/connectors/{connector}/status")
        except OSError:
            return None
        if status != 200:
            return None
        return body["connector"]["state"], [t["state"] for t in body["tasks"]]

    def wait_state(self, connector, connector_state, task_states, timeout=60):
        return wait_until(lambda: self.state(connector) == (connector_state, task_states),
                          timeout=timeout, what=f"Java {connector} {connector_state} {task_states}")

    def stop(self, sig=signal.SIGTERM, timeout=60):
        """Signals the JVM and waits; returns its exit status (143 after a clean SIGTERM)."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(timeout=timeout)
        return self.proc.returncode if self.proc else None

    def kill9(self):
        return self.stop(signal.SIGKILL)


class StandaloneWorkerWithConnectorFiles(StandaloneWorker):
    """A StandaloneWorker started like Java's: `connectd standalone worker.properties
    connector.properties...`, so both workers can be given the very same connector file."""

    def start(self, *connector_files):
        path = write_properties(os.path.join(self.workdir, "worker.properties"), self.props)
        self.log = open(self.log_path, "a")
        self.proc = subprocess.Popen([CONNECTD, "standalone", path, *connector_files],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        wait_until(lambda: self._healthy(), timeout=60, what="worker REST /health")
        return self
