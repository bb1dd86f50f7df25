"""The fault suite (issue #10): MirrorSource A -> B on a 3-worker connectd distributed cluster,
numbered records produced on A while one fault strikes at a random (seeded) moment, then every
record checked on B. See README.md beside this file; run through scripts/fault-suite.

Layout of a run (everything started here, everything stopped at the end, even on Ctrl-C):
- three single-node KRaft clusters from scripts/kafka in a private run dir: fs-a (source A),
  fs-b (target B), fs-c (the Connect internal topics of the at-least-once workers, so that
  "the internal topics' leader restart" is a fault of its own). Their PLAINTEXT listeners are on
  the host end of a veth pair (scripts/kafka start --host), so a worker in a network namespace
  reaches them;
- the at-least-once cluster: 3 `connectd distributed` workers, internal topics on C, worker 2
  inside network namespace fs-<pid> (its only link is the veth pair), producers writing B
  (producer.override.bootstrap.servers);
- the exactly-once cluster (`exactly.once.source.support=enabled`): 3 workers, internal topics
  on B as in tests/e2e/mirror_exactly_once_test.py, started after the at-least-once faults;
- per fault a fresh 8-partition topic on A and a MirrorSource connector (tasks.max 3) for it.
With --brokers 3, A and B are 3-node clusters (scripts/kafka start --nodes 3: RF 3, min ISR 2;
the source topic and the target topic get RF 3) and the faults that strike single nodes of them
(THREE_BROKER_FAULTS) can run.

Python standard library only; Kafka access through build/tests/kafka_test_tool (produce-paced,
verify, end-offsets) and scripts/kafka (start, halt, resume, stop).
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                         ".."))
sys.path.insert(0, os.path.join(REPO_ROOT, "tests", "e2e"))

PARTITIONS = 8
TASKS = 3
SOURCE_CLASS = "org.apache.kafka.connect.mirror.MirrorSourceConnector"
BYTE_ARRAY = "org.apache.kafka.connect.converters.ByteArrayConverter"
OFFSET_FLUSH_MS = 5000

# name -> (cluster kind, what it does); the order is the run order.
FAULTS = {
    "kill9": ("alo", "kill -9 of the worker running the most tasks, restarted later"),
    "sigterm": ("alo", "SIGTERM of the worker running the most tasks, restarted later"),
    "target-restart": ("alo", "target broker B halted for the outage, then resumed"),
    "source-restart": ("alo", "source broker A halted for the outage, then resumed"),
    "netcut": ("alo", "the veth link of the worker in the network namespace down, then up"),
    "storm": ("alo", "rebalance storm: workers join and leave every few seconds"),
    "internal-restart": ("alo", "broker C (the internal topics' leader) halted, then resumed"),
    "eos-kill9": ("eos", "kill9 under exactly.once.source.support=enabled"),
    "eos-sigterm": ("eos", "sigterm under exactly-once"),
    "eos-target-restart": ("eos", "target-restart under exactly-once (B holds the internal "
                                  "topics too)"),
    "eos-storm": ("eos", "storm under exactly-once"),
    # Only with --brokers 3 (A and B are 3-node clusters).
    "source-leader-kill9": ("alo", "kill -9 of the node of A leading the most source partitions, "
                                   "resumed after the outage"),
    "target-leader-kill9": ("alo", "kill -9 of the node of B leading the most target partitions, "
                                   "resumed after the outage"),
    "target-broker-down": ("alo", "one node of B (not the quorum's leader) halted for the outage, "
                                  "then resumed"),
    "target-min-isr": ("alo", "two nodes of B halted for the outage (acks=all cannot be met: "
                              "NOT_ENOUGH_REPLICAS), then resumed"),
    "target-reassign": ("alo", "the target partitions' replicas reordered (reassignment) and "
                               "their leaders moved (preferred election) during the copy"),
}
THREE_BROKER_FAULTS = ("source-leader-kill9", "target-leader-kill9", "target-broker-down",
                       "target-min-isr", "target-reassign")
# The faults of a node outage: the produce window leaves room for the outage and a tail.
OUTAGE_FAULTS = ("target-restart", "source-restart", "internal-restart", "netcut",
                 "source-leader-kill9", "target-leader-kill9", "target-broker-down",
                 "target-min-isr", "target-reassign")
# The faults a 3-node cluster rides through (the other nodes take over at once or after the
# fencing of the lost one): recovery is measured from the injection (the failover), not from
# the heal, by which time everything has long been copied.
RECOVERY_FROM_INJECTION = ("source-leader-kill9", "target-leader-kill9", "target-broker-down",
                           "target-reassign")
PASSTHROUGH_METRIC = "kafka_connect_mirror_mirrorsourceconnector_passthrough"

PROFILES = {
    # records per fault, produce window (s), outage (s), storm length (s), worker restart delay
    # (s), window for the fault's moment (s after the first record), catch-up budget (s), how
    # long records keep coming after the latest possible end of an outage or storm (s)
    "full": dict(records=1_000_000, window=75, outage=30, storm=30, restart_after=10,
                 moment=(10, 25), catchup=300, tail=20),
    "short": dict(records=50_000, window=20, outage=10, storm=10, restart_after=5,
                  moment=(2, 5), catchup=120, tail=12),
}


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Interrupted(Exception):
    pass


def _on_signal(signum, _frame):
    raise Interrupted(f"signal {signum}")


# ---- Environment: brokers, network namespace -------------------------------------------------

class Net:
    """A network namespace joined to the host by a veth pair: host end HOST_ADDR, namespace end
    NS_ADDR (/30). cut() takes both ends down, heal() brings them up."""

    def __init__(self):
        pid = os.getpid()
        self.ns = f"fs-{pid}"
        self.host_if, self.ns_if = f"fsv{pid}h", f"fsv{pid}n"
        octet = 4 * (pid % 60)
        self.host_addr, self.ns_addr = f"10.213.{pid % 250}.{octet + 1}", \
            f"10.213.{pid % 250}.{octet + 2}"
        self.up = False

    def ip(self, *args, ns=False):
        cmd = (["ip", "netns", "exec", self.ns] if ns else []) + ["ip", *args]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip()}")

    def create(self):
        self.ip("netns", "add", self.ns)
        self.up = True
        self.ip("link", "add", self.host_if, "type", "veth", "peer", "name", self.ns_if)
        self.ip("link", "set", self.ns_if, "netns", self.ns)
        self.ip("addr", "add", f"{self.host_addr}/30", "dev", self.host_if)
        self.ip("link", "set", self.host_if, "up")
        self.ip("addr", "add", f"{self.ns_addr}/30", "dev", self.ns_if, ns=True)
        self.ip("link", "set", self.ns_if, "up", ns=True)
        self.ip("link", "set", "lo", "up", ns=True)
        return self

    def cut(self):
        self.ip("link", "set", self.ns_if, "down", ns=True)
        self.ip("link", "set", self.host_if, "down")

    def heal(self, probe_port):
        """Links up; returns once a TCP connect from the namespace to host_addr:probe_port (a
        broker) succeeds, or after 10 s."""
        self.ip("link", "set", self.host_if, "up")
        self.ip("link", "set", self.ns_if, "up", ns=True)
        deadline = time.time() + 10
        while time.time() < deadline:
            if subprocess.run(["ip", "netns", "exec", self.ns, "timeout", "1", "bash", "-c",
                               f"exec 3<>/dev/tcp/{self.host_addr}/{probe_port}"],
                              capture_output=True).returncode == 0:
                return
            time.sleep(0.1)

    def destroy(self):
        if not self.up:
            return
        subprocess.run(["ip", "link", "del", self.host_if], capture_output=True)
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        self.up = False


class Brokers:
    def __init__(self, run_dir, host):
        self.run_dir, self.host = run_dir, host
        self.env = dict(os.environ, CONNECTD_RUN_DIR=run_dir)
        self.names = []
        self.bootstrap = {}
        self.nodes = {}

    def kafka(self, *args, timeout=300):
        out = subprocess.run([os.path.join(REPO_ROOT, "scripts", "kafka"), *args],
                             capture_output=True, text=True, env=self.env, timeout=timeout)
        if out.returncode != 0:
            raise RuntimeError(f"scripts/kafka {' '.join(args)}: {out.stderr[-3000:]}")
        return out.stdout

    def start(self, *names, nodes=None):
        """Starts the clusters in parallel (`nodes`: {name: 3} for 3-node ones); returns once all
        serve."""
        procs = {}
        nodes = nodes or {}
        for name in names:
            self.names.append(name)
            self.nodes[name] = nodes.get(name, 1)
            extra = ["--nodes", str(self.nodes[name])] if self.nodes[name] > 1 else []
            procs[name] = subprocess.Popen(
                [os.path.join(REPO_ROOT, "scripts", "kafka"), "start", name, "--host", self.host,
                 *extra],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.env)
        for name, p in procs.items():
            out, err = p.communicate(timeout=300)
            if p.returncode != 0:
                raise RuntimeError(f"scripts/kafka start {name}: {err[-3000:]}")
            self.bootstrap[name] = [l for l in out.splitlines()
                                    if l.startswith("bootstrap=")][0].split("=", 1)[1]

    def halt(self, name):
        self.kafka("halt", name)

    def resume(self, name):
        self.kafka("resume", name)

    def node_dirs(self, name):
        """The dirs holding a cluster's server.log and data/: its own, or its nodes'."""
        d = os.path.join(self.run_dir, name)
        n = self.nodes.get(name, 1)
        return [d] if n == 1 else [os.path.join(d, f"node{i}") for i in range(1, n + 1)]

    def run_class(self, *args, timeout=120):
        """scripts/kafka run-class ARGS (a Kafka tool); its stdout, or RuntimeError."""
        out = subprocess.run([os.path.join(REPO_ROOT, "scripts", "kafka"), "run-class", *args],
                             capture_output=True, text=True, env=self.env, timeout=timeout)
        if out.returncode != 0:
            raise RuntimeError(f"run-class {' '.join(args[:1])}: exit {out.returncode}: "
                               f"{(out.stderr or out.stdout)[-2000:]}")
        return out.stdout

    def describe(self, name, topic):
        """{partition: (leader, [replicas], [isr])} of a topic (Kafka's TopicCommand)."""
        text = self.run_class("org.apache.kafka.tools.TopicCommand", "--bootstrap-server",
                              self.bootstrap[name], "--describe", "--topic", topic)
        return self.parse_describe(name, topic, text)

    def describe_async(self, name, topic, bootstrap=None):
        """describe() started in the background (through `bootstrap` if given): a Popen whose
        stdout parse_describe reads."""
        return subprocess.Popen([os.path.join(REPO_ROOT, "scripts", "kafka"), "run-class",
                                 "org.apache.kafka.tools.TopicCommand", "--bootstrap-server",
                                 bootstrap or self.bootstrap[name], "--describe", "--topic",
                                 topic],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env=self.env)

    @staticmethod
    def parse_describe(name, topic, text):
        parts = {}
        for m in re.finditer(r"Partition: (\d+)\s+Leader: (-?\d+)\s+Replicas: ([\d,]*)\s+"
                             r"Isr: ([\d,]*)", text):
            parts[int(m.group(1))] = (int(m.group(2)),
                                      [int(x) for x in m.group(3).split(",") if x],
                                      [int(x) for x in m.group(4).split(",") if x])
        if not parts:
            raise RuntimeError(f"no partitions of {topic} described on {name}: {text[-500:]}")
        return parts

    def quorum_leader(self, name):
        """The node id of the cluster's KRaft quorum leader (active controller)."""
        text = self.run_class("org.apache.kafka.tools.MetadataQuorumCommand",
                              "--bootstrap-server", self.bootstrap[name], "describe", "--status")
        m = re.search(r"LeaderId:\s+(\d+)", text)
        if not m:
            raise RuntimeError(f"no LeaderId in the quorum status of {name}: {text[-500:]}")
        return int(m.group(1))

    def stop_all(self, keep=False):
        """Stops every cluster; `keep` halts them instead, leaving their data and logs."""
        for name in self.names:
            try:
                self.kafka("halt" if keep else "stop", name, timeout=120)
            except Exception as e:  # noqa: BLE001 - best effort at exit
                log(f"stopping {name}: {e}")


# ---- Workers -----------------------------------------------------------------------------------

def make_cluster_classes():
    """Imported late: distributed_cluster reads CONNECTD_BUILD_DIR at import time."""
    os.environ["CONNECTD_JAVA_WITH_MIRROR"] = "1"  # for --workers java
    import distributed_cluster as dc

    class NetnsWorker(dc.Worker):
        """A connectd worker inside network namespace `net.ns`: REST on the namespace's address,
        which is also its worker id and advertised URL."""

        def __init__(self, kind, index, workdir, props, net):
            super().__init__(kind, index, workdir, props)
            self.net = net
            self.url = f"http://{net.ns_addr}:{self.port}"
            self.worker_id = f"{net.ns_addr}:{self.port}"
            self.props["listeners"] = self.url
            self.props["rest.advertised.host.name"] = net.ns_addr

        def __repr__(self):
            return f"worker {self.index} (connectd in netns {self.net.ns}, {self.worker_id})"

        def launch(self):
            path = dc.write_properties(os.path.join(self.dir, "worker.properties"), self.props)
            if self._out:
                self._out.close()
            self._out = open(self.log_path, "a")
            self.started_at = time.time()
            # `ip netns exec` execs connectd: the pid is the worker's own.
            self.proc = subprocess.Popen(["ip", "netns", "exec", self.net.ns, dc.CONNECTD,
                                          "distributed", path],
                                         stdout=self._out, stderr=subprocess.STDOUT)
            return self

    class SuiteCluster(dc.WorkerCluster):
        """WorkerCluster whose worker `netns_index` (if any) lives in the namespace; the other
        workers' REST listeners (and so their worker ids and the URLs the group hands around
        for forwarding to the leader) are on `rest_host`, which the namespace reaches too."""

        def __init__(self, kinds, net=None, netns_index=None, rest_host="127.0.0.1", **kw):
            self.net, self.netns_index, self.rest_host = net, netns_index, rest_host
            super().__init__(kinds, **kw)

        def _new_worker(self, kind):
            props = dict(self.common)
            props.update(self.props_by_kind.get(kind, {}))
            index = len(self.workers)
            if self.net is not None and index == self.netns_index:
                worker = NetnsWorker(kind, index, self.workdir, props, self.net)
            else:
                worker = dc.Worker(kind, index, self.workdir, props)
                worker.url = f"http://{self.rest_host}:{worker.port}"
                worker.worker_id = f"{self.rest_host}:{worker.port}"
                worker.props["listeners"] = worker.url
                worker.props["rest.advertised.host.name"] = self.rest_host
            self.workers.append(worker)
            return worker

    return dc, SuiteCluster


# ---- One fault -----------------------------------------------------------------------------------

class Monitor(threading.Thread):
    """Samples the target topic's end offsets (per partition) every 0.5 s: (time, {p: end} or
    None when B does not answer)."""

    def __init__(self, dc, bootstrap, topic):
        super().__init__(daemon=True)
        self.dc, self.bootstrap, self.topic = dc, bootstrap, topic
        self.samples = []
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            t = time.time()
            try:
                out = subprocess.run([self.dc.TOOL, "end-offsets", self.bootstrap, self.topic],
                                     capture_output=True, text=True, timeout=8)
                ends = {int(k): v for k, v in json.loads(out.stdout).items()} \
                    if out.returncode == 0 and out.stdout.strip() else None
            except (subprocess.TimeoutExpired, ValueError):
                ends = None
            self.samples.append((t, ends))
            self.stopping.wait(max(0.0, 0.5 - (time.time() - t)))

    def finish(self):
        self.stopping.set()
        self.join(timeout=30)

    def recovery(self, t_heal):
        """Seconds from t_heal until every target partition's end offset has grown past its
        value in the first sample B answered after t_heal (a sample from before could predate
        the fault: growth up to the fault would count as recovery); None if some partition
        never grew. Resolution: the 0.5 s sampling period."""
        after = [(t, ends) for t, ends in self.samples if t >= t_heal and ends]
        if not after:
            return None
        base = after[0][1]
        grown = set()
        for t, ends in after[1:]:
            for p, end in ends.items():
                if end > base.get(p, 0):
                    grown.add(p)
            if len(grown) >= PARTITIONS:
                return t - t_heal
        return None


class Suite:
    def __init__(self, args):
        self.args = args
        self.profile = dict(PROFILES["short" if args.short else "full"])
        if args.records:
            self.profile["records"] = args.records
        self.seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
        self.run_dir = tempfile.mkdtemp(prefix="faultsuite-run-")
        self.workdir = tempfile.mkdtemp(prefix="faultsuite-work-")
        self.net = None
        self.brokers = None
        self.alo = self.eos = None
        self.procs = []
        self.rows = []
        self.failed = False
        self.plan = {}  # what a 3-broker fault strikes (prepare)

    # -- set-up and tear-down

    def setup(self):
        self.net = Net()
        try:
            self.net.create()
        except RuntimeError as e:
            self.net.destroy()
            raise RuntimeError(f"network namespace set-up failed: {e}") from None
        log(f"network namespace {self.net.ns}: host {self.net.host_addr} <-> "
            f"{self.net.ns_addr} ({self.net.host_if}/{self.net.ns_if})")
        self.brokers = Brokers(self.run_dir, self.net.host_addr)
        t0 = time.time()
        self.brokers.start("fs-a", "fs-b", "fs-c",
                           nodes={"fs-a": self.args.brokers, "fs-b": self.args.brokers})
        self.a, self.b, self.c = (self.brokers.bootstrap[n] for n in ("fs-a", "fs-b", "fs-c"))
        log(f"brokers A={self.a} B={self.b} C={self.c} up in {time.time() - t0:.1f}s")
        self.copy_build()
        self.dc, self.SuiteCluster = make_cluster_classes()

    def copy_build(self):
        """Runs from a copy of the binaries: other work may relink build/ during a run."""
        src = os.environ.get("CONNECTD_BUILD_DIR") or os.path.join(REPO_ROOT, "build")
        dst = os.path.join(self.workdir, "build")
        for rel in ("bin/connectd", "tests/kafka_test_tool"):
            os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
            shutil.copy2(os.path.join(src, rel), os.path.join(dst, rel))
        for rel in ("plugins", "test-plugins/good", "file-connectors"):
            if os.path.isdir(os.path.join(src, rel)):
                shutil.copytree(os.path.join(src, rel), os.path.join(dst, rel))
        os.environ["CONNECTD_BUILD_DIR"] = dst

    def start_alo(self):
        self.alo = self.SuiteCluster(
            [self.args.workers] * 3, net=self.net, netns_index=2, rest_host=self.net.host_addr,
            name=f"fs-alo-{self.seed}",
            bootstrap=self.c, workdir=os.path.join(self.workdir, "alo"),
            props={"key.converter": BYTE_ARRAY, "value.converter": BYTE_ARRAY,
                   "header.converter": BYTE_ARRAY,
                   "offset.flush.interval.ms": str(OFFSET_FLUSH_MS)})
        self.alo.start(timeout=120)
        log(f"at-least-once workers up: {[w.worker_id for w in self.alo.workers]}")

    def start_eos(self):
        # The internal topics live on B: replicated like B's other topics.
        rf = str(self.args.brokers)
        self.eos = self.SuiteCluster(
            [self.args.workers] * 3, name=f"fs-eos-{self.seed}", bootstrap=self.b,
            workdir=os.path.join(self.workdir, "eos"),
            props={"key.converter": BYTE_ARRAY, "value.converter": BYTE_ARRAY,
                   "header.converter": BYTE_ARRAY,
                   "offset.flush.interval.ms": str(OFFSET_FLUSH_MS),
                   "exactly.once.source.support": "enabled",
                   "config.storage.replication.factor": rf,
                   "offset.storage.replication.factor": rf,
                   "status.storage.replication.factor": rf})
        self.eos.start(timeout=120)
        log(f"exactly-once workers up: {[w.worker_id for w in self.eos.workers]}")

    def close_cluster(self, cluster):
        if cluster is None:
            return
        try:
            cluster.stop()
        except Exception as e:  # noqa: BLE001
            log(f"stopping workers: {e}")
        cluster.close(delete_topics_too=False)

    def teardown(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        if self.args.keep:
            log(f"--keep: worker dirs kept in {self.workdir}, brokers' in {self.run_dir}")
        for cluster in (self.alo, self.eos):
            self.close_cluster(cluster)
        if self.brokers:
            self.brokers.stop_all(keep=self.args.keep)
        if self.net:
            self.net.destroy()
        if not self.args.keep:
            shutil.rmtree(self.run_dir, ignore_errors=True)
            shutil.rmtree(self.workdir, ignore_errors=True)

    # -- helpers

    def tool(self, *args, timeout=120):
        return self.dc.tool(*args, timeout=timeout)

    def connector_config(self, topic, eos):
        config = {"connector.class": SOURCE_CLASS, "source.cluster.alias": "A",
                  "target.cluster.alias": "B", "source.cluster.bootstrap.servers": self.a,
                  "target.cluster.bootstrap.servers": self.b, "topics": topic,
                  "tasks.max": str(TASKS), "replication.factor": str(self.args.brokers),
                  "offset-syncs.topic.replication.factor": str(self.args.brokers),
                  "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false",
                  "refresh.topics.interval.seconds": "5",
                  "key.converter": BYTE_ARRAY, "value.converter": BYTE_ARRAY}
        if not eos:
            # The workers' own cluster is C: the tasks' producers write B.
            config["producer.override.bootstrap.servers"] = self.b
        return config

    def busiest(self, cluster, connector, exclude_netns=True):
        """The live worker running the most of the connector's tasks."""
        owners = cluster.task_owners(connector)
        counts = {}
        for wid in owners.values():
            counts[wid] = counts.get(wid, 0) + 1
        candidates = [w for w in cluster.alive_workers()
                      if not (exclude_netns and w.index == getattr(cluster, "netns_index", None))]
        return max(candidates, key=lambda w: counts.get(w.worker_id, 0))

    def ensure_three(self, cluster):
        """Restarts dead original workers; stops extra ones (storm leftovers)."""
        for w in cluster.workers[:3]:
            if not w.alive():
                cluster.restart(w.index, timeout=120)
        for w in cluster.workers[3:]:
            if w.alive():
                w.stop()

    # -- faults

    def inject(self, fault, cluster, connector, rng):
        """Runs the fault; returns (t_injected, t_healed, note)."""
        p = self.profile
        base = fault[4:] if fault.startswith("eos-") else fault
        if base in ("kill9", "sigterm"):
            victim = self.busiest(cluster, connector)
            t = time.time()
            if base == "kill9":
                victim.kill9()
            else:
                victim.stop(signal.SIGTERM, timeout=60)
            stopped = time.time() - t
            time.sleep(max(0.0, p["restart_after"] - stopped))
            cluster.restart(victim.index, wait=False)
            how = f"exit after {stopped:.1f}s" if base == "sigterm" else "killed"
            return t, t, f"{victim.worker_id} ({how}), restarted after {time.time() - t:.1f}s"
        if base in ("target-restart", "source-restart", "internal-restart"):
            name = {"target-restart": "fs-b", "source-restart": "fs-a",
                    "internal-restart": "fs-c"}[base]
            t = time.time()
            self.brokers.halt(name)
            halted = time.time()
            time.sleep(p["outage"])
            restarting = time.time()
            self.brokers.resume(name)
            healed = time.time()
            return t, healed, (f"{name} stopped in {halted - t:.1f}s, down {p['outage']}s, "
                               f"serving again {healed - restarting:.1f}s after the restart")
        if base == "netcut":
            w = cluster.workers[cluster.netns_index]
            tasks = sum(1 for wid in cluster.task_owners(connector).values()
                        if wid == w.worker_id)
            t = time.time()
            self.net.cut()
            time.sleep(p["outage"])
            self.net.heal(int(self.a.rsplit(":", 1)[1]))
            healed = time.time()
            return t, healed, f"{w.worker_id} ({tasks} task(s)) cut {healed - t:.1f}s"
        if base == "storm":
            t = time.time()
            changes = []
            extras = []
            while time.time() - t < p["storm"]:
                if extras and (len(extras) >= 2 or rng.random() < 0.5):
                    w = extras.pop(rng.randrange(len(extras)))
                    w.stop(signal.SIGTERM, timeout=60)
                    changes.append(f"-{w.index}")
                else:
                    w = cluster.add_worker(self.args.workers, wait=False)
                    extras.append(w)
                    changes.append(f"+{w.index}")
                time.sleep(rng.uniform(2, 4))
            for w in extras:
                w.stop(signal.SIGTERM, timeout=60)
                changes.append(f"-{w.index}")
            healed = time.time()
            return t, healed, f"{len(changes)} membership changes in {healed - t:.1f}s " \
                              f"({' '.join(changes)})"
        if base in ("source-leader-kill9", "target-leader-kill9", "target-broker-down"):
            name, node, why = self.plan["cluster"], self.plan["node"], self.plan["why"]
            t = time.time()
            self.brokers.kafka("kill-node" if base.endswith("kill9") else "halt-node", name,
                               str(node))
            stopped = time.time()
            time.sleep(max(0.0, p["outage"] - (stopped - t)))
            restarting = time.time()
            self.brokers.kafka("resume-node", name, str(node))
            healed = time.time()
            how = "killed" if base.endswith("kill9") else f"stopped in {stopped - t:.1f}s"
            return t, healed, (f"{name} node {node} ({why}) {how}, down {restarting - t:.1f}s, "
                               f"serving again {healed - restarting:.1f}s after the restart")
        if base == "target-min-isr":
            nodes = self.plan["nodes"]
            t = time.time()
            for node in nodes:  # one after the other: each leaves the ISRs in its shutdown
                self.brokers.kafka("halt-node", "fs-b", str(node))
            stopped = time.time()
            # What B says meanwhile (a tool JVM, in the background: it takes seconds).
            probe = self.brokers.describe_async(
                "fs-b", self.plan["topic"],
                self.brokers.kafka("node-bootstrap", "fs-b", str(self.plan["left"])).strip())
            time.sleep(p["outage"])  # the outage of acks=all: from the second node's exit
            try:
                text, _ = probe.communicate(timeout=5)
                during = self.brokers.parse_describe("fs-b", self.plan["topic"], text)
                isrs = sorted({tuple(isr) for _, _, isr in during.values()})
                seen = f"ISR during the outage {' / '.join(','.join(map(str, i)) for i in isrs)}"
            except (subprocess.TimeoutExpired, RuntimeError) as e:
                probe.kill()
                probe.wait()
                seen = ("ISR during the outage unknown (TopicCommand not done in time)"
                        if isinstance(e, subprocess.TimeoutExpired) else
                        f"ISR during the outage unknown ({str(e)[:100]})")
            restarting = time.time()
            # Both at once: the first one back restores the quorum (2 of 3 voters).
            resumes = [subprocess.Popen([os.path.join(REPO_ROOT, "scripts", "kafka"),
                                         "resume-node", "fs-b", str(node)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env=self.brokers.env) for node in nodes]
            for node, proc in zip(nodes, resumes):
                _, err = proc.communicate(timeout=300)
                if proc.returncode != 0:
                    raise RuntimeError(f"scripts/kafka resume-node fs-b {node}: {err[-3000:]}")
            healed = time.time()
            return t, healed, (f"fs-b nodes {nodes[0]} and {nodes[1]} stopped in "
                               f"{stopped - t:.1f}s (node {self.plan['left']} alone, "
                               f"{self.plan['rejected']}; {seen}) for "
                               f"{restarting - stopped:.1f}s, both serving again "
                               f"{healed - restarting:.1f}s after the restart")
        if base == "target-reassign":
            remote = self.plan["topic"]
            before = self.plan["describe"]
            t = time.time()
            moves = {"version": 1, "partitions": [
                {"topic": remote, "partition": part, "replicas": list(reversed(replicas))}
                for part, (_, replicas, _) in sorted(before.items())]}
            elections = {"partitions": [{"topic": remote, "partition": part}
                                        for part in sorted(before)]}
            reassign_file = os.path.join(self.workdir, f"reassign-{remote}.json")
            elect_file = os.path.join(self.workdir, f"elect-{remote}.json")
            with open(reassign_file, "w") as f:
                json.dump(moves, f)
            with open(elect_file, "w") as f:
                json.dump(elections, f)
            self.brokers.run_class("org.apache.kafka.tools.reassign.ReassignPartitionsCommand",
                                   "--bootstrap-server", self.b, "--reassignment-json-file",
                                   reassign_file, "--execute")
            reassigned = time.time()
            # The same replicas in another order: nothing to copy, the reassignment completes at
            # once; the election then makes each partition's new first replica its leader.
            self.brokers.run_class("org.apache.kafka.tools.LeaderElectionCommand",
                                   "--bootstrap-server", self.b, "--election-type", "PREFERRED",
                                   "--path-to-json-file", elect_file)
            healed = time.time()
            after = self.brokers.describe("fs-b", remote)
            moved = sum(1 for part, (leader, _, _) in after.items()
                        if leader != before[part][0])
            order_ok = all(after[part][1] == list(reversed(before[part][1])) for part in before)
            return t, healed, (f"replicas of {len(before)} partitions reversed in "
                               f"{reassigned - t:.1f}s ({'done' if order_ok else 'NOT applied'}), "
                               f"preferred election {healed - reassigned:.1f}s: leaders moved on "
                               f"{moved} of {len(before)} partitions (leaders before "
                               f"{self.leaders_text(before)}, after {self.leaders_text(after)})")
        raise ValueError(fault)

    @staticmethod
    def leaders_text(described):
        return ",".join(str(described[part][0]) for part in sorted(described))

    def prepare(self, fault, topic, remote, rng):
        """Chooses the node(s) a 3-broker fault strikes, before the records flow (Kafka's tools
        are JVMs that take seconds); sets self.plan."""
        self.plan = {}
        if fault in ("source-leader-kill9", "target-leader-kill9"):
            name, t = ("fs-a", topic) if fault.startswith("source") else ("fs-b", remote)
            described = self.brokers.describe(name, t)
            counts = {}
            for leader, _, _ in described.values():
                counts[leader] = counts.get(leader, 0) + 1
            most = max(counts.values())
            node = rng.choice(sorted(n for n, c in counts.items() if c == most))
            self.plan = {"cluster": name, "node": node,
                         "why": f"leader of {most} of {len(described)} partitions of {t}: "
                                f"{self.leaders_text(described)}"}
        elif fault == "target-broker-down":
            quorum = self.brokers.quorum_leader("fs-b")
            described = self.brokers.describe("fs-b", remote)
            node = rng.choice([n for n in (1, 2, 3) if n != quorum])
            led = sum(1 for leader, _, _ in described.values() if leader == node)
            self.plan = {"cluster": "fs-b", "node": node,
                         "why": f"not the quorum leader {quorum}; leader of {led} of "
                                f"{len(described)} partitions"}
        elif fault == "target-min-isr":
            nodes = sorted(rng.sample([1, 2, 3], 2))
            left = ({1, 2, 3} - set(nodes)).pop()
            self.plan = {"nodes": nodes, "left": left, "topic": remote,
                         "rejected": "acks=all rejected: 1 in sync, min.insync.replicas 2"}
        elif fault == "target-reassign":
            self.plan = {"topic": remote, "describe": self.brokers.describe("fs-b", remote)}

    @staticmethod
    def target_errors(cluster, connector):
        """What B answered the connector's batches, from the workers' WARN lines ("Cannot write
        <partition>'s batches to <topic> on B: <error> (counted as produce-error-count ...)", one
        per partition and error episode): "<error> xN, ..." or ""."""
        pattern = re.compile(r"\[" + re.escape(connector) + r"\|task-\d+\] Cannot write \S+'s "
                             r"batches to \S+ on \S+: (.+?) \(counted as")
        counts = {}
        for w in cluster.workers:
            try:
                with open(w.log_path, errors="replace") as f:
                    for line in f:
                        m = pattern.search(line)
                        if m:
                            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
            except OSError:
                continue
        return ", ".join(f"{e} x{n}" for e, n in sorted(counts.items(), key=lambda kv: -kv[1]))

    def copy_path(self, cluster, remote):
        """Which path copies the target topic's partitions, from the `passthrough` metric (1:
        record batches through the worker, 0: record by record through the task) on the live
        workers' /metrics: ("batches" | "records" | "mixed" | "n/a", detail)."""
        values = {}
        for w in cluster.alive_workers():
            try:
                code, _, text = self.dc.http("GET", w.url + "/metrics", timeout=10)
            except OSError:
                continue
            if code != 200:
                continue
            for line in text.splitlines():
                if not line.startswith(PASSTHROUGH_METRIC + "{"):
                    continue
                head, _, value = line.rpartition(" ")
                labels = dict(re.findall(r'(\w+)="([^"]*)"', head))
                if labels.get("topic") == remote and labels.get("partition", "").isdigit():
                    values.setdefault(int(labels["partition"]), []).append(float(value))
        if not values:
            return "n/a", "no passthrough metric for the target topic on any worker"
        batches = sorted(p for p, v in values.items() if set(v) == {1.0})
        records = sorted(p for p, v in values.items() if set(v) == {0.0})
        both = sorted(p for p, v in values.items() if len(set(v)) > 1)
        missing = sorted(set(range(PARTITIONS)) - set(values))
        path = ("batches" if len(batches) == PARTITIONS else
                "records" if len(records) == PARTITIONS else "mixed")
        detail = f"batches {batches}, records {records}"
        if both:
            detail += f", both (two workers) {both}"
        if missing:
            detail += f", no metric {missing}"
        return path, detail

    def run_fault(self, index, fault):
        kind, _ = FAULTS[fault]
        eos = kind == "eos"
        cluster = self.eos if eos else self.alo
        p = self.profile
        rng = random.Random(self.seed * 1000 + index)
        topic = f"fs-{fault}-{self.seed}"
        remote = f"A.{topic}"
        connector = f"mirror-{fault}"
        records = p["records"]
        row = {"fault": fault, "mode": "eos" if eos else "alo", "sent": 0, "received": 0,
               "unique": 0, "duplicates": 0, "lost": None, "out_of_order": 0, "mismatched": 0,
               "recovery": None, "path": "n/a", "ok": False, "note": ""}
        self.rows.append(row)
        moment = rng.uniform(*p["moment"])
        # Records keep coming well after an outage or a storm ends, so that recovery (progress
        # on every partition after the heal) can be seen.
        base = fault[4:] if eos else fault
        window = p["window"]
        if base in OUTAGE_FAULTS:
            window = max(window, p["moment"][1] + p["outage"] + p["tail"])
        if base == "target-reassign":
            # Two tool JVMs (reassignment, then election) take 10 s each on a busy 2-core
            # machine: records keep coming until well after the election.
            window += p["outage"]
        elif base == "storm":
            window = max(window, p["moment"][1] + p["storm"] + p["tail"])
        log(f"== {fault}: {records} records over {window}s, fault at +{moment:.1f}s")
        if self.args.brokers > 1:
            self.brokers.run_class("org.apache.kafka.tools.TopicCommand", "--bootstrap-server",
                                   self.a, "--create", "--topic", topic, "--partitions",
                                   str(PARTITIONS), "--replication-factor",
                                   str(self.args.brokers))
        else:
            self.tool("create", self.a, topic, PARTITIONS)
        code, _, text = cluster.any().post("/connectors", {
            "name": connector, "config": self.connector_config(topic, eos)})
        if code != 201:
            raise RuntimeError(f"POST /connectors: {code} {text}")
        cluster.wait_running(connector, TASKS, timeout=120)
        self.dc.wait_until(lambda: str(PARTITIONS) == self.tool(
            "partitions", self.b, remote).strip(), timeout=60, interval=0.5,
            what=f"{remote} on B")
        self.prepare(fault, topic, remote, rng)
        monitor = Monitor(self.dc, self.b, remote)
        monitor.start()
        producer = subprocess.Popen([self.dc.TOOL, "produce-paced", self.a, topic, str(records),
                                     str(PARTITIONS), str(window)],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.procs.append(producer)
        t_start = time.time()
        time.sleep(moment)
        t_inj, t_heal, note = self.inject(fault, cluster, connector, rng)
        row["note"] = note
        if base == "target-reassign" and t_heal - t_start > window:
            row["note"] += (f" (the election ended at +{t_heal - t_start:.1f}s, after the "
                            f"{window}s produce window)")
        log(f"   {fault}: injected at +{t_inj - t_start:.1f}s, healed at "
            f"+{t_heal - t_start:.1f}s: {note}")
        out, _ = producer.communicate(timeout=window + p["outage"] + 600)
        if producer.returncode != 0:
            raise RuntimeError(f"produce-paced exited {producer.returncode}: {out}")
        row["sent"] = json.loads(out.strip().splitlines()[-1])["sent"]
        log(f"   producer done at +{time.time() - t_start:.1f}s: {row['sent']} records on A")
        # Catch-up: until the count is complete (or the budget runs out), then a final look
        # after a settle period, so late duplicates are counted too.
        deadline = time.time() + p["catchup"]
        read_mode = ["read_committed"] if eos else []
        result = None
        while True:
            ends = monitor.samples[-1][1] if monitor.samples else None
            if ends and sum(ends.values()) >= row["sent"] or time.time() > deadline:
                result = json.loads(self.tool("verify", self.b, remote, records, PARTITIONS, 120,
                                              *read_mode, timeout=200))
                if result["lost"] == 0 or time.time() > deadline:
                    break
            time.sleep(2)
        time.sleep(3)
        result = json.loads(self.tool("verify", self.b, remote, records, PARTITIONS, 120,
                                      *read_mode, timeout=200))
        monitor.finish()
        recovery = monitor.recovery(t_inj if base in RECOVERY_FROM_INJECTION else t_heal)
        row["path"], path_detail = self.copy_path(cluster, remote)
        row["note"] += f"; path: {path_detail}"
        errors = self.target_errors(cluster, connector)
        if errors:
            row["note"] += f"; B answered the batches: {errors}"
        row.update(received=result["records"], unique=result["unique"],
                   duplicates=result["duplicates"], lost=result["lost"],
                   out_of_order=result["out_of_order"],
                   mismatched=result["mismatched"] + result["wrong_partition"]
                   + result["unexpected"], recovery=recovery,
                   max_rewind=result["max_rewind"], complete=result["complete"])
        problems = []
        if row["sent"] != records:
            problems.append(f"sent {row['sent']} of {records}")
        if result["lost"]:
            problems.append(f"lost {result['lost']} (e.g. k{result['lost_sample'][:5]})")
        if result["out_of_order"] or row["mismatched"]:
            problems.append(f"order/content: {result['first_problem']}")
        if not result["complete"]:
            problems.append("B not read to its end")
        if base in THREE_BROKER_FAULTS and row["path"] != "batches":
            # Leader moves, a broker down, min ISR not met: the copier's own to ride out
            # (issue 49); every partition is back on pass-through after the fault.
            problems.append(f"not every partition copied as batches after the fault "
                            f"({path_detail})")
        if eos and result["duplicates"]:
            # Duplicates are the broker's only where B says it skipped the markers of this
            # connector's transactions, and only in those partitions; anything else fails.
            duplicated = {int(p) for p, c in result["partitions"].items() if c["duplicates"]}
            skipped, skip_lines = self.skipped_markers(connector, remote, topic)
            if duplicated <= skipped:
                row["broker_duplicates"] = result["duplicates"]
                row["note"] += (f"; {result['duplicates']} duplicates, all in partitions "
                                f"{sorted(duplicated)} that B's skipped markers left open (Kafka)")
                log(f"   {fault}: {result['duplicates']} duplicates, all in partitions "
                    f"{sorted(duplicated)} that B's skipped transaction markers left open, "
                    f"directly or through their offsets ({sorted(skipped)}):\n"
                    + "\n".join(f"     {l[:300]}" for l in skip_lines[:5]))
            else:
                problems.append(f"{result['duplicates']} duplicates under exactly-once (in "
                                f"partitions {sorted(duplicated)}; B's skipped markers explain "
                                f"{sorted(skipped) or 'none'})")
        row["ok"] = not problems
        if problems:
            row["note"] += "; FAIL: " + "; ".join(problems)
            log(f"   {fault} FAILED: {'; '.join(problems)}\n   verify: {json.dumps(result)}")
            if eos and result["duplicates"]:
                log(self.batches_around(remote, result.get("duplicate_sample", [])))
            log(cluster.tails(30))
        log(f"   {fault}: received {result['records']} unique {result['unique']} "
            f"duplicates {result['duplicates']} (max rewind {result['max_rewind']} records/"
            f"partition) lost {result['lost']} recovery "
            f"{'%.1fs' % recovery if recovery is not None else 'n/a'} path {row['path']} "
            f"({path_detail})")
        # Clean-up for the next fault: the connector goes, workers back to three.
        self.ensure_three(cluster)
        cluster.wait_ready(timeout=120)
        self.dc.wait_until(lambda: cluster.any().delete(f"/connectors/{connector}")[0]
                           in (204, 404), timeout=60, interval=1, what=f"DELETE {connector}")
        if not self.args.keep:
            self.tool("delete", self.a, topic)
            self.tool("delete", self.b, remote)

    def skipped_markers(self, connector, topic, source_topic):
        """The partitions of `topic` that B's skipped transaction markers can have duplicated,
        from B's own log and data. Kafka's transaction coordinator (4.4 as before) completes a
        commit without writing its markers to a partition it finds no leader for, taking it for
        deleted ("Couldn't find leader endpoint for partitions ... likely deleted already and
        hence can be skipped"). A single-broker cluster has no leader for any partition while it
        restarts: around a controlled shutdown, and at start-up while its previous incarnation is
        fenced. The records of such a transaction stay open until the producer's next commit on
        the partition, which commits them along; an offsets-topic partition so left open hides
        every later offset stored in it from read_committed readers, so a restarted task whose
        offset lives there (whichever task wrote the open transaction) sends records again. Java's
        producer is subject to the same (README). Returns ({partition of topic}, [log lines]):
        the data partitions named in the skipped sets, and those whose source partition's offset
        key is stored in a named offsets-topic partition."""
        prefix = f"transaction markers for {self.eos.name}-{connector}-"
        data, offsets, lines = set(), set(), []
        b_dirs = self.brokers.node_dirs("fs-b")
        for path in sorted(p for d in b_dirs for p in glob.glob(os.path.join(d, "server.log*"))):
            with open(path, errors="replace") as f:
                for line in f:
                    if "hence can be skipped" not in line or prefix not in line:
                        continue
                    lines.append(line.rstrip())
                    listed = re.search(r"partitions (?:Hash)?Set\(([^)]*)\)", line)
                    for tp in (listed.group(1).split(", ") if listed else []):
                        name, _, number = tp.rpartition("-")
                        if name == topic and number.isdigit():
                            data.add(int(number))
                        elif name == self.eos.offset_topic and number.isdigit():
                            offsets.add(int(number))
        segments = [seg for n in sorted(offsets) for seg in next(
            (found for found in (sorted(glob.glob(os.path.join(
                d, "data", f"{self.eos.offset_topic}-{n}", "*.log"))) for d in b_dirs)
             if found), [])]
        if segments:
            dump = subprocess.run(
                [os.path.join(REPO_ROOT, "scripts", "kafka"), "run-class",
                 "org.apache.kafka.tools.DumpLogSegments", "--print-data-log", "--files",
                 ",".join(segments)], capture_output=True, text=True, timeout=120,
                env=self.brokers.env)
            for key in re.findall(r"key: (\[.*?\]) payload:", dump.stdout):
                try:
                    name, partition = json.loads(key)
                except ValueError:
                    continue
                if name == connector and partition.get("topic") == source_topic:
                    data.add(int(partition["partition"]))
        return data, lines

    def batches_around(self, topic, sample, margin=40):
        """B's record batches around a few duplicates (Kafka's DumpLogSegments): producer id,
        epoch, transactional or not, and the commit/abort markers, which tell whether both
        copies were committed or a reader showed an aborted one."""
        by_partition = {}
        for d in sample:
            lo, hi = by_partition.get(d["partition"], (d["first_offset"], d["offset"]))
            by_partition[d["partition"]] = (min(lo, d["first_offset"]), max(hi, d["offset"]))
        out = []
        for partition, (lo, hi) in sorted(by_partition.items())[:3]:
            lo, hi = lo - margin, hi + margin
            pdirs = [os.path.join(d, "data", f"{topic}-{partition}")
                     for d in self.brokers.node_dirs("fs-b")]
            pdir = next((d for d in pdirs if glob.glob(os.path.join(d, "*.log"))), pdirs[0])
            segments = sorted(glob.glob(os.path.join(pdir, "*.log")))
            if not segments:
                out.append(f"   batches of {topic}-{partition}: no segment in {pdir}")
                continue
            dump = subprocess.run(
                [os.path.join(REPO_ROOT, "scripts", "kafka"), "run-class",
                 "org.apache.kafka.tools.DumpLogSegments", "--deep-iteration", "--files",
                 ",".join(segments)], capture_output=True, text=True, timeout=120,
                env=self.brokers.env)
            out.append(f"   batches of {topic}-{partition} within offsets [{lo}, {hi}]:")
            in_range, lines = False, []
            for line in dump.stdout.splitlines():
                m = re.search(r"baseOffset: (\d+) lastOffset: (\d+) count: \d+ .*producerId: "
                              r"(-?\d+) producerEpoch: (-?\d+) .*isTransactional: (\w+) "
                              r"isControl: (\w+)", line)
                if m:
                    in_range = int(m.group(2)) >= lo and int(m.group(1)) <= hi
                    if in_range:
                        lines.append(f"     {m.group(1)}-{m.group(2)} producer {m.group(3)} epoch "
                                     f"{m.group(4)} transactional {m.group(5)} control "
                                     f"{m.group(6)}")
                elif in_range and "endTxnMarker" in line:
                    lines[-1] += " " + re.search(r"endTxnMarker: \w+", line).group(0)
            out.extend(lines[:80] + ([f"     ... {len(lines) - 80} more"] if len(lines) > 80 else []))
            if dump.returncode != 0:
                out.append(f"   DumpLogSegments exited {dump.returncode}: {dump.stderr[-500:]}")
        return "\n".join(out)

    # -- main

    def run(self, faults):
        p = self.profile
        log(f"fault suite: profile {'short' if self.args.short else 'full'} seed {self.seed} "
            f"records/fault {p['records']} outage {p['outage']}s faults {','.join(faults)}")
        t0 = time.time()
        self.setup()
        for i, fault in enumerate(faults):
            kind = FAULTS[fault][0]
            if kind == "alo" and self.alo is None:
                self.start_alo()
            if kind == "eos" and self.eos is None:
                # One worker cluster at a time on the 2-core machine.
                self.close_cluster(self.alo)
                self.alo = None
                self.start_eos()
            try:
                self.run_fault(i, fault)
            except Interrupted:
                raise
            except Exception as e:  # noqa: BLE001 - the fault fails, the suite goes on
                row = self.rows[-1] if self.rows and self.rows[-1]["fault"] == fault else None
                if row is None:
                    row = {"fault": fault, "mode": kind, "sent": 0, "received": 0, "unique": 0,
                           "duplicates": 0, "lost": None, "out_of_order": 0, "mismatched": 0,
                           "recovery": None, "path": "n/a"}
                    self.rows.append(row)
                row["ok"] = False
                row["note"] = f"ERROR: {e}"
                log(f"   {fault} ERROR: {e}")
                cluster = self.eos if kind == "eos" else self.alo
                if cluster is not None:
                    log(cluster.tails(30))
                    try:
                        self.ensure_three(cluster)
                    except Exception as e2:  # noqa: BLE001
                        log(f"   could not restore the workers: {e2}")
        self.wall = time.time() - t0

    def report(self):
        wall = getattr(self, "wall", 0)
        header = ("fault", "mode", "sent", "received", "dup", "lost", "order", "content",
                  "recovery_s", "path", "result")
        lines = [header]
        for r in self.rows:
            lines.append((r["fault"], r["mode"], str(r["sent"]), str(r["received"]),
                          str(r["duplicates"]), "?" if r["lost"] is None else str(r["lost"]),
                          str(r["out_of_order"]), str(r["mismatched"]),
                          "n/a" if r["recovery"] is None else f"{r['recovery']:.1f}",
                          r.get("path", "n/a"), "ok" if r.get("ok") else "FAIL"))
        widths = [max(len(l[i]) for l in lines) for i in range(len(header))]
        print(f"fault suite: seed {self.seed}, profile {'short' if self.args.short else 'full'}, "
              f"{'3-node A and B, ' if self.args.brokers > 1 else ''}{wall:.0f}s")
        for l in lines:
            print("  ".join(c.rjust(w) if i >= 2 and i < 9 else c.ljust(w)
                            for i, (c, w) in enumerate(zip(l, widths))).rstrip())
        for r in self.rows:
            print(f"  {r['fault']}: {r['note']}")
        sent = sum(r["sent"] for r in self.rows)
        lost = sum((r["lost"] if r["lost"] is not None else r["sent"]) for r in self.rows)
        dups = sum(r["duplicates"] for r in self.rows)
        ok = all(r.get("ok") for r in self.rows)
        print(f"summary: faults={len(self.rows)} sent={sent} lost={lost} duplicates={dups}",
              flush=True)
        return 0 if ok else 1


def run_then_tear_down(suite, body, what):
    """Runs body() with SIGTERM/SIGINT/SIGHUP turned into Interrupted, then suite.teardown()
    whatever happened (signals ignored meanwhile). Returns 0, 130 (interrupted) or 1 (error)."""
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    rc = 0
    try:
        body()
    except Interrupted as e:
        log(f"interrupted ({e}); cleaning up")
        rc = 130
    except Exception as e:  # noqa: BLE001 - reported, then the clean-up
        log(f"{what} error: {e}")
        rc = 1
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        suite.teardown()
    return rc


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", action="store_true", help="the CI profile")
    parser.add_argument("--only", help="comma-separated faults: " + ",".join(FAULTS))
    parser.add_argument("--records", type=int, help="records per fault")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--workers", choices=("connectd", "java"), default="connectd",
                        help="whose workers run the connectors: connectd's, or Kafka's own "
                             "(the reference: the same faults against Java's Connect)")
    parser.add_argument("--keep", action="store_true",
                        help="keep worker logs, broker dirs and the topics")
    parser.add_argument("--brokers", type=int, choices=(1, 3), default=1,
                        help="nodes of A and of B (3: 3-node KRaft clusters, RF 3, min ISR 2, "
                             "and the faults " + ",".join(THREE_BROKER_FAULTS) + ")")
    args = parser.parse_args()
    faults = [f for f in FAULTS if args.brokers == 3 or f not in THREE_BROKER_FAULTS]
    if args.only:
        faults = [f.strip() for f in args.only.split(",") if f.strip()]
        unknown = [f for f in faults if f not in FAULTS]
        if unknown:
            parser.error(f"unknown fault(s) {unknown}; known: {', '.join(FAULTS)}")
        single = [f for f in faults if f in THREE_BROKER_FAULTS and args.brokers != 3]
        if single:
            parser.error(f"{', '.join(single)} need(s) --brokers 3")
        faults.sort(key=list(FAULTS).index)
    if os.geteuid() != 0:
        parser.error("needs root (network namespaces)")
    suite = Suite(args)
    rc = run_then_tear_down(suite, lambda: suite.run(faults), "suite")
    # The table and the summary come last, after every process is gone.
    sys.stderr.flush()
    report_rc = suite.report()
    if len(suite.rows) < len(faults):
        report_rc = 1
    return rc or report_rc


if __name__ == "__main__":
    sys.exit(main())
