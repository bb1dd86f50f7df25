"""What a worker keeps after its copies (issue 49): six MirrorSource copies of topic rss-big of
ctest-a to ctest-b, one after another in one connectd standalone worker, each connector deleted
once B holds every record; prints the worker's VmHWM and VmRSS (kB) after each copy and after
its deletion. MODE: true (pass-through), false (record by record) or alternate (record path
first). Set up as tests/bench/passthrough_memory_probe.py says, then:

    python3 tests/bench/memory_after_copies_probe.py MODE
"""
import json, os, sys, tempfile, time, uuid
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from connectd_e2e import PLUGINS, StandaloneWorker, kafka_bootstrap, wait_until
from mirror_scenarios_test import tool
a, b = kafka_bootstrap("ctest-a"), kafka_bootstrap("ctest-b")
topic = "rss-big"
passthrough = sys.argv[1] if len(sys.argv) > 1 else "true"
extra = {"bootstrap.servers": b, "plugin.path": PLUGINS,
         "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
         "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
         "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"}
worker = StandaloneWorker(extra=extra, workdir=tempfile.mkdtemp(prefix="rss-")).start()
want = sum(int(v) for v in json.loads(tool("end-offsets", a, topic)).values())
def status():
    s = open(f"/proc/{worker.proc.pid}/status").read()
    return " ".join(l.split()[0] + l.split()[1] for l in s.splitlines() if l.startswith(("VmHWM", "VmRSS")))
try:
    print("start", status(), flush=True)
    for i in range(6):
        uid = uuid.uuid4().hex[:6]
        alias = f"A{uid}"
        pt = passthrough if passthrough != "alternate" else ("true" if i % 2 else "false")
        st, _, text = worker.post("/connectors", {"name": f"rss{i}", "config": {
            "connector.class": "MirrorSourceConnector", "source.cluster.alias": alias,
            "target.cluster.alias": "B", "source.cluster.bootstrap.servers": a,
            "target.cluster.bootstrap.servers": b, "topics": topic, "tasks.max": "2",
            "replication.factor": "1", "offset-syncs.topic.replication.factor": "1",
            "passthrough.enabled": pt,
            "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false"}})
        assert st == 201, text
        remote = f"{alias}.{topic}"
        t0 = time.time()
        def done():
            try:
                return sum(int(v) for v in json.loads(tool("end-offsets", b, remote)).values()) >= want
            except AssertionError:
                return False
        wait_until(done, timeout=300, interval=0.5, what="copy")
        print(f"copy {i} passthrough={pt} {time.time()-t0:.1f}s", status(), flush=True)
        worker.delete(f"/connectors/rss{i}")
        time.sleep(3)
        tool("delete", b, remote)
        print(f"  after delete", status(), flush=True)
finally:
    worker.stop()
