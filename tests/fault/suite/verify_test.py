"""The fault suite's checker checked: `kafka_test_tool verify` on topics with a known loss,
known duplicates, a known reordering and a foreign record, on `connectd dev-kafka` (librdkafka's
mock cluster, no JVM). A checker that reported zeros on these would let the suite pass anything.

Run: CONNECTD_BUILD_DIR=build python3 -m unittest -v tests/fault/suite/verify_test.py
"""
import json
import os
import subprocess
import unittest

REPO_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                         ".."))
BUILD_DIR = os.environ.get("CONNECTD_BUILD_DIR") or os.path.join(REPO_ROOT, "build")
TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")
CONNECTD = os.path.join(BUILD_DIR, "bin", "connectd")
PARTITIONS = 4
TOPICS = ("clean", "lost", "dup", "reorder", "foreign", "changed")


class VerifyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        args = [CONNECTD, "dev-kafka", "--clusters", "A"]
        for topic in TOPICS:
            args += ["--topic", f"{topic}:{PARTITIONS}"]
        cls.mock = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    text=True)
        line = cls.mock.stdout.readline()
        if "bootstrap=" not in line:
            cls.mock.kill()
            raise AssertionError(f"connectd dev-kafka printed {line!r}")
        cls.bootstrap = line.split("bootstrap=", 1)[1].strip()

    @classmethod
    def tearDownClass(cls):
        cls.mock.terminate()
        try:
            cls.mock.wait(timeout=10)
        except subprocess.TimeoutExpired:
            cls.mock.kill()
            cls.mock.wait()

    def tool(self, *args):
        out = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr)
        return out.stdout

    def produce(self, topic, first, count):
        self.tool("produce-from", self.bootstrap, topic, first, count, PARTITIONS)

    def verify(self, topic, count=100):
        return json.loads(self.tool("verify", self.bootstrap, topic, count, PARTITIONS, 30))

    def assert_counts(self, result, **expected):
        got = {k: result[k] for k in expected}
        self.assertEqual(got, expected, json.dumps(result))
        self.assertTrue(result["complete"], json.dumps(result))

    def test_clean_topic_has_nothing_to_report(self):
        self.produce("clean", 0, 100)
        r = self.verify("clean")
        self.assert_counts(r, records=100, unique=100, duplicates=0, lost=0, out_of_order=0,
                           mismatched=0, wrong_partition=0, unexpected=0, max_rewind=0)
        self.assertEqual(r["partitions"]["0"]["records"], 25)

    def test_missing_records_are_lost(self):
        self.produce("lost", 0, 50)
        self.produce("lost", 60, 40)
        r = self.verify("lost")
        self.assert_counts(r, records=90, unique=90, lost=10, duplicates=0, out_of_order=0)
        self.assertEqual(r["lost_sample"], list(range(50, 60)))
        self.assertEqual(sum(p["lost"] for p in r["partitions"].values()), 10)

    def test_replayed_records_are_duplicates_with_their_rewind(self):
        self.produce("dup", 0, 100)
        self.produce("dup", 40, 20)  # a replay from k40: 5 records per partition
        r = self.verify("dup")
        self.assert_counts(r, records=120, unique=100, duplicates=20, lost=0, out_of_order=0)
        # Partition 0 had reached k96 when k40 came again: 15 records back, k40 included.
        self.assertEqual(r["partitions"]["0"]["max_rewind"], 15)
        self.assertEqual(r["max_rewind"], 15)

    def test_late_first_copies_are_out_of_order(self):
        self.produce("reorder", 0, 60)
        self.produce("reorder", 80, 20)
        self.produce("reorder", 60, 20)  # k60..k79 after k80..k99, in their partitions
        r = self.verify("reorder")
        self.assert_counts(r, records=100, unique=100, lost=0, duplicates=0, out_of_order=20)
        self.assertRegex(r["first_problem"], r"^k6\d after k9\d at partition \d")

    def test_foreign_and_out_of_range_records_are_flagged(self):
        self.produce("foreign", 0, 100)
        self.tool("heartbeat", self.bootstrap, "foreign", "A", "B", 0, 1, 0)  # not k<i>
        r = self.verify("foreign", count=90)  # k90..k99 are beyond the expected numbers
        self.assert_counts(r, records=101, unique=90, lost=0, unexpected=11)

    def test_records_without_their_header_are_mismatched(self):
        # produce-tx writes k<i>/v<i> without the h=<i> header that produce-paced adds.
        self.tool("produce-tx", self.bootstrap, "changed", 8, PARTITIONS)
        r = self.verify("changed", count=8)
        self.assert_counts(r, records=8, unique=8, lost=0, mismatched=8)


if __name__ == "__main__":
    unittest.main()
