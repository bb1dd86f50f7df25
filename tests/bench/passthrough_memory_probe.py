"""Peak RSS of one pass-through copy under a passthrough.buffer.memory (issue 49): a connectd
standalone worker's MirrorSource (tasks.max=2) copies topic $RSS_TOPIC of cluster ctest-a to
ctest-b as batches; prints the copy's records and time (1 s resolution) and the worker's VmHWM
and VmRSS once B holds every record.

    export CONNECTD_RUN_DIR=$PWD/build/kafka-run CONNECTD_BUILD_DIR=$PWD/build RSS_TOPIC=rss-big
    scripts/kafka start ctest-a; scripts/kafka start ctest-b
    A=$(scripts/kafka bootstrap ctest-a); build/tests/kafka_test_tool create $A rss-big 12
    for i in $(seq 40); do build/tests/kafka_test_tool produce $A rss-big 90000 12; done
    python3 tests/bench/passthrough_memory_probe.py LABEL '{ENV}' BYTES|-   # - : the default
"""
import json, os, sys, tempfile, time, uuid
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from connectd_e2e import PLUGINS, StandaloneWorker, kafka_bootstrap, wait_until
from mirror_scenarios_test import tool

label, env_extra, budget = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
a, b = kafka_bootstrap("ctest-a"), kafka_bootstrap("ctest-b")
topic = os.environ["RSS_TOPIC"]
uid = uuid.uuid4().hex[:6]
os.environ.update(env_extra)
extra = {"bootstrap.servers": b, "plugin.path": PLUGINS,
         "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
         "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
         "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"}
extra["metrics.recording.level"] = "DEBUG"
if budget != "-":
    extra["passthrough.buffer.memory"] = budget
worker = StandaloneWorker(extra=extra, workdir=tempfile.mkdtemp(prefix="rss-")).start()
try:
    remote = f"A{uid}.{topic}"
    st, _, text = worker.post("/connectors", {"name": "rss", "config": {
        "connector.class": "MirrorSourceConnector", "source.cluster.alias": f"A{uid}",
        "target.cluster.alias": "B", "source.cluster.bootstrap.servers": a,
        "target.cluster.bootstrap.servers": b, "topics": topic, "tasks.max": "2",
        "replication.factor": "1", "offset-syncs.topic.replication.factor": "1",
        "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false"}})
    assert st == 201, text
    want = sum(int(v) for v in json.loads(tool("end-offsets", a, topic)).values())
    t0 = time.time()
    def done():
        try:
            return sum(int(v) for v in json.loads(tool("end-offsets", b, remote)).values()) >= want
        except AssertionError:
            return False
    wait_until(done, timeout=int(os.environ.get("RSS_TIMEOUT", "300")), interval=1, what="copy")
    took = time.time() - t0
    pid = worker.proc.pid
    status = open(f"/proc/{pid}/status").read()
    hwm = [l for l in status.splitlines() if l.startswith(("VmHWM", "VmRSS"))]
    print(label, f"records={want}", f"copy_s={took:.1f}", *hwm, flush=True)
    tool("delete", b, remote)
finally:
    worker.stop()
