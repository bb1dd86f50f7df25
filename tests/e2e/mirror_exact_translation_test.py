"""End to end: exact offset translation (issue 31) between two real clusters (A = ctest-a, the
source; B = ctest-b, the target).

A group that committed mid-stream on A must resume on B with nothing read twice and nothing
skipped. Java's checkpoints come from sparse offset syncs and translate to the newest sync at or
before the group's offset, plus one (a group at 600 of 1,000 resumes near the previous sync);
connectd's MirrorSource also writes runs of every copied offset to mm2-offset-index.B.internal
and its MirrorCheckpoint translates from them.

The flow is made hard on purpose: B's remote topic holds other records first (translation is
not the identity), a third of A's records are transactional (a marker after each, so upstream
offsets have gaps), and the worker is killed with -9 mid-copy and restarted (the copies after
its last offset flush are made twice, and the newest copy is where a group resumes).

The group is then committed on A at random offsets, three rounds; each round's checkpoints must
name, per partition, the newest copy on B of the group's next record, and reading B from there
must give exactly A's records from the committed offset on (duplicates only where the copy
itself made them). Then Java's own RemoteClusterUtils (java/RemoteClusterUtilsProbe.java) reads
the same offsets from connectd's checkpoints, and `connectd mirror translate-offsets` too;
`connectd mirror failover` commits nothing on a dry run or while the group has a member on B,
and commits exactly those offsets once it has none.
"""
import json
import os
import random
import struct
import subprocess
import time
import unittest

from connectd_e2e import CONNECTD, run_java_source, wait_until, write_properties
from mirror_interop_test import (TOOL, MirrorInteropBase, Producer, count, decode_checkpoint,
                                 read_string, tool)

PARTITIONS = 3


def records_by_partition(bootstrap, topic):
    """{partition: [(offset, key_hex)]} in offset order, up to each partition's current end."""
    out = {}
    for line in tool("consume-all", bootstrap, topic, 60).splitlines():
        r = json.loads(line)
        out.setdefault(r["partition"], []).append((r["offset"], r["key_hex"]))
    for records in out.values():
        records.sort()
    return out


def offset_syncs(bootstrap, topic):
    """{partition: [(upstream, downstream)]} of source topic `topic` in A's offset syncs."""
    out = {}
    for line in tool("consume-all", bootstrap, "mm2-offset-syncs.B.internal", 60).splitlines():
        r = json.loads(line)
        key, value = bytes.fromhex(r["key_hex"]), bytes.fromhex(r["value_hex"])
        t, pos = read_string(key, 0)
        if t == topic:
            out.setdefault(struct.unpack_from(">i", key, pos)[0], []).append(
                struct.unpack_from(">qq", value, 0))
    return out


def sparse_translation(syncs, upstream):
    """What offset syncs alone give (Kafka's OffsetSyncStore, all syncs kept): the newest sync at
    or before `upstream`, plus one unless it is that very offset."""
    best = None
    for up, down in syncs:
        if up <= upstream:
            best = down + (0 if up == upstream else 1)
    return best


class ExactOffsetTranslationTest(MirrorInteropBase):

    def test_groups_at_random_offsets_resume_on_the_target_exactly(self):
        topic, group = f"exact-{self.uid}", f"exact-group-{self.uid}"
        remote = f"A.{topic}"
        rng = random.Random(self.uid)
        tool("create", self.a, topic, PARTITIONS)
        tool("create", self.b, remote, PARTITIONS)
        tool("produce-from", self.b, remote, 10 ** 6, 37 * PARTITIONS, PARTITIONS)  # not ours
        tool("produce-tx", self.a, topic, 100 * PARTITIONS, PARTITIONS)  # k0..k299, gaps
        tool("produce-from", self.a, topic, 100 * PARTITIONS, 400 * PARTITIONS, PARTITIONS)

        files = []
        for name, config in [
            (f"exact-source-{self.uid}", {
                "connector.class": "org.apache.kafka.connect.mirror.MirrorSourceConnector",
                "topics": topic, "tasks.max": "2", "replication.factor": "1",
                "offset-syncs.topic.replication.factor": "1",
                "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false"}),
            (f"exact-checkpoint-{self.uid}", {
                "connector.class": "org.apache.kafka.connect.mirror.MirrorCheckpointConnector",
                "groups": group, "topics": topic, "tasks.max": "1",
                "emit.checkpoints.interval.seconds": "1", "refresh.groups.interval.seconds": "1",
                "checkpoints.topic.replication.factor": "1",
                "sync.group.offsets.enabled": "false"})]:
            files.append(write_properties(os.path.join(self.dir, f"{name}.properties"),
                                          dict(self.common(), name=name, **config)))

        # Copy under load, kill -9 mid-copy, restart: records after the last offset flush are
        # copied twice.
        producer = Producer(self.a, topic, PARTITIONS, first=500 * PARTITIONS, batch=30)
        worker = self.connectd(flush_ms=1000).start(*files)
        producer.start()
        try:
            wait_until(lambda: count(self.b, remote) >= 37 * PARTITIONS + 1800, timeout=60,
                       interval=0.2, what="1,800 records copied")
        finally:
            last = producer.finish()
        worker.kill9()
        tool("produce-from", self.a, topic, last, 60 * PARTITIONS, PARTITIONS)
        # Restarted with Connect's default offset flush interval (60 s): the offset index is
        # written every second anyway, so checkpoints are exact long before the next flush.
        worker = self.connectd(flush_ms=60000).start(*files)

        source = records_by_partition(self.a, topic)
        total = sum(map(len, source.values()))
        wait_until(lambda: len({k for rs in records_by_partition(self.b, remote).values()
                                for _, k in rs}) == total + 37 * PARTITIONS,
                   timeout=60, what=f"all {total} records on B")
        target = records_by_partition(self.b, remote)
        duplicates = sum(map(len, target.values())) - total - 37 * PARTITIONS
        print(f"A: {total} records; B: {duplicates} copied twice after the kill -9")
        end = {p: tool_end(self.a, topic, p) for p in range(PARTITIONS)}

        def expected(p, committed):
            """The newest copy on B of the first record of A's partition p at or after
            `committed`; B's end when there is none (the group is caught up)."""
            following = [k for o, k in source[p] if o >= committed]
            if not following:
                return len(target[p])
            return max(i for i, (_, k) in enumerate(target[p]) if k == following[0])

        def checkpoints():
            last = {}
            if count(self.b, "A.checkpoints.internal") == 0:
                return last
            for line in tool("consume-all", self.b, "A.checkpoints.internal", 60).splitlines():
                r = json.loads(line)
                g, t, p, _, up, down, _ = decode_checkpoint(r["key_hex"], r["value_hex"])
                if g == group and t == remote:
                    last[p] = (up, down)
            return last

        try:
            rounds = []
            for round_ in range(3):
                committed = {p: rng.randrange(0, end[p] + 1) for p in range(PARTITIONS)}
                if round_ == 0:
                    committed[0] = 600  # issue 31's example
                    committed[1] = 51  # a transaction marker: the next record is 52
                if round_ == 2:
                    committed[2] = end[2]  # caught up
                tool("commit", self.a, topic, group,
                     *[f"{p}:{o}" for p, o in committed.items()])
                want = {p: (o, expected(p, o)) for p, o in committed.items()}
                try:
                    wait_until(lambda: checkpoints() == want, timeout=30, interval=0.5,
                               what=f"round {round_}: checkpoints {want}")
                except AssertionError:
                    print(f"round {round_}: checkpoints {checkpoints()}, wanted {want}")
                    raise
                rounds.append(want)
                for p, (up, down) in want.items():
                    # Reading B from the checkpoint: A's records from the committed offset on,
                    # first copies in A's order, the first one first (nothing read twice).
                    read = [k for _, k in target[p][down:]]
                    wanted = [k for o, k in source[p] if o >= up]
                    self.assertEqual(read[:1], wanted[:1], f"round {round_} p{p}: first record")
                    self.assertEqual(list(dict.fromkeys(read)), wanted, f"round {round_} p{p}")
            # The worker's REST API answers the same from the checkpoints on B.
            final = {(remote, p): down for p, (_, down) in rounds[-1].items()}
            status, body, _ = worker.get(f"/mirror/flows/A/B/groups/{group}/offsets")
            self.assertEqual(status, 200, body)
            self.assertEqual({(e["topic"], e["partition"]): e["offset"]
                              for e in body["partitions"]}, final)
            status, body, _ = worker.post(f"/mirror/flows/A/B/groups/{group}/failover"
                                          "?dry_run=true")
            self.assertEqual((status, body["committed"]), (200, False), body)
            status, body, _ = worker.get(f"/mirror/flows/A/C/groups/{group}/offsets")
            self.assertEqual((status, body["error_code"]), (404, 404), body)
            syncs = offset_syncs(self.a, topic)
            for round_, want in enumerate(rounds):
                print(f"round {round_}: " + ", ".join(
                    f"p{p} at {up}: exact {down}, offset syncs alone "
                    f"{sparse_translation(syncs.get(p, []), up)}"
                    for p, (up, down) in want.items()))
        except Exception:
            print("connectd log tail:\n" + worker.tail(80))
            raise
        finally:
            self.assertEqual(worker.stop(), 0)

        # Java's MirrorClient reads the exact offsets from connectd's checkpoints unchanged.
        lines = run_java_source("RemoteClusterUtilsProbe.java", self.b, "A", group, 30000,
                                "B").splitlines()
        translated = {}
        for line in lines:
            fields = line.split("\t")
            if fields[0] == "translateOffsets":
                translated[(fields[1], int(fields[2]))] = int(fields[3])
        self.assertEqual(translated, {(remote, p): down for p, (_, down) in rounds[-1].items()})

        # The failover tool reads the same offsets; it refuses while the group has a member on
        # B, then commits them there. Bad input: a message and exit status 2 or 1.
        final = {(remote, p): down for p, (_, down) in rounds[-1].items()}
        for args, code, message in [
                (("failover", "--group", group), 2, "give --source"),
                (("translate-offsets", "--group", group, "--source", "A"), 2, "either --config"),
                (("failover", "--group", group, "--source", "A", "--bootstrap-server", self.b,
                  "--timeout-ms", "soon"), 2, "--timeout-ms wants"),
                (("translate-offsets", "--group", f"none-{self.uid}", "--source", "A",
                  "--bootstrap-server", self.b), 1, "no checkpoint of consumer group")]:
            out = mirror_cli(*args)
            self.assertEqual(out.returncode, code, (args, out.stderr))
            self.assertIn(message, out.stderr)
        out = mirror_cli("translate-offsets", "--group", group, "--source", "A",
                         "--bootstrap-server", self.b, "--json")
        self.assertEqual(out.returncode, 0, out.stderr)
        plan = json.loads(out.stdout)
        self.assertEqual({(e["topic"], e["partition"]): e["offset"] for e in plan["partitions"]},
                         final)
        self.assertEqual({e["action"] for e in plan["partitions"]}, {"commit"})
        out = mirror_cli("failover", "--dry-run", "--group", group, "--source", "A",
                         "--bootstrap-server", self.b, "--json")
        self.assertEqual((out.returncode, json.loads(out.stdout)["committed"]), (0, False))
        self.assertEqual(committed_on(self.b, group), {}, "a dry run commits nothing")

        side = f"exact-side-{self.uid}"
        tool("create", self.b, side, 1)
        # A member that waits 10 s for a second record, then leaves the group.
        member = subprocess.Popen([TOOL, "group-consume", self.b, group, side, "2", "10"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            tool("produce-from", self.b, side, 0, 1, 1)
            member.stdout.readline()  # it has joined and read the record: the group is active
            out = mirror_cli("failover", "--group", group, "--source", "A",
                             "--bootstrap-server", self.b)
            self.assertEqual(out.returncode, 1, out.stdout)
            self.assertIn("is active on the target cluster", out.stderr)
            self.assertEqual(committed_on(self.b, group), {}, "refused: nothing committed")
        finally:
            member.wait(timeout=60)
            member.stdout.close()
        out = mirror_cli("failover", "--group", group, "--source", "A",
                         "--bootstrap-server", self.b)
        self.assertEqual(out.returncode, 0, out.stderr)
        print(out.stdout)
        self.assertEqual({tp: o for tp, o in committed_on(self.b, group).items()
                          if tp[0] == remote}, final)


def mirror_cli(*args):
    return subprocess.run([CONNECTD, "mirror", *args], capture_output=True, text=True,
                          timeout=120)


def committed_on(bootstrap, group):
    """{(topic, partition): offset} of `group` on the cluster."""
    out = {}
    for line in tool("committed", bootstrap, group).splitlines():
        r = json.loads(line)
        out[(r["topic"], r["partition"])] = r["offset"]
    return out


def tool_end(bootstrap, topic, partition):
    return json.loads(tool("end-offsets", bootstrap, topic))[str(partition)]


if __name__ == "__main__":
    unittest.main()
