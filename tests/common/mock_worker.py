"""A connectd standalone worker on a JVM-free mock cluster, for the Python fault and fuzz tests.

    worker = MockWorker(build_dir, workdir, plugins=[".../libconnectd_file.so"])
    worker.start()                  # `connectd dev-kafka --clusters A` + `connectd standalone`
    worker.call("GET", "/connectors")   # -> (status, parsed JSON or raw bytes)
    worker.rss_kb(); worker.alive(); worker.stop()

`plugins` are symlinked into a plugin.path directory of the worker's own, so a test decides
exactly which connector classes exist. The REST listener binds 127.0.0.1:0; the port is read
from the worker's log. The worker's soft RLIMIT_NOFILE is raised to 4096 (within the hard
limit) so the REST server's 1,000-connection cap binds before the process' descriptor limit.
Everything started is stopped by stop() (SIGTERM, then SIGKILL after 20 s).
"""

import json
import os
import re
import resource
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request


class MockWorker:
    def __init__(self, build_dir, workdir, plugins, extra_props=None):
        self.build_dir = build_dir
        self.workdir = workdir
        self.plugins = plugins
        self.extra_props = extra_props or {}
        self.connectd = os.path.join(build_dir, "bin", "connectd")
        self.kafka = None
        self.proc = None
        self.port = None
        self.log_path = os.path.join(workdir, "worker.log")
        self._kafka_out = None
        self._log_file = None

    def start(self):
        if not os.access(self.connectd, os.X_OK):
            raise RuntimeError(f"{self.connectd} not found; build first (scripts/build)")
        out = self._kafka_out = open(os.path.join(self.workdir, "dev-kafka.out"), "w+")
        self.kafka = subprocess.Popen([self.connectd, "dev-kafka", "--clusters", "A"], stdout=out,
                                      stderr=subprocess.DEVNULL, start_new_session=True)
        bootstrap = None
        for _ in range(100):
            out.seek(0)
            m = re.search(r"^A bootstrap=(\S+)", out.read(), re.M)
            if m:
                bootstrap = m.group(1)
                break
            time.sleep(0.1)
        if not bootstrap:
            raise RuntimeError("connectd dev-kafka did not print a bootstrap address")
        plugin_dir = os.path.join(self.workdir, "plugins")
        os.makedirs(plugin_dir, exist_ok=True)
        for lib in self.plugins:
            if not os.path.exists(lib):
                raise RuntimeError(f"plugin {lib} not found; build first")
            os.symlink(lib, os.path.join(plugin_dir, os.path.basename(lib)))
        props = {
            "bootstrap.servers": bootstrap,
            "key.converter": "org.apache.kafka.connect.storage.StringConverter",
            "value.converter": "org.apache.kafka.connect.storage.StringConverter",
            "offset.storage.file.filename": os.path.join(self.workdir, "offsets"),
            "listeners": "http://127.0.0.1:0",
            "plugin.path": plugin_dir,
        }
        props.update(self.extra_props)
        props_path = os.path.join(self.workdir, "worker.properties")
        with open(props_path, "w") as f:
            f.write("".join(f"{k}={v}\n" for k, v in props.items()))
        logf = self._log_file = open(self.log_path, "w")

        def limits():
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            want = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, want), hard))

        self.proc = subprocess.Popen([self.connectd, "standalone", props_path], stdout=logf,
                                     stderr=subprocess.STDOUT, preexec_fn=limits,
                                     start_new_session=True)
        for _ in range(200):
            if self.proc.poll() is not None:
                raise RuntimeError(f"the worker exited with {self.proc.returncode}; "
                                   f"see {self.log_path}")
            with open(self.log_path, errors="replace") as f:
                m = re.search(r"REST server listening on http://127\.0\.0\.1:(\d+)", f.read())
            if m:
                self.port = int(m.group(1))
                break
            time.sleep(0.05)
        if not self.port:
            raise RuntimeError("the worker did not start its REST server")
        deadline = time.time() + 30
        while self.health() != 200:
            if time.time() > deadline:
                raise RuntimeError("the worker did not become healthy")
            time.sleep(0.1)

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def call(self, method, path, body=None, timeout=15):
        """(status, parsed JSON body or None); on a 4xx/5xx the raw body bytes."""
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url(path), data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                raw = r.read()
                return r.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def health(self):
        try:
            return self.call("GET", "/health", timeout=12)[0]
        except OSError:
            return None

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def rss_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            m = re.search(r"^VmRSS:\s+(\d+) kB", f.read(), re.M)
        return int(m.group(1))

    def log_text(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def stop(self, timeout=20):
        """SIGTERM both processes; SIGKILL after `timeout` s. Returns the worker's exit status."""
        for p in (self.proc, self.kafka):
            if p is None or p.poll() is not None:
                continue
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for f in (self._kafka_out, self._log_file):
            if f is not None:
                f.close()
        return self.proc.returncode if self.proc else None


def quote(name):
    """A connector name as one path segment."""
    return urllib.parse.quote(name, safe="")
