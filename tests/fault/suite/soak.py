"""The soak (issue #26): one MirrorSource flow A -> B mirrored for a long time (30 minutes by
default) on the fault suite's 3-worker at-least-once cluster while a fault strikes every few
minutes, in turn: kill -9, network cut, target broker restart, rebalance storm, SIGTERM, source
broker restart, internal-topics broker restart. Run through scripts/soak.

What it tells: nothing lost (every record produced on A is on B at the end, in order per
partition, unaltered; duplicates are counted: at-least-once), and nothing growing. Every 10 s it
samples each live worker's RSS, threads and open file descriptors (/proc) and its heap in use
(connectd_process_heap_in_use_bytes on its /metrics: what is allocated and not freed, where RSS
also counts what glibc's allocator keeps for reuse after a burst); before each fault,
with the flow settled, the cluster's totals over the three workers are one "steady" sample. A
worker's threads and descriptors follow the tasks it holds and the clients they open, so only
the cluster's totals are comparable across faults; an abandoned task thread or a client not
closed shows as a total that climbs from one steady sample to the next.

Verdict: exit 0 only if no record was lost, reordered or altered, and from the first steady
sample to the last the totals grew by at most 8 threads, 64 descriptors, 25% + 64 MiB RSS and
25% + 32 MiB heap in use. The last line is
  summary: minutes=M faults=F sent=S lost=L duplicates=D threads=A->B fds=A->B rss_mib=A->B
           heap_mib=A->B

Same layout and needs as the fault suite (fault_suite.py): root, three private brokers, worker 2
in a network namespace. Python standard library only.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fault_suite as fs  # noqa: E402

FAULT_CYCLE = ["kill9", "netcut", "target-restart", "storm", "sigterm", "source-restart",
               "internal-restart"]
SAMPLE_S = 10
THREADS_SLACK, FDS_SLACK = 8, 64
RSS_SLACK_RATIO, RSS_SLACK_MIB = 0.25, 64
HEAP_SLACK_RATIO, HEAP_SLACK_MIB = 0.25, 32


def proc_figures(pid):
    """(rss_kib, threads, fds) of a live process, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            status = f.read()
        rss = int(status.split("VmRSS:")[1].split()[0])
        threads = int(status.split("Threads:")[1].split()[0])
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return rss, threads, fds
    except (OSError, IndexError, ValueError):
        return None


def heap_in_use_kib(worker):
    """The worker's heap in use (connectd_process_heap_in_use_bytes on its /metrics: allocated
    and not freed, unlike RSS, which also holds what the allocator keeps for reuse), or None."""
    try:
        with urllib.request.urlopen(f"{worker.url}/metrics", timeout=5) as response:
            for line in response.read().decode().splitlines():
                if line.startswith("connectd_process_heap_in_use_bytes "):
                    return int(float(line.split()[1]) / 1024)
    except (OSError, ValueError):
        return None
    return None


class Sampler(threading.Thread):
    """Every SAMPLE_S: (time, worker index, pid, rss_kib, threads, fds, heap_kib) of each live
    worker (heap_kib None when its /metrics did not answer)."""

    def __init__(self, cluster):
        super().__init__(daemon=True)
        self.cluster = cluster
        self.rows = []
        self.stopping = threading.Event()

    def totals(self):
        """The three original workers' totals now: (rss_kib, threads, fds, workers counted,
        heap_kib)."""
        rss = threads = fds = counted = heap = 0
        for w in self.cluster.workers[:3]:
            figures = proc_figures(w.proc.pid) if w.alive() else None
            if figures:
                rss, threads, fds = rss + figures[0], threads + figures[1], fds + figures[2]
                heap += heap_in_use_kib(w) or 0
                counted += 1
        return rss, threads, fds, counted, heap

    def run(self):
        while not self.stopping.wait(SAMPLE_S):
            for w in list(self.cluster.workers):
                figures = proc_figures(w.proc.pid) if w.alive() else None
                if figures:
                    self.rows.append((round(time.time(), 1), w.index, w.proc.pid, *figures,
                                      heap_in_use_kib(w)))


class Soak(fs.Suite):
    def __init__(self, args):
        super().__init__(argparse.Namespace(short=False, records=None, seed=args.seed,
                                            keep=args.keep, workers="connectd"))
        self.minutes, self.every = args.minutes, args.fault_every
        self.profile.update(outage=args.outage, storm=args.outage, restart_after=10)
        self.steady = []  # (minute, fault about to strike, rss_kib, threads, fds)
        self.faults = []  # (minute, fault, note)
        self.result = None

    def settle(self, cluster, connector, monitor, timeout=180):
        """Workers back to three, every task RUNNING, and B's end offsets growing on every
        partition again (the flow recovered)."""
        self.ensure_three(cluster)
        cluster.wait_ready(timeout=120)
        cluster.wait_running(connector, fs.TASKS, timeout=timeout)
        t = time.time()
        self.dc.wait_until(lambda: monitor.recovery(t) is not None, timeout=timeout, interval=1,
                           what="every partition of the flow growing on B")

    def soak(self):
        seconds = self.minutes * 60
        rate = 500  # records per second on A
        records = rate * seconds
        rng = random.Random(self.seed)
        self.setup()
        self.start_alo()
        cluster = self.alo
        topic, connector = f"soak-{self.seed}", f"mirror-soak-{self.seed}"
        remote = f"A.{topic}"
        self.tool("create", self.a, topic, fs.PARTITIONS)
        code, _, text = cluster.any().post("/connectors", {
            "name": connector, "config": self.connector_config(topic, False)})
        if code != 201:
            raise RuntimeError(f"POST /connectors: {code} {text}")
        cluster.wait_running(connector, fs.TASKS, timeout=120)
        monitor = fs.Monitor(self.dc, self.b, remote)
        monitor.start()
        sampler = Sampler(cluster)
        sampler.start()
        producer = subprocess.Popen([self.dc.TOOL, "produce-paced", self.a, topic, str(records),
                                     str(fs.PARTITIONS), str(seconds)],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.procs.append(producer)
        t0 = time.time()
        fs.log(f"soak: {self.minutes} min, {records} records at {rate}/s on {topic}, a fault "
               f"every {self.every}s, seed {self.seed}")
        index = 0
        # Faults until two intervals before the end: the last one recovers while records flow.
        while time.time() - t0 + 2 * self.every <= seconds:
            time.sleep(max(0.0, t0 + (index + 1) * self.every - time.time()))
            fault = FAULT_CYCLE[index % len(FAULT_CYCLE)]
            self.settle(cluster, connector, monitor)
            rss, threads, fds, counted, heap = sampler.totals()
            minute = (time.time() - t0) / 60
            self.steady.append((minute, fault, rss, threads, fds, heap))
            fs.log(f"   +{minute:.1f} min steady: {counted} workers, threads {threads}, fds {fds}, "
                   f"RSS {rss / 1024:.0f} MiB, heap in use {heap / 1024:.0f} MiB; now {fault}")
            _, _, note = self.inject(fault, cluster, connector, rng)
            self.faults.append((minute, fault, note))
            fs.log(f"   {fault}: {note}")
            index += 1
        self.settle(cluster, connector, monitor)
        rss, threads, fds, _, heap = sampler.totals()
        self.steady.append(((time.time() - t0) / 60, "end", rss, threads, fds, heap))
        out, _ = producer.communicate(timeout=seconds + 600)
        if producer.returncode != 0:
            raise RuntimeError(f"produce-paced exited {producer.returncode}: {out}")
        sent = json.loads(out.strip().splitlines()[-1])["sent"]
        deadline = time.time() + 300
        while True:
            ends = monitor.samples[-1][1] if monitor.samples else None
            if (ends and sum(ends.values()) >= sent) or time.time() > deadline:
                break
            time.sleep(2)
        time.sleep(5)
        result = json.loads(self.tool("verify", self.b, remote, records, fs.PARTITIONS, 300,
                                      timeout=400))
        monitor.finish()
        sampler.stopping.set()
        self.result = dict(result, sent=sent)
        self.samples = sampler.rows

    def report(self):
        lines = ["soak: steady samples (cluster totals over workers 0-2, before each fault)",
                 "  minute  next fault         threads   fds  RSS MiB  heap in use MiB"]
        for minute, fault, rss, threads, fds, heap in self.steady:
            lines.append(f"  {minute:6.1f}  {fault:<17} {threads:8d} {fds:5d} {rss / 1024:8.0f}"
                         f"  {heap / 1024:15.1f}")
        lines += ["soak: each worker process's RSS and heap in use, first -> last sample (a process",
                  "that lives long and whose heap in use keeps growing leaks; RSS alone also holds",
                  "what the allocator keeps for reuse; one restarted by a fault starts small again)",
                  "  worker  pid       minutes  RSS MiB first -> last  heap MiB first -> last"]
        processes = {}
        for t, index, pid, rss, _, _, heap in getattr(self, "samples", []):
            heap = heap if heap is not None else -1024
            first = processes.get((index, pid), (t, rss, heap))
            processes[(index, pid)] = (first[0], first[1], first[2], t, rss, heap)
        for (index, pid), (first_t, first_rss, first_heap, last_t, last_rss, last_heap) in sorted(
                processes.items(), key=lambda kv: kv[1][0]):
            lines.append(f"  {index:6d}  {pid:<8d} {(last_t - first_t) / 60:8.1f}  "
                         f"{first_rss / 1024:7.0f} -> {last_rss / 1024:<6.0f}      "
                         f"{first_heap / 1024:7.1f} -> {last_heap / 1024:.1f}")
        print("\n".join(lines))
        problems = []
        r = self.result or {}
        if not r:
            problems.append("the soak did not finish")
        else:
            if r["lost"]:
                problems.append(f"lost {r['lost']} records (e.g. k{r['lost_sample'][:5]})")
            if r["out_of_order"] or r["mismatched"] or r["wrong_partition"] or r["unexpected"]:
                problems.append(f"order/content: {r['first_problem']}")
            if not r["complete"]:
                problems.append("B not read to its end")
        first, last = (self.steady[0], self.steady[-1]) if self.steady else (None, None)
        if first and last:
            if last[3] > first[3] + THREADS_SLACK:
                problems.append(f"threads grew {first[3]} -> {last[3]}")
            if last[4] > first[4] + FDS_SLACK:
                problems.append(f"descriptors grew {first[4]} -> {last[4]}")
            if last[2] > first[2] * (1 + RSS_SLACK_RATIO) + RSS_SLACK_MIB * 1024:
                problems.append(f"RSS grew {first[2] // 1024} -> {last[2] // 1024} MiB")
            if last[5] > first[5] * (1 + HEAP_SLACK_RATIO) + HEAP_SLACK_MIB * 1024:
                problems.append(f"heap in use grew {first[5] // 1024} -> {last[5] // 1024} MiB")
        for p in problems:
            print(f"soak: FAIL: {p}")
        pair = (lambda i, scale=1: f"{first[i] // scale}->{last[i] // scale}") if first else \
            (lambda i, scale=1: "n/a")
        print(f"summary: minutes={self.minutes} faults={len(self.faults)} "
              f"sent={r.get('sent', 0)} lost={r.get('lost', '?')} "
              f"duplicates={r.get('duplicates', '?')} threads={pair(3)} fds={pair(4)} "
              f"rss_mib={pair(2, 1024)} heap_mib={pair(5, 1024)}", flush=True)
        return 0 if not problems else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--fault-every", type=int, default=180, help="seconds between faults")
    parser.add_argument("--outage", type=int, default=20, help="seconds a broker or link is down")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--keep", action="store_true",
                        help="keep worker logs, broker dirs and the topics")
    args = parser.parse_args()
    if args.minutes * 60 < 3 * args.fault_every:
        parser.error("--minutes must leave room for at least one fault (3 x --fault-every)")
    if os.geteuid() != 0:
        parser.error("needs root (network namespaces)")
    soak = Soak(args)
    rc = fs.run_then_tear_down(soak, soak.soak, "soak")
    sys.stderr.flush()
    return rc or soak.report()


if __name__ == "__main__":
    sys.exit(main())
