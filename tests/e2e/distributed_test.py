"""End to end, distributed mode: Connect workers in one group on the shared test broker, driven
over REST as a user drives them (issue #5, "Done when").

The same tests run on clusters of Java Connect 4.4 workers (the reference jars), connectd
workers, or both (distributed_cluster.WorkerCluster). All run by default; to try one kind alone
while developing, set CONNECTD_DISTRIBUTED_KINDS=java (or connectd): a class whose cluster needs
a kind left out is then skipped, with the reason. ctest always runs every class.

- ClusterTests (JavaClusterTest, ConnectdClusterTest, MixedClusterTest = java + 2 connectd),
  one 3-worker cluster per class, the tests in this order:
  1. create, update and delete a connector through different workers' REST; every worker
     answers the same; VerifiableSource's 6 tasks spread over all three workers.
  2. kill -9 of a worker: its tasks RUNNING on the survivors (prints failover_seconds=...),
     the survivors' tasks never stop; the worker restarts and tasks rebalance back to it without
     stopping the tasks that keep their owner; no source record is lost (every task's seqnos
     0..max are in the topic). "Never stopped" is proven by the status topic (a task that is
     stopped or started gets a status record: UNASSIGNED on stop, RUNNING on start; none is
     written for it during the rebalance) and by its records (consecutive seqnos, no gap in
     their timestamps). What REST answered on the survivors meanwhile is printed.
  3. rebalance 3 -> 4 workers with 50 tasks (prints rebalance_seconds=..., a sanity bound only).
  4. the leader is killed: another worker leads, REST on every worker shows the same state,
     the FileStream pipeline keeps flowing; repeated until every kind in the cluster has led.
  5. (mixed only) a connector whose plugin only one kind has: refused with Connect's error body,
     or RUNNING where the plugin is and FAILED with a trace where it is not; what the user sees
     is printed.
- TakeoverTests (TakeoverJavaToJavaTest, TakeoverJavaToConnectdTest): Java workers run a
  FileStreamSource and a FileStreamSink and are stopped; workers of the other kind start on the
  same group and internal topics and carry on: same connectors, task configs, source offsets and
  sink offsets; no line is read twice.

The leader is found over REST alone (WorkerCluster.leader): a leader-only write sent with
`?forward=false` (DELETE of a connector that does not exist) gets 404 from the leader and 409
from every follower, which may not forward it. For Java workers the test also checks that
answer against the leader URL the Java herder logs with each assignment.

Run, from tests/e2e (build dir: $CONNECTD_BUILD_DIR, else <repo>/build):
    CONNECTD_RUN_DIR=/tmp/connectd-shared-run python3 -m unittest -v distributed_test
or one class, e.g. distributed_test.JavaClusterTest.
"""
import collections
import os
import tempfile
import time
import unittest
import uuid

from connectd_e2e import wait_until
from distributed_cluster import (FILE_SINK, FILE_SOURCE, VERIFIABLE_SOURCE, WorkerCluster,
                                 RestProber, count_records, delete_topics, read_records,
                                 status_records, verifiable_records)

ENABLED_KINDS = {k.strip() for k in
                 os.environ.get("CONNECTD_DISTRIBUTED_KINDS", "java,connectd").split(",") if k.strip()}

# Failover bounds (kill -9 -> the dead worker's tasks RUNNING elsewhere), per kind; a mixed
# cluster uses the largest of its kinds'. Java: session.timeout.ms (10 s) + the cluster's
# scheduled.rebalance.max.delay.ms (5 s here, 300 s by default) + starting the tasks; connectd:
# the goal at connectd's default settings.
FAILOVER_BOUND_SECONDS = {"java": 40.0, "connectd": 15.0}
# A task that keeps running produces 20 records/s; a gap this long in its records' timestamps
# would mean it stopped (the status topic is the stricter check; the gap is printed).
MAX_GAP_MS = 5000


def require(kinds):
    missing = sorted(set(kinds) - ENABLED_KINDS)
    if missing:
        raise unittest.SkipTest(
            f"worker kind(s) {', '.join(missing)} left out by CONNECTD_DISTRIBUTED_KINDS")


def uid():
    return uuid.uuid4().hex[:8]


def lines_of(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return f.read().splitlines()


def status_counts(topic):
    """{status key: number of records} in a status topic."""
    return collections.Counter(key for key, _ in status_records(topic))


def task_key(connector, task):
    return f"status-task-{connector}-{task}"


def window_evidence(records, t_from, t_to):
    """For one task's [(seqno, timestamp ms)] in write order and a window [t_from, t_to] (s):
    (the longest time in ms within the window without a record of the task, whether the seqnos
    from the last record before the window to the first after it are consecutive)."""
    lo, hi = t_from * 1000, t_to * 1000
    first = next((i for i, (_, ts) in enumerate(records) if ts >= lo), len(records))
    after = next((i for i, (_, ts) in enumerate(records) if ts > hi), len(records))
    chunk = records[max(first - 1, 0):after + 1]
    # The window's edges join the timestamps: a task silent up to its end shows as a gap.
    points = sorted([lo, hi] + [ts for _, ts in chunk if lo <= ts <= hi])
    gap = max(b - a for a, b in zip(points, points[1:]))
    consecutive = len(chunk) > 1 and all(b[0] == a[0] + 1 for a, b in zip(chunk, chunk[1:]))
    return gap, consecutive


class ClusterTests:
    """The tests of one 3-worker cluster of kinds KINDS (mixin; the TestCases are below)."""
    KINDS = None
    FOURTH_KIND = None

    @classmethod
    def setUpClass(cls):
        require(cls.KINDS + [cls.FOURTH_KIND])
        cls.t_class = time.time()
        # Data topics are deleted when the workers are gone: a task still stopping after its
        # connector's DELETE would create its topic again.
        cls.data_topics = []
        cls.cluster = WorkerCluster(cls.KINDS)
        try:
            cls.cluster.start()
        except BaseException:
            print(cls.cluster.tails())
            cls.cluster.close()
            raise
        print(f"\n{cls.__name__}: {len(cls.KINDS)} workers ({', '.join(cls.KINDS)}) ready in "
              f"{time.time() - cls.t_class:.1f}s; logs in {cls.cluster.workdir}")
        try:
            cls.preflight_throttled_source()
        except BaseException:
            cls.shut_down()
            raise

    @classmethod
    def preflight_throttled_source(cls):
        """The tests run up to 50 VerifiableSource tasks on the shared broker at `throughput`
        records/s each. A plugin that ignores `throughput` would write millions of records a
        second, so a few tasks are tried first, capped by connectd's `max.records` (which Java's
        plugin ignores): at throughput=10 a task writes about 10 records a second, uncapped 50
        at once."""
        c = cls.cluster
        name, topic = f"preflight-{uid()}", f"{c.name}-preflight-{uid()}"
        cls.data_topics.append(topic)
        tasks = len(c.alive_workers())
        code, _, text = c.any().post("/connectors", {"name": name, "config": {
            "connector.class": VERIFIABLE_SOURCE, "topic": topic, "tasks.max": str(tasks),
            "throughput": "10", "max.records": "50"}})
        if code != 201:
            raise AssertionError(f"POST /connectors: {code} {text}")
        try:
            owners = c.wait_running(name, tasks)
            time.sleep(1.5)
            written = {t: len(r) for t, r in verifiable_records(topic).items()}
        finally:
            c.any().delete(f"/connectors/{name}")
        flooding = {t: n for t, n in written.items() if n >= 50}
        if flooding:
            raise AssertionError(
                f"VerifiableSource ignores `throughput`: records per task in 1.5 s at "
                f"throughput=10: {written} (task owners {owners}); the distributed tests would "
                f"flood the shared broker")

    @classmethod
    def shut_down(cls):
        """SIGTERM to every live worker; returns {worker index: exit code}."""
        alive = cls.cluster.alive_workers()
        cls.cluster.stop()
        codes = {w.index: w.proc.returncode for w in alive}
        cls.stopped_kinds = {w.index: w.kind for w in alive}
        cls.cluster.close()
        if cls.data_topics:
            delete_topics(*cls.data_topics)
        print(f"{cls.__name__}: exit codes after SIGTERM {codes}; "
              f"wall_seconds={time.time() - cls.t_class:.1f}")
        return codes

    @classmethod
    def tearDownClass(cls):
        codes = cls.shut_down()
        # A clean stop: 0 for connectd (tasks stopped, offsets flushed, group left), 0 or 143
        # for a JVM (its shutdown hooks ran).
        clean = {"connectd": (0,), "java": (0, 143)}
        bad = {i: code for i, code in codes.items()
               if code not in clean[cls.stopped_kinds[i]]}
        if bad:
            raise AssertionError(f"workers did not stop cleanly on SIGTERM: {bad}")

    def setUp(self):
        self.c = self.cluster

    def topic(self, what):
        name = f"{self.c.name}-{what}-{uid()}"
        self.data_topics.append(name)
        return name

    def create(self, worker, name, config):
        code, body, text = worker.post("/connectors", {"name": name, "config": config})
        self.assertEqual(code, 201, f"POST /connectors on {worker}: {text}")
        self.addCleanup(self.delete_if_present, name)
        return body

    def delete_if_present(self, name):
        """Cleanup: a failed test leaves no connector behind for the next test on the cluster."""
        try:
            if self.c.any().get(f"/connectors/{name}", timeout=10)[0] != 404:
                self.c.any().delete(f"/connectors/{name}")
        except (OSError, AssertionError):
            pass

    def delete_everywhere(self, name, via=None):
        code, _, text = (via or self.c.any()).delete(f"/connectors/{name}")
        self.assertEqual(code, 204, text)
        wait_until(lambda: all(w.get(f"/connectors/{name}")[0] == 404
                               for w in self.c.alive_workers()),
                   timeout=30, what=f"{name} gone on every worker")

    def check_throttled(self, topic, tasks, rate, seconds):
        """VerifiableSource writes `rate` records/s per task (its `throughput`); a plugin that
        ignores it floods the broker and the test's readers, so say so plainly."""
        written = count_records(topic)
        limit = 5 * tasks * rate * seconds + 10 * tasks
        self.assertLess(written, limit,
                        f"{written} records from {tasks} tasks at throughput={rate} in "
                        f"{seconds:.0f}s: the VerifiableSource plugin ignores `throughput`")

    def wait_spread(self, name, tasks, timeout=90):
        """Waits until all `tasks` tasks run and every live worker has at least one."""
        live = {w.worker_id for w in self.c.alive_workers()}

        def check():
            owners = self.c.task_owners(name)
            return owners if len(owners) == tasks and set(owners.values()) == live else None
        return wait_until(check, timeout=timeout, interval=0.25,
                          what=f"{name}'s {tasks} tasks RUNNING on all of {sorted(live)}")

    def same_everywhere(self, path, timeout=30):
        """Waits until every live worker answers GET `path` with the same 200 body and returns
        it. A list of names (GET /connectors) is compared as a set: Java's distributed worker
        lists the connectors in its config snapshot's HashMap order, not sorted; a worker
        listing them in another order is reported, not failed."""
        last = {}

        def check():
            answers = [(w, w.get(path, timeout=10)) for w in self.c.alive_workers()]
            last.update({str(w): f"{code} {text}" for w, (code, _, text) in answers})
            if any(code != 200 for _, (code, _, _) in answers):
                return None
            bodies = [body for _, (_, body, _) in answers]
            if path == "/connectors":
                if len({tuple(b) for b in bodies}) > 1 and \
                        len({tuple(sorted(b)) for b in bodies}) == 1:
                    print(f"note: GET /connectors orders differ: {bodies}")
                bodies = [sorted(b) for b in bodies]
            return bodies[0] if all(b == bodies[0] for b in bodies) else None
        try:
            return wait_until(check, timeout=timeout, interval=0.25,
                              what=f"the same GET {path} on every worker")
        except AssertionError as e:
            raise AssertionError(f"{e}; last answers:\n" + "\n".join(
                f"  {w}: {answer}" for w, answer in last.items())) from None

    # 1 -----------------------------------------------------------------------------------------
    def test_1_crud_through_any_worker_and_tasks_spread(self):
        w0, w1, w2 = self.c[0], self.c[1], self.c[2]
        name, topic = f"crud-{uid()}", self.topic("crud")
        config = {"connector.class": VERIFIABLE_SOURCE, "tasks.max": "6", "topic": topic,
                  "throughput": "10"}

        body = self.create(w1, name, config)
        self.assertEqual(body, {"name": name, "config": dict(config, name=name), "tasks": [],
                                "type": "source"})
        code, body, _ = w2.post("/connectors", {"name": name, "config": config})
        self.assertEqual((code, body), (409, {"error_code": 409,
                                              "message": f"Connector {name} already exists"}))
        self.c.wait_running(name, 6)

        updated = dict(config, throughput="20")
        code, body, text = w2.put(f"/connectors/{name}/config", updated)
        self.assertEqual(code, 200, text)
        self.assertEqual(body["config"], dict(updated, name=name))
        self.assertEqual(self.same_everywhere(f"/connectors/{name}/config"),
                         dict(updated, name=name))
        self.assertEqual(self.same_everywhere("/connectors"), [name])
        info = self.same_everywhere(f"/connectors/{name}")
        self.assertEqual(info["tasks"], [{"connector": name, "task": t} for t in range(6)])
        tasks = self.same_everywhere(f"/connectors/{name}/tasks")
        self.assertEqual([t["id"] for t in tasks], info["tasks"])
        self.assertTrue(all(t["config"]["throughput"] == "20" for t in tasks), tasks)

        owners = self.wait_spread(name, 6)
        per_worker = collections.Counter(owners.values())
        print(f"tasks per worker: {dict(per_worker)}")
        status = self.same_everywhere(f"/connectors/{name}/status")
        self.assertEqual({t["id"]: t["worker_id"] for t in status["tasks"]}, owners)
        self.assertGreater(count_records(topic), 0)

        code, _, text = w0.delete(f"/connectors/{name}")
        self.assertEqual(code, 204, text)
        for w in self.c.alive_workers():
            wait_until(lambda: w.get(f"/connectors/{name}")[:2] == (
                404, {"error_code": 404, "message": f"Connector {name} not found"}),
                timeout=30, what=f"404 for {name} on {w}")
            self.assertEqual(w.get(f"/connectors/{name}/config")[0], 404)
            wait_until(lambda: w.get(f"/connectors/{name}/status")[0] == 404, timeout=30,
                       what=f"no status for {name} on {w}")
            self.assertEqual(w.get("/connectors")[1], [])
        # The tasks are gone: nothing more is produced.
        time.sleep(1.5)
        before = count_records(topic)
        time.sleep(2)
        self.assertEqual(count_records(topic), before, "records written after DELETE")

    # 2 -----------------------------------------------------------------------------------------
    def test_2_kill9_failover_restart_rebalance_back_no_stop_no_loss(self):
        c = self.c
        name, topic = f"fo-{uid()}", self.topic("fo")
        self.create(c.any(), name, {"connector.class": VERIFIABLE_SOURCE, "tasks.max": "6",
                                    "topic": topic, "throughput": "20"})
        t_created = time.time()
        before = self.wait_spread(name, 6)
        leader = c.leader()
        victim = next(w for w in c.alive_workers()
                      if w is not leader and w.worker_id in before.values())
        survivors = [w for w in c.alive_workers() if w is not victim]
        lost = sorted(t for t, wid in before.items() if wid == victim.worker_id)
        kept_a = sorted(t for t, wid in before.items() if wid != victim.worker_id)
        print(f"leader {leader}; killing {victim}, which runs tasks {lost}")
        time.sleep(3)  # every task has produced a while
        self.check_throttled(topic, 6, 20, time.time() - t_created)
        bound = max(FAILOVER_BOUND_SECONDS[k] for k in c.kinds)

        # Phase A: kill -9, failover.
        status_0 = status_counts(c.status_topic)
        t_kill = time.time()
        prober = RestProber(survivors, [("GET", f"/connectors/{name}"),
                                        ("GET", f"/connectors/{name}/status"),
                                        ("GET", f"/connectors/{name}/tasks/{lost[0]}/status"),
                                        ("DELETE", f"/connectors/no-such-{uid()}")], t_kill)
        victim.kill9()
        prober.start()
        seen, transitions = None, []

        def failed_over():
            nonlocal seen
            body = c.status(name, survivors[0])
            if body:
                view = tuple((t["id"], t["state"], t["worker_id"]) for t in body["tasks"]
                             if t["id"] in lost)
                if view != seen:
                    seen = view
                    transitions.append((time.time() - t_kill, view))
            alive = {w.worker_id for w in survivors}
            return seen and all(state == "RUNNING" and wid in alive for _, state, wid in seen)
        wait_until(failed_over, timeout=bound + 60, interval=0.2,
                   what=f"tasks {lost} RUNNING on the survivors")
        failover = time.time() - t_kill
        after = c.wait_running(name, 6, on=survivors)
        t_a_end = time.time()
        prober.finish()
        print(f"failover_seconds={failover:.1f} (kill -9 of {victim.kind} worker, "
              f"{len(lost)} tasks; cluster {'+'.join(c.kinds)})")
        print("the lost tasks as a survivor's GET .../status showed them "
              "(seconds after the kill: (task, state, worker)):")
        for t, view in transitions:
            print(f"  {t:+6.1f}s {view}")
        print(prober.report("REST on the survivors meanwhile:"))
        self.assertLess(failover, bound, "failover slower than the bound for "
                        f"{c.kinds}:\n{c.tails()}")
        for t in kept_a:
            self.assertEqual(after[t], before[t], f"task {t} moved although its worker lived")
        status_1 = status_counts(c.status_topic)

        # Phase B: the worker comes back; tasks rebalance back to it.
        t_restart = time.time()
        c.restart(victim.index)
        t_ready = time.time()

        def rebalanced():
            owners = c.task_owners(name)
            per = collections.Counter(owners.values())
            return owners if len(owners) == 6 and victim.worker_id in per and \
                max(per.values()) - min(per.values()) <= 1 and len(per) == 3 else None
        back = wait_until(rebalanced, timeout=120, interval=0.25,
                          what=f"tasks rebalanced back to {victim}")
        print(f"rebalance_back_seconds={time.time() - t_ready:.1f} (from the restarted worker's "
              f"/health; {time.time() - t_restart:.1f}s from its launch); "
              f"tasks now {dict(collections.Counter(back.values()))}")
        kept_b = sorted(t for t in back if back[t] == after[t])
        t_b_end = time.time()
        time.sleep(2.5)  # records after the windows; an offset flush

        # Evidence: the status topic and the records.
        status_2 = status_counts(c.status_topic)
        records = verifiable_records(topic)
        for phase, kept, s_from, s_to, t_from, t_to in (
                ("failover", kept_a, status_0, status_1, t_kill, t_a_end),
                ("rebalance back", kept_b, status_1, status_2, t_restart, t_b_end)):
            for t in kept:
                key = task_key(name, t)
                self.assertEqual(s_to[key], s_from[key],
                                 f"{phase}: task {t} kept its worker but got a status record "
                                 f"(it was stopped or restarted)")
                gap, consecutive = window_evidence(records.get(t, []), t_from, t_to)
                print(f"{phase}: task {t} (kept its worker) max_gap_ms={gap:.0f} "
                      f"consecutive_seqnos={consecutive}")
                self.assertLess(gap, MAX_GAP_MS, f"{phase}: task {t} stopped producing")
                self.assertTrue(consecutive, f"{phase}: task {t} replayed or skipped seqnos")
        self.assertTrue(kept_b, "rebalancing back kept no task in place")

        # No source record lost: every task's seqnos 0..max are in the topic.
        self.assertEqual(sorted(records), list(range(6)))
        for t, recs in sorted(records.items()):
            seqnos = [s for s, _ in recs]
            top = max(seqnos)
            missing = sorted(set(range(top + 1)) - set(seqnos))
            print(f"task {t}: seqnos 0..{top}, records {len(seqnos)}, "
                  f"duplicates {len(seqnos) - len(set(seqnos))}, missing {len(missing)}")
            self.assertEqual(missing, [], f"task {t} lost records")
        self.delete_everywhere(name)

    # 3 -----------------------------------------------------------------------------------------
    def test_3_rebalance_3_to_4_workers_with_50_tasks(self):
        c = self.c
        name, topic = f"fifty-{uid()}", self.topic("fifty")
        self.create(c.any(), name, {"connector.class": VERIFIABLE_SOURCE, "tasks.max": "50",
                                    "topic": topic, "throughput": "1"})
        t_created = time.time()
        self.wait_spread(name, 50, timeout=180)
        self.check_throttled(topic, 50, 1, time.time() - t_created)
        t_launch = time.time()
        fourth = c.add_worker(self.FOURTH_KIND)
        t_ready = time.time()
        try:
            def balanced():
                owners = c.task_owners(name)
                per = collections.Counter(owners.values())
                return per if len(owners) == 50 and len(per) == 4 and \
                    max(per.values()) - min(per.values()) <= 1 else None
            per = wait_until(balanced, timeout=180, interval=0.2, what="50 tasks over 4 workers")
            done = time.time()
            print(f"rebalance_seconds={done - t_ready:.1f} (3->4 workers, 50 tasks, "
                  f"{self.FOURTH_KIND} joining: from its /health answering 200; "
                  f"{done - t_launch:.1f}s from its launch); tasks per worker {dict(per)}")
            self.assertLess(done - t_ready, 120)
            self.delete_everywhere(name)
        finally:
            fourth.stop()

    # 4 -----------------------------------------------------------------------------------------
    def test_4_leader_killed_another_worker_leads_every_kind_in_turn(self):
        c = self.c
        workdir = tempfile.mkdtemp(prefix="connectd-dist-file-")
        source_file, sink_file = os.path.join(workdir, "in.txt"), os.path.join(workdir, "out.txt")
        topic = self.topic("file")
        src, sink = f"file-src-{uid()}", f"file-sink-{uid()}"
        written = 0

        def append(n):
            nonlocal written
            with open(source_file, "a") as f:
                f.writelines(f"line-{i}\n" for i in range(written, written + n))
            written += n

        def flowing():
            """Every line went through exactly once, and both connectors committed their
            offsets (so a kill -9 now must not replay anything)."""
            wait_until(lambda: len(lines_of(sink_file)) >= written, timeout=60,
                       what=f"{written} lines through the FileStream pipeline")
            self.assertEqual(lines_of(sink_file), [f"line-{i}" for i in range(written)])
            source_offsets = {"offsets": [{"partition": {"filename": source_file},
                                           "offset": {"position": os.path.getsize(source_file)}}]}
            sink_offsets = {"offsets": [{"partition": {"kafka_topic": topic, "kafka_partition": 0},
                                         "offset": {"kafka_offset": written}}]}
            wait_until(lambda: c.any().get(f"/connectors/{src}/offsets")[1] == source_offsets,
                       timeout=30, what="the source offset committed")
            wait_until(lambda: c.any().get(f"/connectors/{sink}/offsets")[1] == sink_offsets,
                       timeout=30, what="the sink offset committed")

        append(100)
        self.create(c.any(), src, {"connector.class": FILE_SOURCE, "file": source_file,
                                   "topic": topic})
        self.create(c.any(), sink, {"connector.class": FILE_SINK, "file": sink_file,
                                    "topics": topic})
        flowing()
        kinds_led = []
        while True:
            leader = c.leader()
            kinds_led.append(leader.kind)
            self.check_java_logs_agree(leader)
            print(f"leader: {leader}")
            self.same_state_everywhere([src, sink])
            if len(kinds_led) > 1 and set(kinds_led) == set(c.kinds):
                break
            self.assertLess(len(kinds_led), 5, f"leaders so far: {kinds_led}")
            # The broker's coordinator makes the first member to rejoin the leader, which is
            # usually a worker of the same kind (connectd's 1 s heartbeats notice a rebalance
            # first): kill every live worker of the leader's kind so another kind must lead.
            victims = [w for w in c.alive_workers() if w.kind == leader.kind]
            if len(victims) == len(c.alive_workers()):
                victims = [leader]
            t_kill = time.time()
            for w in victims:
                w.kill9()
            new = c.leader(timeout=60)
            print(f"leader_change_seconds={time.time() - t_kill:.1f} (kill -9 of {leader.kind} "
                  f"leader and {len(victims) - 1} other {leader.kind} worker(s); new leader {new})")
            self.assertNotIn(new, victims)
            append(50)
            for w in victims:
                c.restart(w.index)
            c.wait_running(src, 1)
            c.wait_running(sink, 1)
            flowing()
        print(f"leaders in turn: {kinds_led}")
        self.delete_everywhere(src)
        self.delete_everywhere(sink)

    def check_java_logs_agree(self, leader):
        """Every live Java worker's last logged assignment names the REST-probed leader."""
        java = [w for w in self.c.alive_workers() if w.kind == "java"]
        if java:
            wait_until(lambda: all(w.java_leader_url() == leader.url for w in java), timeout=30,
                       what=f"Java workers logging leaderUrl {leader.url}")

    def same_state_everywhere(self, connectors):
        self.assertEqual(self.same_everywhere("/connectors", timeout=60), sorted(connectors))
        for name in connectors:
            wait_until(lambda: self.c.status(name) and all(
                t["state"] == "RUNNING" for t in self.c.status(name)["tasks"]), timeout=60,
                what=f"{name} RUNNING")
            self.same_everywhere(f"/connectors/{name}/status", timeout=60)
            self.same_everywhere(f"/connectors/{name}/config", timeout=60)


class JavaClusterTest(ClusterTests, unittest.TestCase):
    KINDS = ["java", "java", "java"]
    FOURTH_KIND = "java"


class ConnectdClusterTest(ClusterTests, unittest.TestCase):
    KINDS = ["connectd", "connectd", "connectd"]
    FOURTH_KIND = "connectd"

    # 6 -----------------------------------------------------------------------------------------
    def test_6_rebalance_metrics(self):
        """connect-worker-rebalance-metrics on each live worker's GET /metrics (issue 29): the
        generation it joined at, not rebalancing, at least one rebalance completed and timed."""
        def metrics_of(worker):
            _, _, text = worker.get("/metrics")
            values = {}
            for line in text.splitlines():
                if line.startswith("kafka_connect_connect_worker_rebalance_metrics_"):
                    name, value = line.rsplit(" ", 1)
                    values[name[len("kafka_connect_connect_worker_rebalance_metrics_"):]] = \
                        float(value)
            return values
        for worker in self.c.alive_workers():
            m = {}

            def settled():
                m.update(metrics_of(worker))
                return m.get("rebalancing") == 0 and m.get("completed_rebalances_total", 0) >= 1
            wait_until(settled, timeout=60, what=f"{worker} settled after a rebalance")
            self.assertGreaterEqual(m["epoch"], 1, m)
            self.assertGreaterEqual(m["rebalance_max_time_ms"], m["rebalance_avg_time_ms"], m)
            self.assertGreaterEqual(m["time_since_last_rebalance_ms"], 0, m)
            self.assertLess(m["time_since_last_rebalance_ms"], 3_600_000, m)
            # connect-coordinator-metrics: this worker's share of the assignment.
            text = worker.get("/metrics")[2]
            shares = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
                      if line.startswith("kafka_connect_connect_coordinator_metrics_assigned_")]
            self.assertEqual(len(shares), 2, text[:2000])
            self.assertTrue(all(v >= 0 for v in shares), shares)


class MixedClusterTest(ClusterTests, unittest.TestCase):
    """One Java worker and two connectd workers in one group. Needs connectd's test plugins to
    behave as Java's VerifiableSource does (task config key `id`, `throughput`), since the
    worker that runs the connector generates the task configs the others run."""
    KINDS = ["java", "connectd", "connectd"]
    FOURTH_KIND = "connectd"

    # 5 -----------------------------------------------------------------------------------------
    def test_5_plugin_that_only_one_kind_has(self):
        """A connector whose plugin only some workers have, created through a Java and through
        a connectd worker. What the user sees is printed; what must hold: either the request is
        refused with Connect's error body, or the connector and each task is RUNNING where its
        worker has the plugin and FAILED, with a trace, where it has not."""
        c = self.c
        topic = self.topic("only")
        cases = [("java", "org.apache.kafka.connect.tools.VerifiableSinkConnector",
                  {"topics": topic, "tasks.max": "3"}),
                 ("connectd", "org.connectd.test.NoopSourceConnector", {"tasks.max": "3"})]
        for via in (next(w for w in c.alive_workers() if w.kind == "java"),
                    next(w for w in c.alive_workers() if w.kind == "connectd")):
            for has, cls, extra in cases:
                name = f"only-{has}-{uid()}"
                code, body, text = via.post("/connectors", {"name": name, "config": dict(
                    extra, **{"connector.class": cls})})
                print(f"POST {cls} (only {has} has it) on {via}: {code} {text[:300]}")
                if code != 201:
                    self.assertEqual(set(body or {}), {"error_code", "message"}, text)
                    continue
                self.addCleanup(self.delete_if_present, name)

                def settled():
                    st = c.status(name)
                    if not st:
                        return None
                    items = [st["connector"]] + st["tasks"]
                    if any(i["state"] not in ("RUNNING", "FAILED") for i in items):
                        return None
                    if st["connector"]["state"] == "RUNNING" and not st["tasks"]:
                        return None
                    return st
                st = wait_until(settled, timeout=60, what=f"{name} settled")
                for item in [st["connector"]] + st["tasks"]:
                    kind = c.by_worker_id(item["worker_id"]).kind
                    print(f"  {item.get('id', 'connector')}: {item['state']} on {kind}"
                          f"{': ' + item['trace'].splitlines()[0] if 'trace' in item else ''}")
                    if kind == has:
                        self.assertEqual(item["state"], "RUNNING", item)
                    else:
                        self.assertEqual(item["state"], "FAILED", item)
                        self.assertTrue(item.get("trace"), item)
                self.delete_everywhere(name)


# ---- Takeover ---------------------------------------------------------------------------------

class TakeoverTests:
    """A cluster of FROM workers runs FileStreamSource (file -> topic) and FileStreamSink
    (topic -> file) and commits offsets; it is stopped (SIGTERM), the file grows, and a cluster
    of TO workers starts on the same group.id and internal topics: the connectors, their task
    configs and the source offsets carry over, and nothing is read twice. The TO workers write
    no task configs: they generate the maps the FROM workers wrote, and a leader writes task
    configs only when they changed."""
    FROM = TO = None
    WORKERS = 2

    def setUp(self):
        require([self.FROM, self.TO])
        self.dir = tempfile.mkdtemp(prefix="connectd-takeover-")
        self.name = f"takeover-{uid()}"
        self.topic = f"{self.name}-lines"
        self.clusters = []

    def tearDown(self):
        for cluster in self.clusters:
            cluster.close(delete_topics_too=False)
        if self.clusters:
            self.clusters[0].close()  # the internal topics, once
        delete_topics(self.topic)

    def test_takeover_on_the_same_internal_topics(self):
        t0 = time.time()
        source_file, sink_file = (os.path.join(self.dir, "in.txt"),
                                  os.path.join(self.dir, "out.txt"))
        first_lines, more_lines = 2000, 1000
        with open(source_file, "w") as f:
            f.writelines(f"line-{i}\n" for i in range(first_lines))
        src, sink = f"src-{uid()}", f"sink-{uid()}"

        first = WorkerCluster([self.FROM] * self.WORKERS, name=self.name,
                              workdir=os.path.join(self.dir, "first"))
        self.clusters.append(first)
        first.start()
        for name, config in ((src, {"connector.class": FILE_SOURCE, "file": source_file,
                                    "topic": self.topic, "batch.size": "100"}),
                             (sink, {"connector.class": FILE_SINK, "file": sink_file,
                                     "topics": self.topic})):
            code, _, text = first[0].post("/connectors", {"name": name, "config": config})
            self.assertEqual(code, 201, text)
        first.wait_running(src, 1)
        first.wait_running(sink, 1)
        wait_until(lambda: len(lines_of(sink_file)) >= first_lines, timeout=60,
                   what=f"{first_lines} lines in the sink file")
        size = os.path.getsize(source_file)
        expected_offsets = {"offsets": [{"partition": {"filename": source_file},
                                         "offset": {"position": size}}]}
        wait_until(lambda: first[1].get(f"/connectors/{src}/offsets")[1] == expected_offsets,
                   timeout=30, what="the source offset committed at the end of the file")
        before = {path: first[1].get(path)[1] for path in (
            "/connectors", f"/connectors/{src}/config", f"/connectors/{src}/tasks",
            f"/connectors/{sink}/config", f"/connectors/{sink}/tasks")}
        codes = first.stop()
        self.assertTrue(all(code in (0, 143) for code in codes), codes)  # 143: a JVM's SIGTERM
        task_records = self.task_config_records(first)
        self.assertEqual(count_records(self.topic), first_lines)

        with open(source_file, "a") as f:
            f.writelines(f"line-{i}\n" for i in range(first_lines, first_lines + more_lines))
        second = WorkerCluster([self.TO] * self.WORKERS, name=self.name,
                               workdir=os.path.join(self.dir, "second"))
        self.clusters.append(second)
        second.start()
        # The connectors and their task configs come from the config topic, untouched.
        def same(path, body, worker):
            now = worker.get(path)[1]
            if path == "/connectors" and isinstance(now, list):  # Java: HashMap order
                return sorted(now) == sorted(body)
            return now == body
        for path, body in before.items():
            try:
                wait_until(lambda: same(path, body, second[0]), timeout=30,
                           what=f"GET {path} as before the takeover")
            except AssertionError as e:
                raise AssertionError(f"{e}\nbefore: {body}\nnow:    {second[0].get(path)[2]}")
        new_ids = {w.worker_id for w in second.workers}
        second.wait_running(src, 1, on=second.workers)
        second.wait_running(sink, 1, on=second.workers)
        total = first_lines + more_lines
        wait_until(lambda: count_records(self.topic) >= total, timeout=60,
                   what=f"{total} records in {self.topic}")
        wait_until(lambda: len(lines_of(sink_file)) >= total, timeout=60,
                   what=f"{total} lines in the sink file")
        time.sleep(2)
        self.assertEqual(count_records(self.topic), total,
                         "the source re-read lines it had already committed")
        self.assertEqual(lines_of(sink_file), [f"line-{i}" for i in range(total)],
                         "the sink lost or repeated lines")
        size = os.path.getsize(source_file)
        wait_until(lambda: second[0].get(f"/connectors/{src}/offsets")[1] == {
            "offsets": [{"partition": {"filename": source_file}, "offset": {"position": size}}]},
            timeout=30, what="the source offset at the new end of the file")
        status = second.status(src)
        self.assertIn(status["tasks"][0]["worker_id"], new_ids)
        for path, body in before.items():
            self.assertTrue(same(path, body, second[1]), f"GET {path} after the takeover: "
                            f"{second[1].get(path)[1]} (before: {body})")
        self.assertEqual(self.task_config_records(second), task_records,
                         f"the {self.TO} workers rewrote task configs the {self.FROM} workers "
                         f"had written: their task configs differ from the {self.FROM} ones")
        print(f"takeover {self.FROM} -> {self.TO}: {total} lines, none twice; "
              f"wall_seconds={time.time() - t0:.1f}")


    @staticmethod
    def task_config_records(cluster):
        """The config topic's task-config and commit records: [(key, value)] in offset order."""
        return [(r["key"], r["value"]) for r in read_records(cluster.config_topic)
                if r["key"].startswith(("task-", "commit-"))]


class TakeoverJavaToJavaTest(TakeoverTests, unittest.TestCase):
    FROM, TO = "java", "java"


class TakeoverJavaToConnectdTest(TakeoverTests, unittest.TestCase):
    FROM, TO = "java", "connectd"


if __name__ == "__main__":
    unittest.main(verbosity=2)
