"""End to end: Connect's data plane on a standalone connectd worker and a real Kafka broker.

A sink connector reading JSON with errors.tolerance=all keeps going past poison records and sends
each one, as it was consumed, to its dead-letter queue with Connect's context headers; with the
default errors.tolerance=none the first poison record fails the task. A source connector's
records go through a transform chain (RegexRouter, InsertHeader) and JsonConverter.
"""
import json
import os
import tempfile
import unittest
import uuid

from connectd_e2e import StandaloneWorker, http, kafka_bootstrap, wait_until
from distributed_cluster import tool


def lines_of(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return f.read().splitlines()


def consume(topic, count, seconds=60):
    """The first `count` records of `topic`, once it has that many (with headers)."""
    wait_until(lambda: int(tool("count", kafka_bootstrap(), topic).strip()) >= count,
               timeout=seconds, what=f"{count} records in {topic}")
    out = tool("consume", kafka_bootstrap(), topic, count, seconds, timeout=seconds + 30)
    return [json.loads(line) for line in out.splitlines()]


class DataPlaneE2ETest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="connectd-e2e-")
        self.worker = StandaloneWorker(workdir=self.dir).start()
        self.topic = "dp-" + uuid.uuid4().hex[:8]
        # Sink connectors' consumer groups (connect-<name>) outlive the worker on the shared
        # cluster: a name of its own keeps other tests' committed offsets out of this one.
        self.sink = "sink-" + self.topic

    def tearDown(self):
        code = self.worker.stop()
        self.assertEqual(code, 0, "SIGTERM must stop the worker cleanly:\n" + self.worker.tail())

    def create(self, name, config):
        status, _, text = self.worker.post("/connectors", {"name": name, "config": config})
        self.assertEqual(status, 201, text)

    def write_lines(self, lines):
        """Puts `lines` into self.topic through a FileStreamSource (StringConverter)."""
        source_file = os.path.join(self.dir, "in.txt")
        with open(source_file, "w") as f:
            f.writelines(line + "\n" for line in lines)
        self.create("src", {"connector.class": "FileStreamSource", "file": source_file,
                            "topic": self.topic})

    def json_sink(self, extra):
        sink_file = os.path.join(self.dir, "out.txt")
        config = {"connector.class": "FileStreamSink", "file": sink_file, "topics": self.topic,
                  "value.converter": "org.apache.kafka.connect.json.JsonConverter",
                  "value.converter.schemas.enable": "false"}
        config.update(extra)
        self.create(self.sink, config)
        return sink_file

    def test_poison_records_go_to_the_dead_letter_queue_and_the_task_keeps_going(self):
        lines = [f'{{"n":{i}}}' if i % 10 != 3 else f"not json {i}" for i in range(100)]
        poison = [(i, line) for i, line in enumerate(lines) if line.startswith("not json")]
        self.write_lines(lines)
        dlq = self.topic + "-dlq"
        sink_file = self.json_sink({
            "errors.tolerance": "all", "errors.log.enable": "true",
            "errors.log.include.messages": "true",
            "errors.deadletterqueue.topic.name": dlq,
            "errors.deadletterqueue.topic.replication.factor": "1",
            "errors.deadletterqueue.context.headers.enable": "true"})
        good = [line for line in lines if not line.startswith("not json")]
        wait_until(lambda: len(lines_of(sink_file)) >= len(good), timeout=60,
                   what=f"{len(good)} good lines in the sink file")
        # JsonConverter read each object and wrote it back for the plugin, in order.
        self.assertEqual(lines_of(sink_file), good)
        self.assertEqual(self.worker.state(self.sink), ("RUNNING", ["RUNNING"]))

        records = consume(dlq, len(poison))
        self.assertEqual([r["value"] for r in records], [line for _, line in poison])
        for (offset, _), record in zip(poison, records):
            headers = dict(record["headers"])
            self.assertEqual(headers["__connect.errors.topic"], self.topic)
            self.assertEqual(headers["__connect.errors.partition"], "0")
            self.assertEqual(headers["__connect.errors.offset"], str(offset))
            self.assertEqual(headers["__connect.errors.connector.name"], self.sink)
            self.assertEqual(headers["__connect.errors.task.id"], "0")
            self.assertEqual(headers["__connect.errors.stage"], "VALUE_CONVERTER")
            self.assertEqual(headers["__connect.errors.class.name"],
                             "org.apache.kafka.connect.json.JsonConverter")
            self.assertEqual(headers["__connect.errors.exception.class.name"],
                             "org.apache.kafka.connect.errors.DataException")
            self.assertIn("Converting byte[] to Kafka Connect data failed",
                          headers["__connect.errors.exception.message"])
            self.assertIn("__connect.errors.exception.stacktrace", headers)
        self.assertIn(f"Error encountered in task {self.sink}-0. Executing stage 'VALUE_CONVERTER'",
                      self.worker.tail(400))
        # The skipped records' offsets were committed with the rest: nothing is redelivered.
        self.assertEqual(int(tool("count", kafka_bootstrap(), dlq).strip()), len(poison))
        # task-error-metrics count them as Java's ErrorHandlingMetrics does.
        labels = f'{{connector="{self.sink}",task="0"}}'

        def metric(name):
            _, _, text = http("GET", self.worker.url + "/metrics")
            for line in text.splitlines():
                if line.startswith(f"kafka_connect_task_error_metrics_{name}{labels} "):
                    return float(line.rsplit(" ", 1)[1])
            return None
        for name in ("total_record_failures", "total_record_errors", "total_records_skipped",
                     "total_errors_logged", "deadletterqueue_produce_requests"):
            self.assertEqual(metric(name), len(poison), name)
        self.assertEqual(metric("total_retries"), 0)
        self.assertEqual(metric("deadletterqueue_produce_failures"), 0)
        self.assertGreater(metric("last_error_timestamp"), 1.7e12)

    def test_a_poison_record_fails_the_task_without_error_tolerance(self):
        self.write_lines(['{"n":0}', "not json", '{"n":2}'])
        sink_file = self.json_sink({})
        self.worker.wait_state(self.sink, "RUNNING", ["FAILED"], timeout=60)
        trace = self.worker.get(f"/connectors/{self.sink}/status")[1]["tasks"][0]["trace"]
        self.assertIn("Tolerance exceeded in error handler", trace)
        self.assertIn("VALUE_CONVERTER", trace)
        # The poison record fails its whole batch before put, as in Java (convertMessages runs
        # before deliverMessages): the record before it is written only if it came earlier.
        self.assertIn(lines_of(sink_file), ([], ['{"n":0}']))

    def test_source_records_are_transformed_and_converted(self):
        source_file = os.path.join(self.dir, "in.txt")
        with open(source_file, "w") as f:
            f.writelines(f"line-{i}\n" for i in range(20))
        routed = self.topic + "-routed"
        self.create("src", {
            "connector.class": "FileStreamSource", "file": source_file, "topic": self.topic + "-raw",
            "value.converter": "org.apache.kafka.connect.json.JsonConverter",
            "transforms": "route,tag,skip",
            "transforms.route.type": "org.apache.kafka.connect.transforms.RegexRouter",
            "transforms.route.regex": "(.*)-raw", "transforms.route.replacement": "$1-routed",
            "transforms.tag.type": "org.apache.kafka.connect.transforms.InsertHeader",
            "transforms.tag.header": "origin", "transforms.tag.value.literal": "connectd",
            "transforms.skip.type": "org.apache.kafka.connect.transforms.Filter",
            "transforms.skip.predicate": "odd", "predicates": "odd",
            "predicates.odd.type": "org.apache.kafka.connect.transforms.predicates.HasHeaderKey",
            "predicates.odd.name": "nope"})
        records = consume(routed, 20)
        self.assertEqual(len(records), 20)
        first = records[0]
        # FileStreamSource's line is a STRING_SCHEMA value, its key null with no schema, as in
        # Java: JsonConverter writes the bytes Java's does, and no key at all.
        self.assertEqual(first["value"],
                         '{"schema":{"type":"string","optional":false},"payload":"line-0"}')
        self.assertEqual(first["key"], "")  # the tool prints a null key as ""
        self.assertEqual(dict(first["headers"])["origin"], "connectd")

    def test_plugin_data_and_a_plugin_transform_cross_the_abi(self):
        # StructSource (tests/plugins) hands over Connect data: key STRING "k<n>", value STRUCT
        # {id, name}; Uppercase, a transformation from the same plugin, rewrites `name`.
        self.create("src", {
            "connector.class": "StructSource", "topic": self.topic, "count": "3",
            "key.converter": "org.apache.kafka.connect.storage.StringConverter",
            "value.converter": "org.apache.kafka.connect.json.JsonConverter",
            "transforms": "up", "transforms.up.type": "Uppercase", "transforms.up.field": "name"})
        records = consume(self.topic, 3)
        self.assertEqual([r["key"] for r in records], ["k0", "k1", "k2"])
        self.assertEqual(json.loads(records[1]["value"]), {
            "schema": {"type": "struct", "optional": False, "name": "org.connectd.test.Person",
                       "fields": [{"type": "int32", "optional": False, "field": "id"},
                                  {"type": "string", "optional": True, "field": "name"}]},
            "payload": {"id": 1, "name": "PERSON 1"}})
        # A sink reading them back gets the STRUCT as Connect data through the ABI.
        sink_file = os.path.join(self.dir, "recorded.txt")
        self.create(self.sink, {
            "connector.class": "RecordingSink", "file": sink_file, "topics": self.topic,
            "record.data": "true",
            "key.converter": "org.apache.kafka.connect.storage.StringConverter",
            "value.converter": "org.apache.kafka.connect.json.JsonConverter"})
        wait_until(lambda: len(lines_of(sink_file)) >= 3, timeout=60, what="3 recorded records")
        recorded = sorted(line.split(" ", 1)[1] for line in lines_of(sink_file))
        self.assertTrue(recorded[0].endswith(
            " data=STRUCT{id=INT32:0,name=STRING:PERSON 0}"), recorded[0])

    def test_source_topics_are_created_with_their_groups_settings(self):
        source_file = os.path.join(self.dir, "in.txt")
        with open(source_file, "w") as f:
            f.writelines(f"line-{i}\n" for i in range(10))
        compacted = self.topic + "-state"
        self.create("src", {
            "connector.class": "FileStreamSource", "file": source_file, "topic": compacted,
            "topic.creation.groups": "state",
            "topic.creation.default.replication.factor": "1",
            "topic.creation.default.partitions": "3",
            "topic.creation.state.include": ".*-state",
            "topic.creation.state.partitions": "2",
            "topic.creation.state.retention.ms": "3600000"})
        self.assertEqual(len(consume(compacted, 10)), 10)
        self.assertEqual(int(tool("partitions", kafka_bootstrap(), compacted).strip()), 2)
        configs = {c["name"]: c["value"] for c in
                   map(json.loads, tool("describe-configs", kafka_bootstrap(), compacted).splitlines())}
        self.assertEqual(configs["retention.ms"], "3600000")
        self.assertIn(f"Created topic '(name={compacted}, numPartitions=2, replicationFactor=1)' "
                      "using creation group state", self.worker.tail(400))


if __name__ == "__main__":
    unittest.main()
