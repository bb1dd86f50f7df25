"""What a worker keeps after its copies (issue 49): six MirrorSource copies of topic rss-big of
ctest-a to ctest-b, one after another in one connectd standalone worker, each connector deleted
once B holds every record; prints the worker's VmHWM and VmRSS (kB) after each copy and after
its deletion. MODE: true (pass-through), false (record by record) or alternate (record path
first). Set up as tests/bench/passthrough_memory_probe.py says, then:

    python3 tests/bench/memory_after_copies_probe.py MODE
"""
import sys, time, uuid
from mirror_copy import B, copy, memory, start_worker, tool

mode = sys.argv[1] if len(sys.argv) > 1 else "true"
worker = start_worker()
try:
    print("start", memory(worker.proc.pid), flush=True)
    for i in range(6):
        alias = f"A{uuid.uuid4().hex[:6]}"
        passthrough = mode if mode != "alternate" else ("true" if i % 2 else "false")
        _, took = copy(worker, f"rss{i}", alias, "rss-big", interval_s=0.5,
                       **{"passthrough.enabled": passthrough})
        print(f"copy {i} passthrough={passthrough} {took:.1f}s", memory(worker.proc.pid), flush=True)
        worker.delete(f"/connectors/rss{i}")
        time.sleep(3)
        tool("delete", B, f"{alias}.rss-big")
        print("  after delete", memory(worker.proc.pid), flush=True)
finally:
    worker.stop()
