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
import json, os, sys, uuid
from mirror_copy import B, copy, memory, start_worker, tool

label, env_extra, budget = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
topic = os.environ["RSS_TOPIC"]
uid = uuid.uuid4().hex[:6]
os.environ.update(env_extra)
extra = {"metrics.recording.level": "DEBUG"}
if budget != "-":
    extra["passthrough.buffer.memory"] = budget
worker = start_worker(extra)
try:
    want, took = copy(worker, "rss", f"A{uid}", topic,
                      timeout_s=int(os.environ.get("RSS_TIMEOUT", "300")))
    print(label, f"records={want}", f"copy_s={took:.1f}", memory(worker.proc.pid), flush=True)
    tool("delete", B, f"A{uid}.{topic}")
finally:
    worker.stop()
