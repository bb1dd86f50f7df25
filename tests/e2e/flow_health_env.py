"""Shared setup of the flow-health end-to-end tests (issue #7, "Flow health"; runtime/mirror_maker/health).

One environment serves every fault case:
- two Kafka clusters of its own, source S (alias A) and target T (alias B), started with
  `scripts/kafka` in a private run dir so that the tests can halt and resume their brokers; both
  enforce ACLs (`--open-authorizer`: no super user, only resources with ACLs are restricted);
- a 2-worker `connectd distributed` cluster whose internal topics live on the target T, as a
  Connect cluster running MirrorMaker usually has them (so stopping T takes the Connect group
  down too: issue #24, case 2), with the three MirrorMaker connectors of flow A->B;
- helpers that read a flow's verdict through GET /mirror/flows/A/B and `connectd doctor`, and
  wait for a verdict within the issue's budget (3 heartbeat intervals + the stale threshold).

Only the standard library; Kafka access through build/tests/kafka_test_tool and scripts/kafka.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from connectd_e2e import REPO_ROOT, wait_until
from distributed_cluster import CONNECTD, TOOL, WorkerCluster, http, tool

BYTE_ARRAY = "org.apache.kafka.connect.converters.ByteArrayConverter"
SOURCE_CLASS = "org.apache.kafka.connect.mirror.MirrorSourceConnector"
CHECKPOINT_CLASS = "org.apache.kafka.connect.mirror.MirrorCheckpointConnector"
HEARTBEAT_CLASS = "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector"
SCRIPTS_KAFKA = os.path.join(REPO_ROOT, "scripts", "kafka")

HEARTBEAT_INTERVAL_S = 1
# 8 s: under a client quota the throttled producer delivers in bursts a few seconds apart, which
# must read as "arriving late" (LAGGING), not "stopped" (STALLED).
STALE_MS = 8000
LAG_MS = 2000
# The bound: within 3 heartbeat intervals plus the staleness threshold.
BUDGET_S = 3 * HEARTBEAT_INTERVAL_S + STALE_MS / 1000.0
# Time the flow needs to become HEALTHY again after a repair (broker restarts reconnect with
# librdkafka's backoff, a restarted task re-reads its offsets).
RECOVERY_S = 90

STALLED_EMIT = "STALLED — EMIT LEG"
STALLED_REPLICATION = "STALLED — REPLICATION LEG"


class KafkaPair:
    """Clusters S and T in a private run dir; halt/resume keep their ports and data."""

    def __init__(self, uid):
        self.run_dir = tempfile.mkdtemp(prefix="connectd-flow-health-kafka-")
        self.source_name, self.target_name = f"fh-s-{uid}", f"fh-t-{uid}"
        self.env = dict(os.environ, CONNECTD_RUN_DIR=self.run_dir)
        self.source = self.target = None

    def kafka(self, *args, timeout=300):
        out = subprocess.run([SCRIPTS_KAFKA, *args], env=self.env, capture_output=True, text=True,
                             timeout=timeout)
        if out.returncode != 0:
            raise AssertionError(f"scripts/kafka {' '.join(args)}:\n{out.stderr[-3000:]}")
        return out.stdout

    def start(self):
        """Starts both clusters at once (a broker takes seconds) and returns their bootstraps."""
        procs = [subprocess.Popen([SCRIPTS_KAFKA, "start", name, *opts], env=self.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for name, opts in ((self.source_name, ["--open-authorizer"]),
                                    (self.target_name, ["--open-authorizer"]))]
        outs = [p.communicate(timeout=300) for p in procs]
        for p, (out, err) in zip(procs, outs):
            if p.returncode != 0:
                raise AssertionError(f"scripts/kafka start failed:\n{err[-3000:]}")
        bootstrap = [next(l.split("=", 1)[1] for l in out.splitlines()
                          if l.startswith("bootstrap=")) for out, _ in outs]
        self.source, self.target = bootstrap
        return self

    def halt(self, name):
        self.kafka("halt", name)

    def resume(self, name):
        self.kafka("resume", name)

    def close(self):
        for name in (self.source_name, self.target_name):
            try:
                self.kafka("stop", name, timeout=120)
            except (AssertionError, subprocess.TimeoutExpired) as e:
                print(f"flow health: stopping {name}: {e}", file=sys.stderr)
        shutil.rmtree(self.run_dir, ignore_errors=True)


class FlowHealthEnv:
    """The clusters, the Connect cluster and flow A->B; see the module doc."""

    def __init__(self):
        self.uid = uuid.uuid4().hex[:8]
        self.kafka = KafkaPair(self.uid)
        self.orders = "orders"
        self.bulk = "bulk"
        self.source_connector = f"fh-source-{self.uid}"
        self.checkpoint_connector = f"fh-checkpoint-{self.uid}"
        self.heartbeat_connector = f"fh-heartbeat-{self.uid}"
        self.cluster = None

    def start(self):
        t0 = time.time()
        self.kafka.start()
        tool("create", self.kafka.source, self.orders, 3)
        tool("create", self.kafka.source, self.bulk, 1)
        tool("produce", self.kafka.source, self.orders, 30, 3)
        # A consumer group on the source (MirrorCheckpoint's work); committing also loads the
        # group coordinator, which a fresh cluster answers "load in progress" for at first.
        wait_until(lambda: self._commit(), timeout=60, interval=1, what="a group commit on S")
        self.cluster = WorkerCluster(
            ["connectd", "connectd"], name=f"fh-{self.uid}", bootstrap=self.kafka.target,
            props={"key.converter": BYTE_ARRAY, "value.converter": BYTE_ARRAY,
                   "header.converter": BYTE_ARRAY, "offset.flush.interval.ms": "1000"})
        self.cluster.start(timeout=90)
        for name, config in self.connector_configs().items():
            code, _, text = self.cluster.any().post("/connectors", {"name": name,
                                                                     "config": config})
            if code != 201:
                raise AssertionError(f"creating {name}: {code} {text}")
        # What a deploy check right after creating the connectors sees, until HEALTHY:
        # (seconds, verdict, replication leg's age_ms), and one `doctor` answer while STARTING.
        self.startup_verdicts, self.startup_doctor = [], None
        created = time.time()
        while time.time() - created < 60:
            code, body = self.flow(self.cluster[0])
            verdict = body.get("verdict") if code == 200 and isinstance(body, dict) else None
            age = body.get("legs", {}).get("replication", {}).get("age_ms") if verdict else None
            self.startup_verdicts.append((round(time.time() - created, 2), verdict, age))
            if verdict == "STARTING" and self.startup_doctor is None:
                self.startup_doctor = self.doctor(self.cluster[0])
            if verdict == "HEALTHY":
                break
            time.sleep(0.2)
        self.cluster.wait_running(self.source_connector, 1, timeout=60)
        self.cluster.wait_running(self.heartbeat_connector, 1, timeout=60)
        print(f"\nflow health env: clusters S={self.kafka.source} T={self.kafka.target}, "
              f"2 workers, connectors RUNNING after {time.time() - t0:.1f}s "
              f"(logs in {self.cluster.workdir})", file=sys.stderr)
        return self

    def _commit(self):
        try:
            tool("commit", self.kafka.source, self.orders, f"app-{self.uid}", "0:1", "1:1", "2:1")
            return True
        except AssertionError:
            return False

    def common_config(self):
        return {
            "source.cluster.alias": "A", "target.cluster.alias": "B",
            "source.cluster.bootstrap.servers": self.kafka.source,
            "target.cluster.bootstrap.servers": self.kafka.target,
            "topics": f"{self.orders},{self.bulk}", "groups": f"app-{self.uid}",
            "replication.factor": "1", "offset-syncs.topic.replication.factor": "1",
            "checkpoints.topic.replication.factor": "1",
            "heartbeats.topic.replication.factor": "1", "sync.topic.acls.enabled": "false",
            "refresh.topics.interval.seconds": "1",
            "emit.heartbeats.interval.seconds": str(HEARTBEAT_INTERVAL_S),
            "health.stale.threshold.ms": str(STALE_MS),
            "health.lag.threshold.ms": str(LAG_MS),
        }

    def connector_configs(self):
        common = self.common_config()
        return {
            # One task, small producer batches and buffer: the heartbeats partition shares the
            # task's producer with the data, so throttling the producer delays the heartbeats
            # behind the data (the lag case) instead of in large bursts.
            self.source_connector: dict(common, **{
                "connector.class": SOURCE_CLASS, "tasks.max": "1",
                "producer.override.batch.size": "16384",
                "producer.override.buffer.memory": "262144"}),
            self.checkpoint_connector: dict(common, **{"connector.class": CHECKPOINT_CLASS}),
            self.heartbeat_connector: dict(common, **{"connector.class": HEARTBEAT_CLASS}),
        }

    def close(self):
        if self.cluster:
            self.cluster.close()
        self.kafka.close()

    # ---- reading the verdict

    def flow(self, worker):
        """GET /mirror/flows/A/B on `worker`: (status, body)."""
        try:
            code, body, _ = http("GET", worker.url + "/mirror/flows/A/B", timeout=10)
        except OSError as e:
            return None, str(e)
        return code, body

    def doctor(self, worker, *args):
        """`connectd doctor --url <worker> --flow A->B ...`: (exit status, stdout + stderr)."""
        out = subprocess.run([CONNECTD, "doctor", "--url", worker.url, "--flow", "A->B", *args],
                             capture_output=True, text=True, timeout=30)
        return out.returncode, out.stdout + out.stderr

    def wait_verdict(self, test, worker, verdicts, budget_s, started, what):
        """Waits until GET /mirror/flows/A/B on `worker` answers one of `verdicts`, then asks
        `connectd doctor` (JSON and table) the same; asserts both within `budget_s` of `started`
        (time.time()). Returns (verdict, flow JSON, seconds)."""
        verdicts = [verdicts] if isinstance(verdicts, str) else list(verdicts)
        seen = []
        deadline = started + budget_s + 30  # keep looking past the budget to report the truth
        while time.time() < deadline:
            code, body = self.flow(worker)
            verdict = body.get("verdict") if code == 200 and isinstance(body, dict) else None
            if not seen or seen[-1][1] != verdict:
                seen.append((round(time.time() - started, 1), verdict))
            if verdict in verdicts:
                rc, out = self.doctor(worker, "--json")
                try:
                    doctor_verdict = json.loads(out)["verdict"]
                except (ValueError, KeyError):
                    doctor_verdict = None
                rc_table, table = self.doctor(worker)
                # All three agree (a verdict can change between two questions: ask again).
                if doctor_verdict in verdicts and doctor_verdict in table:
                    elapsed = time.time() - started
                    healthy = verdict == "HEALTHY"
                    test.assertEqual(rc, 0 if healthy else 1, out)
                    test.assertEqual(rc_table, 0 if healthy else 1, table)
                    test.assertLessEqual(
                        elapsed, budget_s,
                        f"{what}: {verdicts} after {elapsed:.1f}s, budget {budget_s:.1f}s; "
                        f"verdicts seen: {seen}")
                    print(f"  {what}: {verdict} after {elapsed:.1f}s (REST and doctor)\n"
                          + "\n".join("    " + l for l in table.splitlines()), file=sys.stderr)
                    return verdict, body, elapsed
            time.sleep(0.25)
        raise AssertionError(f"{what}: never {verdicts} within {budget_s + 30:.0f}s; verdicts "
                             f"seen (s, verdict): {seen}\n{self.cluster.tails(30)}")

    def wait_healthy(self, test, worker, started, what):
        return self.wait_verdict(test, worker, "HEALTHY", RECOVERY_S, started, what)

    # ---- faults

    def put_config(self, connector, **overrides):
        config = dict(self.connector_configs()[connector])
        config.update(overrides)
        code, _, text = self.cluster.any().put(f"/connectors/{connector}/config", config)
        if code not in (200, 201):
            raise AssertionError(f"PUT {connector} config: {code} {text}")

    def restart_failed(self, connector):
        code, _, text = self.cluster.any().post(
            f"/connectors/{connector}/restart?includeTasks=true&onlyFailed=true")
        if code not in (202, 204):
            raise AssertionError(f"restart {connector}: {code} {text}")

    def kafka_configs(self, bootstrap, *args):
        """Kafka's own kafka-configs (org.apache.kafka.tools.ConfigCommand) on `bootstrap`."""
        out = subprocess.run([SCRIPTS_KAFKA, "run-class", "org.apache.kafka.tools.ConfigCommand",
                              "--bootstrap-server", bootstrap, *args], env=self.kafka.env,
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise AssertionError(f"kafka-configs {args}: {out.stderr[-2000:]}")
        return out.stdout


class Background(threading.Thread):
    """Runs a command in the background (a load producer, a heartbeat injector)."""

    def __init__(self, args):
        super().__init__(daemon=True)
        self.args = [str(a) for a in args]
        self.proc = None

    def run(self):
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
        self.join(timeout=30)


def kafka_tool(*args):
    """A Background kafka_test_tool command."""
    return Background([TOOL, *args])
