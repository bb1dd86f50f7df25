"""MirrorSource on a compacted topic (issue 49's silent stall): the topic's batches carry offset
gaps, which cannot travel as bytes, so pass-through hands the partition to the record path up to
the end of such a batch and takes it back there. On bd56ef5 the hand-back waited for the record
path to reach the batch's end offset, which compaction had emptied: 1 record of 25 reached the
target and nothing more moved, while the flow read HEALTHY.

A changelog like the real ones (24 keys updated 2,000 times, compacted before the flow starts,
then updated again while it runs) must reach the target whole: the target holds the source's
records, key and value, in the source's order, and the updates made during the flow arrive too.
The partition's metrics must not claim records behind once everything is copied.

Run, from tests/e2e:  CONNECTD_RUN_DIR=<run dir of ctest-a/b> python3 -m unittest -v mirror_compacted_test
"""
import json
import tempfile
import time
import unittest
import uuid

from connectd_e2e import PLUGINS, StandaloneWorker, kafka_bootstrap, wait_until
from mirror_scenarios_test import dump, tool

KEYS, UPDATES = 24, 2000


def records(bootstrap, topic):
    """(key, value) of every record of `topic`, in offset order (one partition)."""
    return [(r.get("key"), r.get("value")) for r in dump(bootstrap, topic)]


class MirrorCompactedTest(unittest.TestCase):
    def setUp(self):
        self.a, self.b = kafka_bootstrap("ctest-a"), kafka_bootstrap("ctest-b")
        self.uid = uuid.uuid4().hex[:6]
        self.topic = f"compacted-{self.uid}"
        self.addCleanup(tool, "delete", self.a, self.topic)
        self.addCleanup(tool, "delete", self.b, f"A{self.uid}.{self.topic}")
        # Segments roll every 100 ms of produce time; the cleaner takes any dirty segment.
        tool("create", self.a, self.topic, 1, "cleanup.policy=compact", "segment.ms=100",
             "min.cleanable.dirty.ratio=0.01", "min.compaction.lag.ms=0",
             "delete.retention.ms=0")
        for i in range(4):  # in rounds, so that the log spans several segments
            tool("produce-keyed", self.a, self.topic, KEYS, KEYS * UPDATES // 4,
                 i * KEYS * UPDATES // 4)
            time.sleep(0.2)
        time.sleep(0.5)
        tool("produce-keyed", self.a, self.topic, 1, 1, KEYS * UPDATES)  # rolls the last one
        wait_until(lambda: len(records(self.a, self.topic)) < 1000, timeout=120, interval=2,
                   what="the log cleaner to compact the source topic")

    def test_a_compacted_topic_reaches_the_target_whole(self):
        source_before = records(self.a, self.topic)
        ends = json.loads(tool("end-offsets", self.a, self.topic))
        # Gaps: far fewer records than offsets.
        self.assertLess(len(source_before) * 10, int(ends["0"]), (len(source_before), ends))
        remote = f"A{self.uid}.{self.topic}"
        worker = StandaloneWorker(extra={
            "bootstrap.servers": self.b, "plugin.path": PLUGINS,
            "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "header.converter": "org.apache.kafka.connect.converters.ByteArrayConverter"},
            workdir=tempfile.mkdtemp(prefix="connectd-compacted-")).start()
        self.addCleanup(worker.stop)
        status, _, text = worker.post("/connectors", {"name": "compacted-source", "config": {
            "connector.class": "MirrorSourceConnector", "source.cluster.alias": f"A{self.uid}",
            "target.cluster.alias": "B", "source.cluster.bootstrap.servers": self.a,
            "target.cluster.bootstrap.servers": self.b, "topics": self.topic,
            "replication.factor": "1", "offset-syncs.topic.replication.factor": "1",
            "sync.topic.acls.enabled": "false", "sync.topic.configs.enabled": "false"}})
        self.assertEqual(status, 201, text)

        def target_holds(expected):
            def check():
                try:
                    return records(self.b, remote) == expected
                except AssertionError:  # the remote topic is not there yet
                    return False
            return check
        try:
            wait_until(target_holds(source_before), timeout=120, interval=2,
                       what=f"the target to hold the source's {len(source_before)} records")
            # Updates while the flow runs: the partition was handed back to batches and moves on.
            tool("produce-keyed", self.a, self.topic, KEYS, 100, KEYS * UPDATES + 1)
            wait_until(lambda: records(self.b, remote) == records(self.a, self.topic),
                       timeout=120, interval=2, what="the updates made during the flow")
        except AssertionError:
            print(worker.tail(80))
            raise
        log = worker.tail(400)
        # The path changed at the compacted batches, and the partition went back to batches
        # (the worker takes it again: one more "copies 1 partitions" than at the start).
        self.assertIn(f"Copying {self.topic}-0 record by record from offset", log)
        self.assertIn("offset gaps", log)
        self.assertGreaterEqual(log.count("copies 1 partitions as record batches"), 2, log)


if __name__ == "__main__":
    unittest.main()
