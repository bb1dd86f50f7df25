"""End to end: a standalone connectd worker and a real Apache Kafka broker, driven over REST.

FileStreamSource -> topic -> FileStreamSink; every REST answer's status code and JSON shape is
checked against Kafka Connect's; a failing task shows its trace and restarts; kill -9 loses no line.
"""
import json
import os
import subprocess
import tempfile
import time
import unittest
import unittest.mock
import uuid

from connectd_e2e import (BUILD_DIR, CONNECTD, PLUGINS, JavaStandaloneWorker, StandaloneWorker,
                          http, kafka_bootstrap, wait_until)


def lines_of(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return f.read().splitlines()


class StandaloneE2ETest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="connectd-e2e-")
        self.worker = StandaloneWorker(workdir=self.dir).start()
        self.topic = "e2e-" + uuid.uuid4().hex[:8]

    def tearDown(self):
        code = self.worker.stop()
        self.assertEqual(code, 0, "SIGTERM must stop the worker cleanly:\n" + self.worker.tail())

    def create(self, name, config, expected=201):
        status, body, text = self.worker.post("/connectors", {"name": name, "config": config})
        self.assertEqual(status, expected, text)
        return body

    def test_file_pipeline_and_rest_lifecycle(self):
        w = self.worker
        source_file = os.path.join(self.dir, "in.txt")
        sink_file = os.path.join(self.dir, "out.txt")
        with open(source_file, "w") as f:
            f.writelines(f"line-{i}\n" for i in range(500))

        body = self.create("src", {"connector.class": "FileStreamSource", "file": source_file,
                                   "topic": self.topic})
        self.assertEqual(set(body), {"name", "config", "tasks", "type"})
        self.assertEqual(body["type"], "source")
        self.assertEqual(body["config"]["name"], "src")
        self.create("sink", {"connector.class": "org.apache.kafka.connect.file.FileStreamSinkConnector",
                             "file": sink_file, "topics": self.topic})
        wait_until(lambda: len(lines_of(sink_file)) >= 500, what="500 lines in the sink file")
        self.assertEqual(lines_of(sink_file), [f"line-{i}" for i in range(500)])

        # The sink task's metrics and its consumer's (librdkafka statistics every 10 s), under
        # Java's names: one partition assigned, 500 records read, no lag left.
        def metric(name, labels):
            for line in http("GET", w.url + "/metrics")[2].splitlines():
                if line.startswith(f"{name}{{{labels}}} "):
                    return float(line.rsplit(" ", 1)[1])
            return None
        task = 'connector="sink",task="0"'
        self.assertEqual(metric("kafka_connect_sink_task_metrics_partition_count", task), 1)
        self.assertEqual(metric("kafka_connect_sink_task_metrics_sink_record_read_total", task), 500)
        self.assertGreaterEqual(
            metric("kafka_connect_sink_task_metrics_put_batch_max_time_ms", task), 0)
        consumer = 'client_id="connector-consumer-sink-0"'
        wait_until(lambda: metric("kafka_consumer_consumer_fetch_manager_metrics_records_consumed"
                                  "_total", consumer) == 500, timeout=30,
                   what="the consumer's records-consumed-total")
        self.assertEqual(metric("kafka_consumer_consumer_fetch_manager_metrics_records_lag",
                                consumer + f',topic="{self.topic}",partition="0"'), 0)
        self.assertEqual(
            metric("kafka_consumer_consumer_coordinator_metrics_assigned_partitions", consumer), 1)

        # Listing, expand, config, tasks, task status.
        self.assertEqual(w.get("/connectors")[1], ["sink", "src"])
        status, expanded, _ = w.get("/connectors?expand=status&expand=info")
        self.assertEqual(status, 200)
        self.assertEqual(set(expanded["src"]), {"status", "info"})
        self.assertEqual(expanded["src"]["status"]["connector"]["state"], "RUNNING")
        self.assertEqual(expanded["sink"]["info"]["type"], "sink")
        self.assertEqual(w.get("/connectors/src/config")[1]["file"], source_file)
        status, tasks, _ = w.get("/connectors/src/tasks")
        self.assertEqual(status, 200)
        self.assertEqual(tasks[0]["id"], {"connector": "src", "task": 0})
        self.assertEqual(tasks[0]["config"]["topic"], self.topic)
        status, task_state, _ = w.get("/connectors/src/tasks/0/status")
        # Connect 4.4's TaskState: id, state, worker_id and the running plugin's version.
        self.assertEqual((status, set(task_state)), (200, {"id", "state", "worker_id", "version"}))
        plugins = {p["class"]: p["version"] for p in w.get("/connector-plugins")[1]}
        self.assertEqual(task_state["version"],
                         plugins["org.apache.kafka.connect.file.FileStreamSourceConnector"])
        self.assertEqual(w.get(f"/connectors/src/topics")[1], {"src": {"topics": [self.topic]}})

        # Pause and resume (202, no body).
        self.assertEqual(w.put("/connectors/src/pause")[0], 202)
        w.wait_state("src", "PAUSED", ["PAUSED"])
        self.assertEqual(w.put("/connectors/src/resume")[0], 202)
        w.wait_state("src", "RUNNING", ["RUNNING"])

        # Restarts: legacy 204, KIP-745 202 with the plan.
        self.assertEqual(w.post("/connectors/src/restart")[0], 204)
        status, plan, _ = w.post("/connectors/src/restart?includeTasks=true&onlyFailed=false")
        self.assertEqual(status, 202)
        self.assertEqual(plan["connector"]["state"], "RESTARTING")
        self.assertEqual([t["state"] for t in plan["tasks"]], ["RESTARTING"])
        w.wait_state("src", "RUNNING", ["RUNNING"])
        self.assertEqual(w.post("/connectors/src/tasks/0/restart")[0], 204)
        w.wait_state("src", "RUNNING", ["RUNNING"])

        with open(source_file, "a") as f:
            f.writelines(f"line-{i}\n" for i in range(500, 600))
        wait_until(lambda: len(lines_of(sink_file)) >= 600, what="600 lines")

        # Offsets: only a STOPPED connector's may change.
        status, err, _ = w.patch("/connectors/src/offsets", {"offsets": [
            {"partition": {"filename": source_file}, "offset": {"position": 0}}]})
        self.assertEqual(status, 400)
        self.assertIn("STOPPED", err["message"])
        self.assertEqual(w.put("/connectors/src/stop")[0], 204)
        w.wait_state("src", "STOPPED", [])
        size = os.path.getsize(source_file)
        wait_until(lambda: w.get("/connectors/src/offsets")[1] == {"offsets": [
            {"partition": {"filename": source_file}, "offset": {"position": size}}]},
            what="the committed source offset")
        status, msg, _ = w.patch("/connectors/src/offsets", {"offsets": [
            {"partition": {"filename": source_file}, "offset": {"position": 5}}]})
        self.assertEqual((status, msg), (200, {
            "message": "The offsets for this connector have been altered successfully"}))
        self.assertEqual(w.get("/connectors/src/offsets")[1]["offsets"][0]["offset"], {"position": 5})
        status, msg, _ = w.delete("/connectors/src/offsets")
        self.assertEqual((status, msg), (200, {
            "message": "The offsets for this connector have been reset successfully"}))
        self.assertEqual(w.get("/connectors/src/offsets")[1], {"offsets": []})
        # Resumed after the reset, the source reads the whole file again.
        self.assertEqual(w.put("/connectors/src/resume")[0], 202)
        wait_until(lambda: len(lines_of(sink_file)) >= 1200, what="the re-read file")
        self.assertEqual(lines_of(sink_file)[600:], [f"line-{i}" for i in range(600)])

        # A sink connector's offsets are its consumer group's.
        self.assertEqual(w.put("/connectors/sink/stop")[0], 204)
        w.wait_state("sink", "STOPPED", [])
        partition = {"kafka_topic": self.topic, "kafka_partition": 0}

        def own_offsets():
            # The group connect-sink may hold an earlier run's topics on the shared cluster.
            status, body, _ = w.get("/connectors/sink/offsets")
            self.assertEqual(status, 200, body)
            return [o for o in body["offsets"] if o["partition"]["kafka_topic"] == self.topic]
        self.assertEqual(own_offsets(), [
            {"partition": partition, "offset": {"kafka_offset": 1200}}])
        status, msg, _ = w.patch("/connectors/sink/offsets", {"offsets": [
            {"partition": {"kafka_topic": self.topic, "kafka_partition": "0"},
             "offset": {"kafka_offset": "1100"}}]})
        self.assertEqual((status, msg), (200, {
            "message": "The offsets for this connector have been altered successfully"}))
        self.assertEqual(own_offsets()[0]["offset"], {"kafka_offset": 1100})
        status, err, _ = w.patch("/connectors/sink/offsets", {"offsets": [
            {"partition": {"kafka_topic": self.topic, "kafka_partition": "x"},
             "offset": {"kafka_offset": 1}}]})
        self.assertEqual(status, 400, err)
        self.assertEqual(w.delete("/connectors/sink/offsets")[0], 200)
        self.assertEqual(w.get("/connectors/sink/offsets")[1], {"offsets": []})
        # Resumed with no committed offset, the sink starts from the earliest record again.
        self.assertEqual(w.put("/connectors/sink/resume")[0], 202)
        wait_until(lambda: len(lines_of(sink_file)) >= 2400, what="the sink re-reading the topic")

        # Errors keep Connect's shape and codes.
        status, err, _ = w.post("/connectors", {"name": "src", "config": {
            "connector.class": "FileStreamSource", "topic": "x"}})
        self.assertEqual((status, err), (409, {"error_code": 409, "message": "Connector src already exists"}))
        status, err, _ = w.post("/connectors", b"{not json")
        self.assertEqual((status, err["error_code"]), (400, 400))
        self.assertEqual(w.get("/no/such/path")[0], 404)
        self.assertEqual(w.delete("/connectors")[0], 405)

        # Delete.
        self.assertEqual(w.delete("/connectors/sink")[0], 204)
        self.assertEqual(w.get("/connectors/sink"), (404, {
            "error_code": 404, "message": "Connector sink not found"},
            '{"error_code":404,"message":"Connector sink not found"}'))
        self.assertEqual(w.get("/connectors")[1], ["src"])

    def test_failed_task_shows_trace_others_keep_running_and_restart_recovers(self):
        w = self.worker
        marker = os.path.join(self.dir, "broken")
        open(marker, "w").close()
        self.create("boom", {"connector.class": "org.connectd.test.ThrowingSourceConnector",
                             "fail.while.file.exists": marker})
        self.create("steady", {"connector.class": "VerifiableSource", "topic": self.topic,
                               "tasks.max": "2"})
        w.wait_state("boom", "RUNNING", ["FAILED"])
        status, body, _ = w.get("/connectors/boom/tasks/0/status")
        self.assertEqual(status, 200)
        self.assertEqual(body["state"], "FAILED")
        self.assertIn("poll exploded", body["trace"])
        w.wait_state("steady", "RUNNING", ["RUNNING", "RUNNING"])
        time.sleep(1)
        self.assertEqual(w.state("steady"), ("RUNNING", ["RUNNING", "RUNNING"]))
        os.remove(marker)
        self.assertEqual(w.post("/connectors/boom/tasks/0/restart")[0], 204)
        w.wait_state("boom", "RUNNING", ["RUNNING"])
        status, body, _ = w.get("/connectors/boom/tasks/0/status")
        self.assertNotIn("trace", body)


    def test_task_commit_runs_every_flush_interval_without_new_offsets(self):
        # Java calls SourceTask.commit() on every offset flush, also when no offset moved; tasks
        # use it as a periodic hook (MirrorSource sends its delayed offset syncs there).
        self.assertEqual(self.worker.stop(), 0)
        self.worker = StandaloneWorker(workdir=self.dir,
                                       extra={"offset.flush.interval.ms": "100"}).start()
        self.create("finite", {"connector.class": "VerifiableSource", "topic": self.topic,
                               "max.records": "5"})
        self.worker.wait_state("finite", "RUNNING", ["RUNNING"])

        def metric(name):
            _, _, text = http("GET", self.worker.url + "/metrics")
            for line in text.splitlines():
                if line.startswith(f'connectd_test_verifiablesourcetask_{name}{{task="0"}} '):
                    return float(line.rsplit(" ", 1)[1])
            return None
        wait_until(lambda: metric("record_count") == 5, what="the 5 records polled")
        wait_until(lambda: (metric("commit_count") or 0) >= 1, what="a first commit()")
        first = metric("commit_count")
        time.sleep(1.5)
        self.assertEqual(metric("record_count"), 5, "no new records, so no new offsets")
        self.assertGreaterEqual(metric("commit_count") - first, 5,
                                "commit() must run every 100 ms flush interval")


    def test_connect_task_and_worker_metrics(self):
        # Connect's own metrics on GET /metrics, named as the JMX exporter names Java's MBeans:
        # source-task-metrics per task, connect-worker-metrics for the worker; a task's series go
        # with it. Offsets are committed every 200 ms (offset-commit metrics).
        self.worker.stop()
        self.worker = StandaloneWorker(workdir=self.dir,
                                       extra={"offset.flush.interval.ms": "200"}).start()
        self.create("counted", {"connector.class": "VerifiableSource", "topic": self.topic,
                                "max.records": "7"})
        self.worker.wait_state("counted", "RUNNING", ["RUNNING"])
        labels = '{connector="counted",task="0"}'

        def metric(name, series_labels=labels):
            _, _, text = http("GET", self.worker.url + "/metrics")
            for line in text.splitlines():
                if line.startswith(f"{name}{series_labels} "):
                    return float(line.rsplit(" ", 1)[1])
            return None
        wait_until(lambda: metric("kafka_connect_source_task_metrics_source_record_write_total")
                   == 7, what="7 records acknowledged in source-record-write-total")
        self.assertEqual(metric("kafka_connect_source_task_metrics_source_record_poll_total"), 7)
        self.assertIsNotNone(metric("kafka_connect_source_task_metrics_poll_batch_max_time_ms"))
        self.assertEqual(metric("kafka_connect_connect_worker_metrics_task_count", ""), 1)
        self.assertEqual(metric("kafka_connect_connect_worker_metrics_connector_count", ""), 1)
        # Issue 29: the rest of Connect's list. connector-task-metrics: the task has run all its
        # life; its one batch of 7; its offset commits succeeded.
        group = "kafka_connect_connector_task_metrics_"
        self.assertGreater(metric(group + "running_ratio"), 0.9)
        self.assertEqual(metric(group + "pause_ratio"), 0)
        self.assertEqual(metric(group + "batch_size_max"), 7)
        wait_until(lambda: metric(group + "offset_commit_success_percentage") == 1,
                   what="a successful offset commit")
        self.assertEqual(metric(group + "offset_commit_failure_percentage"), 0)
        self.assertGreaterEqual(metric(group + "offset_commit_max_time_ms"), 0)
        self.assertEqual(metric("kafka_connect_source_task_metrics_source_record_active_count"), 0)
        # connect-worker-metrics: one connector and one task started, none failed; the
        # connector's task counts by state.
        worker = "kafka_connect_connect_worker_metrics_"
        for kind in ("connector", "task"):
            self.assertEqual(metric(f"{worker}{kind}_startup_attempts_total", ""), 1)
            self.assertEqual(metric(f"{worker}{kind}_startup_success_total", ""), 1)
            self.assertEqual(metric(f"{worker}{kind}_startup_failure_total", ""), 0)
            self.assertEqual(metric(f"{worker}{kind}_startup_success_percentage", ""), 1)
        started = metric("kafka_connect_app_info_start_time_ms", "")
        self.assertLess(abs(started / 1000 - time.time()), 600, "app-info start-time-ms")
        counted = '{connector="counted"}'
        self.assertEqual(metric(worker + "connector_running_task_count", counted), 1)
        self.assertEqual(metric(worker + "connector_total_task_count", counted), 1)
        self.assertEqual(metric(worker + "connector_failed_task_count", counted), 0)
        # The task's producer, from librdkafka's statistics (every 10 s) under Java's names.
        producer = '{client_id="connector-producer-counted-0"}'
        wait_until(lambda: metric("kafka_producer_producer_metrics_record_send_total",
                                  producer) == 7, timeout=30,
                   what="the producer's record-send-total")
        self.assertGreaterEqual(
            metric("kafka_producer_producer_metrics_connection_count", producer), 1)
        self.assertGreater(metric("kafka_producer_producer_metrics_outgoing_byte_total",
                                  producer), 0)
        self.assertEqual(self.worker.put("/connectors/counted/pause")[0], 202)
        wait_until(lambda: metric(worker + "connector_paused_task_count", counted) == 1,
                   what="the paused task counted")
        self.assertEqual(metric(worker + "connector_running_task_count", counted), 0)
        self.assertEqual(self.worker.delete("/connectors/counted")[0], 204)
        wait_until(lambda: metric("kafka_connect_source_task_metrics_source_record_poll_total")
                   is None, what="the deleted task's series gone")
        self.assertEqual(metric("kafka_connect_connect_worker_metrics_task_count", ""), 0)
        self.assertIsNone(metric(worker + "connector_total_task_count", counted))
        self.assertIsNone(metric(group + "running_ratio"))


class StandaloneKillTest(unittest.TestCase):
    """kill -9 in the middle of a FileStreamSource run, then a restart on the same offset file."""

    def test_kill9_loses_no_line(self):
        workdir = tempfile.mkdtemp(prefix="connectd-kill-")
        topic = "kill-" + uuid.uuid4().hex[:8]
        source_file = os.path.join(workdir, "in.txt")
        sink_file = os.path.join(workdir, "out.txt")
        total = 200_000
        with open(source_file, "w") as f:
            f.writelines(f"{i}\n" for i in range(total))
        source = {"connector.class": "FileStreamSource", "file": source_file, "topic": topic,
                  "batch.size": "500"}
        extra = {"offset.flush.interval.ms": "200"}

        first = StandaloneWorker(extra=extra, workdir=workdir).start()
        self.assertEqual(first.post("/connectors", {"name": "kill-src", "config": source})[0], 201)
        wait_until(lambda: os.path.exists(os.path.join(workdir, "offsets")), what="a first offset commit")
        time.sleep(0.3)
        first.kill9()

        second = StandaloneWorker(extra=extra, workdir=workdir).start()
        try:
            self.assertEqual(second.post("/connectors", {"name": "kill-src", "config": source})[0], 201)
            self.assertEqual(second.post("/connectors", {"name": "kill-sink", "config": {
                "connector.class": "FileStreamSink", "file": sink_file, "topics": topic}})[0], 201)
            wait_until(lambda: len(set(lines_of(sink_file))) >= total, timeout=120,
                       what=f"all {total} lines in the sink")
            received = lines_of(sink_file)
            missing = set(map(str, range(total))) - set(received)
            self.assertEqual(missing, set(), "lines lost after kill -9")
            duplicates = len(received) - total
            print(f"kill -9: sent={total} received={len(received)} duplicates={duplicates} lost=0")
        finally:
            self.assertEqual(second.stop(), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)


class PluginVersionsTest(unittest.TestCase):
    """KIP-891 on a real plugin path: two libraries declare VersionedSourceConnector at 1.0.0
    and 2.0.0; both are listed, a connector runs the version it pins (the newest without a pin),
    and ?version= picks a plugin's config or says which versions exist."""

    def test_two_versions_side_by_side(self):
        versions = os.path.join(BUILD_DIR, "test-plugins", "versions")
        worker = StandaloneWorker(plugin_path=f"{PLUGINS},{versions}").start()
        try:
            listed = [p["version"] for p in worker.get("/connector-plugins")[1]
                      if p["class"] == "org.connectd.test.VersionedSourceConnector"]
            self.assertEqual(sorted(listed), ["1.0.0", "2.0.0"])
            for name, pin in (("pinned", "1.0.0"), ("newest", None)):
                config = {"connector.class": "VersionedSource", "tasks.max": "1"}
                if pin:
                    config["connector.plugin.version"] = pin
                status, _, text = worker.post("/connectors", {"name": name, "config": config})
                self.assertEqual(status, 201, text)
            worker.wait_state("pinned", "RUNNING", ["RUNNING"])
            worker.wait_state("newest", "RUNNING", ["RUNNING"])
            pinned = worker.get("/connectors/pinned/status")[1]
            self.assertEqual((pinned["connector"]["version"], pinned["tasks"][0]["version"]),
                             ("1.0.0", "1.0.0"))
            self.assertEqual(worker.get("/connectors/newest/status")[1]["connector"]["version"],
                             "2.0.0")
            self.assertEqual(
                worker.get("/connector-plugins/VersionedSource/config?version=1.0.0")[0], 200)
            status, body, _ = worker.get("/connector-plugins/VersionedSource/config?version=3.0")
            self.assertEqual((status, body["message"]),
                             (400, "Plugin org.connectd.test.VersionedSourceConnector not found "
                                   "that matches the version range [3.0,3.0], available "
                                   "versions: [1.0.0, 2.0.0]"))
            status, _, text = worker.post("/connectors", {"name": "missing", "config": {
                "connector.class": "VersionedSource", "connector.plugin.version": "[3.0,)"}})
            self.assertEqual(status, 400, text)
            self.assertIn("available versions: [1.0.0, 2.0.0]", text)
        finally:
            worker.stop()


class InitialStateParityTest(unittest.TestCase):
    """KIP-980's initial_state against Kafka's own standalone worker: a connector created PAUSED
    shows the same statuses on both, and resuming it gives it its tasks on both."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="connectd-e2e-")
        self.java = JavaStandaloneWorker(self.dir, {
            "bootstrap.servers": kafka_bootstrap(),
            "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "value.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "offset.storage.file.filename": os.path.join(self.dir, "java-offsets")})
        self.addCleanup(self.java.kill9)
        self.java.start()
        self.connectd = StandaloneWorker(workdir=self.dir).start()
        self.addCleanup(self.connectd.stop)

    def test_created_paused_then_resumed_like_java(self):
        name = "hb-" + uuid.uuid4().hex[:8]
        config = {"connector.class": "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector",
                  "source.cluster.alias": "A", "target.cluster.alias": "B",
                  "source.cluster.bootstrap.servers": kafka_bootstrap(),
                  "target.cluster.bootstrap.servers": kafka_bootstrap(),
                  "heartbeats.topic.replication.factor": "1",
                  "emit.heartbeats.interval.seconds": "1", "tasks.max": "1"}
        for worker in (self.java, self.connectd):
            status, body, _ = http("POST", worker.url + "/connectors",
                                   {"name": name, "config": config, "initial_state": "PAUSED"})
            self.assertEqual(status, 201, body)
        wait_until(lambda: self.java.state(name) is not None and self.java.state(name)[0] == "PAUSED",
                   timeout=30, what="Java's connector PAUSED")
        time.sleep(2)  # whatever either worker would still do while paused
        paused = self.java.state(name)
        self.assertEqual(self.connectd.state(name), paused)

        for worker in (self.java, self.connectd):
            status, _, text = http("PUT", worker.url + f"/connectors/{name}/resume")
            self.assertEqual(status, 202, text)
        self.java.wait_state(name, "RUNNING", ["RUNNING"], timeout=60)
        self.connectd.wait_state(name, "RUNNING", ["RUNNING"], timeout=60)


class LoggingAsAServiceTest(unittest.TestCase):
    """Logging options before the command: levels from Kafka's connect-log4j2.yaml layout, JSON
    lines into a file, /admin/loggers still in charge; a bad option stops start-up."""

    def test_levels_from_connect_log4j2_yaml_into_a_json_file(self):
        workdir = tempfile.mkdtemp(prefix="connectd-e2e-")
        config = os.path.join(workdir, "connect-log4j2.yaml")
        with open(config, "w") as f:
            f.write("Configuration:\n"
                    "  Appenders:\n"
                    "    Console:\n"
                    "      name: STDOUT\n"
                    "  Loggers:\n"
                    "    Root:\n"
                    "      level: WARN\n"
                    "      AppenderRef:\n"
                    "        - ref: STDOUT\n"
                    "    Logger:\n"
                    "      - name: connectd.rest\n"
                    "        level: INFO\n")
        log_file = os.path.join(workdir, "logs", "connectd.log")
        os.makedirs(os.path.dirname(log_file))
        worker = StandaloneWorker(workdir=workdir, options=[
            "--log-config", config, "--log-format", "json", "--log-file", log_file]).start()
        try:
            status, levels, _ = worker.get("/admin/loggers")
            self.assertEqual(status, 200)
            self.assertEqual(levels["root"]["level"], "WARN")
            self.assertEqual(levels["connectd.rest"]["level"], "INFO")
            # /admin/loggers still changes levels at run time.
            status, changed, text = worker.put("/admin/loggers/connectd.rest", {"level": "WARN"})
            self.assertEqual(status, 200, text)
            self.assertIn("connectd.rest", changed)
        finally:
            self.assertEqual(worker.stop(), 0, worker.tail())
        with open(log_file) as f:
            records = [json.loads(line) for line in f]
        self.assertTrue(records)
        for record in records:
            self.assertEqual(set(record) - {"context"},
                             {"timestamp", "level", "logger", "message"}, record)
        # The levels' origin is said once; then only WARN and up, and the REST access lines of
        # connectd.rest (INFO) until its level went to WARN.
        self.assertEqual(records[0]["logger"], "connectd.logging")
        self.assertIn(config, records[0]["message"])
        self.assertIn("Configuration.Appenders", records[1]["message"])
        later = records[2:]
        self.assertTrue([r for r in later if r["logger"].startswith("connectd.rest")
                         and "GET /admin/loggers" in r["message"]], later)
        self.assertFalse([r for r in later if r["level"] in ("INFO", "DEBUG", "TRACE")
                          and not r["logger"].startswith("connectd.rest")], later)
        self.assertFalse([r for r in later if "PUT /admin/loggers" in r["message"]
                          and r["level"] == "INFO"], later)
        # Nothing went to stderr but what precedes logging.
        self.assertNotIn("] INFO ", worker.tail(200))

    def test_a_bad_logging_option_stops_start_up(self):
        for options, message in (
                (["--log-level", "LOUD"], "--log-level must be one of TRACE, DEBUG, INFO, WARN, "
                                          "ERROR, OFF, not 'LOUD'"),
                (["--log-format", "xml"], "--log-format must be text or json, not 'xml'"),
                (["--log-config", "/nonexistent/connect-log4j2.yaml"],
                 "cannot read the log configuration /nonexistent/connect-log4j2.yaml"),
                (["--log-file", "/nonexistent/dir/connectd.log"],
                 "cannot open the log file /nonexistent/dir/connectd.log")):
            out = subprocess.run([CONNECTD, *options, "version"], capture_output=True, text=True)
            self.assertEqual(out.returncode, 2, options)
            self.assertIn(f"connectd: {message}", out.stderr)
            self.assertEqual(out.stdout, "")
