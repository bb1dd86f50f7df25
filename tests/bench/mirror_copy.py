"""What the memory probes share (tests/bench/*_probe.py): a standalone connectd worker for byte
copies between the ctest-a and ctest-b clusters, and one MirrorSource copy of a topic, waited
for until B holds every record of A's topic."""
import json, os, sys, tempfile, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from connectd_e2e import PLUGINS, StandaloneWorker, kafka_bootstrap, wait_until
from mirror_scenarios_test import tool

A, B = kafka_bootstrap("ctest-a"), kafka_bootstrap("ctest-b")


def start_worker(extra_config=None):
    """A started standalone worker on B with byte-array converters and `extra_config`."""
    extra = {"bootstrap.servers": B, "plugin.path": PLUGINS,
             "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
             "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
             "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"}
    extra.update(extra_config or {})
    return StandaloneWorker(extra=extra, workdir=tempfile.mkdtemp(prefix="rss-")).start()


def copy(worker, name, alias, topic, timeout_s=300, interval_s=1, **config):
    """Creates MirrorSource `name` copying `topic` of A (alias `alias`) to B, tasks.max=2, and
    returns (records, seconds) once B's remote topic holds as many records as A's topic."""
    connector = {"connector.class": "MirrorSourceConnector", "source.cluster.alias": alias,
                 "target.cluster.alias": "B", "source.cluster.bootstrap.servers": A,
                 "target.cluster.bootstrap.servers": B, "topics": topic, "tasks.max": "2",
                 "replication.factor": "1", "offset-syncs.topic.replication.factor": "1",
                 "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false"}
    connector.update(config)
    st, _, text = worker.post("/connectors", {"name": name, "config": connector})
    assert st == 201, text
    want = sum(int(v) for v in json.loads(tool("end-offsets", A, topic)).values())
    remote = f"{alias}.{topic}"
    t0 = time.time()

    def done():
        try:
            return sum(int(v) for v in json.loads(tool("end-offsets", B, remote)).values()) >= want
        except AssertionError:
            return False
    wait_until(done, timeout=timeout_s, interval=interval_s, what="copy")
    return want, time.time() - t0


def memory(pid):
    """'VmHWM:<kB> VmRSS:<kB>' of process `pid`."""
    status = open(f"/proc/{pid}/status").read()
    return " ".join(l.split()[0] + l.split()[1] for l in status.splitlines()
                    if l.startswith(("VmHWM", "VmRSS")))
