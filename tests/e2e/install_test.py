"""End to end: the install tree (`cmake --install BUILD --prefix P`, cmake/Install.cmake) runs on
its own, against the real Kafka fixtures.

The tree is installed into a fresh directory, checked file by file (every ELF file stripped, its
RUNPATH inside the tree, its debug info found by build ID; nothing naming the build, the sources or
the project's caches), and then run as a user would run it: from the installed sample configs,
from another directory, in a mount namespace where the build tree, the sources and
~/.cache/connectd are empty directories. So a worker that starts here needs nothing but the tree
and Debian's libraries.

- test_tree_is_self_contained: the layout, the ELF files, no path back to the build.
- test_version_and_plugins: `connectd version` and `connectd plugins` from the tree.
- test_standalone_from_the_sample_configs: Kafka's quickstart (file -> topic -> file) with the
  installed connect-standalone.properties and file connector samples.
- test_distributed_from_the_sample_configs: a distributed worker from the installed
  connect-distributed.properties runs the installed MirrorSource sample from cluster A to B.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import unittest
import uuid

from connectd_e2e import BUILD_DIR, REPO_ROOT, free_port, http, kafka_bootstrap, wait_until

TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "connectd")
# What the installed tree must neither name nor need.
HIDDEN = sorted({os.path.realpath(BUILD_DIR), REPO_ROOT, CACHE})
# The plugins and libraries an install ships, beside bin/connectd.
SHIPPED_ELF = {"bin/connectd", "lib/connectd/librdkafka.so.1",
               "lib/connectd/file-connectors/libconnectd_file.so",
               "lib/connectd/plugins/libconnectd_mirror_source.so",
               "lib/connectd/plugins/libconnectd_mirror_checkpoint.so",
               "lib/connectd/plugins/libconnectd_mirror_heartbeat.so"}


def tool(*args, timeout=120):
    out = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"kafka_test_tool {args}: {out.stderr}")
    return out.stdout


def readelf(*args):
    return subprocess.run(["readelf", "--wide", *args], capture_output=True, text=True,
                          check=True).stdout


def isolated(argv):
    """argv run in a private mount namespace where every HIDDEN directory is an empty tmpfs."""
    tops = [d for d in HIDDEN if os.path.isdir(d)
            and not any(d.startswith(other + "/") for other in HIDDEN)]
    mounts = " && ".join(f"mount -t tmpfs connectd-hidden '{d}'" for d in tops)
    return ["unshare", "--mount", "--propagation", "private", "sh", "-ec",
            f'{mounts} && exec "$@"', "isolated", *argv]


def set_properties(path, changes):
    """Rewrites `key=value` lines of a properties file in place (each key must be there)."""
    with open(path) as f:
        lines = f.read().splitlines()
    missing = set(changes)
    for i, line in enumerate(lines):
        key = re.split(r"\s*[=:]\s*", line.lstrip("#"), maxsplit=1)[0].strip()
        if key in changes and "=" in line:
            lines[i] = f"{key}={changes[key]}"
            missing.discard(key)
    if missing:
        raise AssertionError(f"{path} has no line for {sorted(missing)}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


class InstallTree:
    """One `cmake --install` into a fresh prefix outside every HIDDEN directory, shared by the
    tests of this file and removed after them."""
    prefix = None

    @classmethod
    def get(cls):
        if cls.prefix is None:
            root = tempfile.mkdtemp(prefix="connectd-install-", dir="/var/tmp")
            cls.prefix = os.path.join(root, "opt", "connectd")
            out = subprocess.run(["cmake", "--install", BUILD_DIR, "--prefix", cls.prefix],
                                 capture_output=True, text=True, timeout=600)
            if out.returncode != 0:
                raise AssertionError(f"cmake --install failed:\n{out.stdout[-3000:]}{out.stderr}")
        return cls.prefix

    @classmethod
    def remove(cls):
        if cls.prefix is not None:
            shutil.rmtree(os.path.dirname(os.path.dirname(cls.prefix)), ignore_errors=True)
            cls.prefix = None


def tearDownModule():
    InstallTree.remove()


class InstalledProcess:
    """A connectd command from the install tree, isolated, in its own working directory."""

    def __init__(self, workdir, *args):
        self.log_path = os.path.join(workdir, "connectd.log")
        self.log = open(self.log_path, "a")
        binary = os.path.join(InstallTree.get(), "bin", "connectd")
        self.proc = subprocess.Popen(isolated([binary, *args]), cwd=workdir, stdout=self.log,
                                     stderr=subprocess.STDOUT)

    def tail(self, lines=60):
        with open(self.log_path) as f:
            return "".join(f.readlines()[-lines:])

    def alive(self):
        if self.proc.poll() is not None:
            raise AssertionError(f"connectd exited with {self.proc.returncode}:\n{self.tail()}")
        return True

    def mapped_files(self):
        with open(f"/proc/{self.proc.pid}/maps") as f:
            return {line.split()[-1] for line in f if "/" in line.split()[-1]}

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=60)
        self.log.close()
        return self.proc.returncode


class InstallTreeTest(unittest.TestCase):
    def setUp(self):
        self.prefix = InstallTree.get()
        self.workdir = tempfile.mkdtemp(prefix="connectd-installed-", dir="/var/tmp")
        self.processes = []
        self.topics = {}

    def tearDown(self):
        for p in self.processes:
            p.stop()
        for bootstrap, names in self.topics.items():
            tool("delete", bootstrap, *names)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def path(self, *parts):
        return os.path.join(self.prefix, *parts)

    def start(self, *args):
        process = InstalledProcess(self.workdir, *args)
        self.processes.append(process)
        return process

    def run_installed(self, *args):
        out = subprocess.run(isolated([self.path("bin", "connectd"), *args]), cwd=self.workdir,
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout

    def sample(self, name):
        """A copy of an installed sample config in the working directory."""
        return shutil.copy(self.path("share", "connectd", "config", name), self.workdir)

    def elf_files(self):
        found = []
        for top in ("bin", os.path.join("lib", "connectd")):
            for dirpath, _, files in os.walk(self.path(top)):
                for name in files:
                    path = os.path.join(dirpath, name)
                    with open(path, "rb") as f:
                        if f.read(4) == b"\x7fELF":
                            found.append(path)
        return found

    def test_tree_is_self_contained(self):
        for rel in ("share/connectd/config/connect-distributed.properties",
                    "share/connectd/config/connect-standalone.properties",
                    "share/connectd/config/connect-mirror-maker.properties",
                    "share/connectd/config/connect-file-source.properties",
                    "share/connectd/config/connect-file-sink.properties",
                    "share/connectd/config/mirror-source-connector.json",
                    "share/connectd/config/grafana/connectd-mirror-flows.json",
                    "share/connectd/config/prometheus/connectd-mirror-alerts.yml",
                    "include/connectd/plugin/abi.h", "include/connectd/sdk/connector.h"):
            self.assertTrue(os.path.isfile(self.path(rel)), rel)
        self.assertTrue(os.path.isfile(self.path("lib", "pkgconfig", "connectd-sdk.pc")))
        self.assertEqual({os.path.relpath(e, self.prefix) for e in self.elf_files()}, SHIPPED_ELF)
        for elf in self.elf_files():
            dynamic = readelf("--dynamic", elf)
            for runpath in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]",
                                      dynamic):
                for entry in runpath.split(":"):
                    self.assertTrue(entry.startswith("$ORIGIN"), f"{elf}: RUNPATH {runpath}")
            sections = readelf("--sections", elf)
            self.assertNotIn(".debug_info", sections, f"{elf} is not stripped")
            self.assertIn(".gnu_debuglink", sections, elf)
            build_id = re.search(r"Build ID: ([0-9a-f]{2})([0-9a-f]+)", readelf("--notes", elf))
            self.assertIsNotNone(build_id, f"{elf} has no build ID")
            debug = self.path("lib", "debug", ".build-id", build_id[1], build_id[2] + ".debug")
            self.assertIn(".debug_info", readelf("--sections", debug), debug)
        # The binary needs the tree's librdkafka and nothing else of connectd's.
        needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]",
                            readelf("--dynamic", self.path("bin", "connectd")))
        self.assertIn("librdkafka.so.1", needed)
        # No file but the debug info names the build, the sources or the caches.
        for dirpath, _, files in os.walk(self.prefix):
            if os.path.join("lib", "debug") in dirpath:
                continue
            for name in files:
                with open(os.path.join(dirpath, name), "rb") as f:
                    data = f.read()
                for hidden in HIDDEN:
                    self.assertNotIn(hidden.encode(), data, os.path.join(dirpath, name))

    def test_version_and_plugins(self):
        lines = dict(line.split(" ", 1) for line in self.run_installed("version").splitlines())
        self.assertRegex(lines["connectd"], r"^\d+\.\d+\.\d+$")
        head = subprocess.run(["git", "-C", REPO_ROOT, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        self.assertEqual(lines["commit"].removesuffix("-dirty"), head or "unknown")
        self.assertEqual(lines["kafka-connect"], "4.4.0")
        self.assertEqual(lines["librdkafka"], "2.14.2")
        self.assertRegex(lines["plugin-abi"], r"^1\.\d+$")
        # Without --plugin-path: the plugins installed with the binary, each loading.
        plugins = [line.split("\t") for line in self.run_installed("plugins").splitlines()]
        classes = {p[1] for p in plugins if p[0] in ("source", "sink")}
        self.assertLessEqual({"org.apache.kafka.connect.mirror.MirrorSourceConnector",
                              "org.apache.kafka.connect.mirror.MirrorCheckpointConnector",
                              "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector"}, classes)
        for p in plugins:
            self.assertTrue(p[-1].startswith(self.path("lib", "connectd", "plugins")), p)
        # The FileStream connectors: beside the default plugin.path, not on it (issue 48).
        self.assertFalse({c for c in classes if "FileStream" in c}, classes)
        named = [line.split("\t") for line in self.run_installed(
            "plugins", "--plugin-path", self.path("lib", "connectd", "file-connectors")).splitlines()]
        self.assertLessEqual({"org.apache.kafka.connect.file.FileStreamSourceConnector",
                              "org.apache.kafka.connect.file.FileStreamSinkConnector"},
                             {p[1] for p in named if p[0] in ("source", "sink")})

    def wait_rest(self, process, url):
        def ready():
            process.alive()
            try:
                return http("GET", url + "/health")[0] == 200
            except OSError:
                return False
        wait_until(ready, timeout=60, what="the installed worker's /health")

    def assert_runs_from_the_tree(self, process):
        mapped = process.mapped_files()
        self.assertIn(self.path("lib", "connectd", "librdkafka.so.1"), mapped)
        self.assertFalse([m for m in mapped if any(m.startswith(h) for h in HIDDEN)], mapped)

    def test_standalone_from_the_sample_configs(self):
        bootstrap, port = kafka_bootstrap("ctest-a"), free_port()
        topic = f"installed-{uuid.uuid4().hex[:8]}"
        self.topics[bootstrap] = [topic]
        worker = self.sample("connect-standalone.properties")
        set_properties(worker, {"bootstrap.servers": bootstrap,
                                "listeners": f"http://127.0.0.1:{port}",
                                "offset.storage.file.filename": os.path.join(self.workdir, "offsets"),
                                "offset.flush.interval.ms": "1000",
                                # The file connectors are named, as Kafka's quickstart names
                                # connect-file: they are not on the default plugin.path.
                                "plugin.path": self.path("lib", "connectd", "plugins") + "," +
                                self.path("lib", "connectd", "file-connectors")})
        source, sink = self.sample("connect-file-source.properties"), self.sample(
            "connect-file-sink.properties")
        set_properties(source, {"topic": topic})
        set_properties(sink, {"topics": topic})
        lines = [json.dumps({"n": i}) for i in range(200)]
        with open(os.path.join(self.workdir, "test.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        # Kafka's quickstart: relative file names, read from the worker's working directory.
        process = self.start("standalone", "connect-standalone.properties",
                             "connect-file-source.properties", "connect-file-sink.properties")
        url = f"http://127.0.0.1:{port}"
        self.wait_rest(process, url)
        sink_file = os.path.join(self.workdir, "test.sink.txt")

        def copied():
            process.alive()
            if not os.path.exists(sink_file):
                return False
            with open(sink_file) as f:
                return f.read().splitlines() == lines
        wait_until(copied, timeout=60, what="200 lines through Kafka into test.sink.txt")
        self.assert_runs_from_the_tree(process)
        status = http("GET", url + "/connectors/local-file-source/status")[1]
        self.assertEqual(status["connector"]["state"], "RUNNING")
        self.assertEqual(process.stop(), 0, process.tail())

    def test_distributed_from_the_sample_configs(self):
        a, b = kafka_bootstrap("ctest-a"), kafka_bootstrap("ctest-b")
        uid, port = uuid.uuid4().hex[:8], free_port()
        topic = f"installed-{uid}"
        internal = [f"installed-{uid}-{kind}" for kind in ("offsets", "configs", "status")]
        source_alias, target_alias = f"a{uid}", f"b{uid}"
        self.topics[a] = [topic, f"mm2-offset-syncs.{target_alias}.internal"]
        self.topics[b] = [*internal, f"{source_alias}.{topic}"]
        worker = self.sample("connect-distributed.properties")
        set_properties(worker, {"bootstrap.servers": b, "group.id": f"installed-{uid}",
                                "offset.storage.topic": internal[0],
                                "config.storage.topic": internal[1],
                                "status.storage.topic": internal[2],
                                "listeners": f"http://127.0.0.1:{port}",
                                "offset.flush.interval.ms": "1000"})
        tool("create", a, topic, 2)
        tool("produce", a, topic, 100, 2)
        process = self.start("distributed", "connect-distributed.properties")
        url = f"http://127.0.0.1:{port}"
        self.wait_rest(process, url)
        # The installed MirrorSource sample, pointed at the fixtures and this test's topic.
        with open(self.path("share", "connectd", "config", "mirror-source-connector.json")) as f:
            request = json.load(f)
        request["config"].update({"source.cluster.bootstrap.servers": a,
                                  "target.cluster.bootstrap.servers": b, "topics": topic,
                                  "source.cluster.alias": source_alias,
                                  "target.cluster.alias": target_alias})
        request["name"] = f"installed-mirror-{uid}"
        status, body, text = http("POST", url + "/connectors", request)
        self.assertEqual(status, 201, text)

        def mirrored():
            process.alive()
            try:
                return int(tool("count", b, f"{source_alias}.{topic}").strip()) == 100
            except AssertionError:
                return False
        wait_until(mirrored, timeout=90, interval=1, what="the 100 records on B")
        self.assert_runs_from_the_tree(process)
        # The internal topics exist: created with the sample's replication factor -1 (the brokers' default).
        for name in internal:
            self.assertGreater(int(tool("partitions", b, name).strip()), 0, name)
        self.assertEqual(process.stop(), 0, process.tail())


if __name__ == "__main__":
    unittest.main()
