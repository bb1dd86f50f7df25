"""Plugin faults (issue #10): a standalone worker on connectd dev-kafka (no JVM) loads plugins
that are refused (wrong ABI major, no entry symbol), that throw a C++ exception in each hook
(tests/plugins/throwing_plugin.cc, through the SDK), that hand garbage through the C ABI
(tests/plugins/garbage_plugin.c) and whose task hangs in stop (HangingSource). Each time the
worker must stay up and healthy, the faulty connector or task must be FAILED with a trace (or,
where Connect only logs — commit, stop, offsets that cannot be serialized — keep running with
the error logged), and a well-behaved connector beside them must keep producing. A hanging stop must not hold a delete or the worker's shutdown much beyond
task.shutdown.graceful.timeout.ms.

Run: cd tests/fault && CONNECTD_BUILD_DIR=../../build python3 -m unittest -v plugin_faults_test
"""

import os
import shutil
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "common"))
from mock_worker import MockWorker, quote  # noqa: E402

BUILD = os.path.abspath(os.environ.get("CONNECTD_BUILD_DIR", os.path.join(HERE, "..", "..",
                                                                          "build")))
PLUGINS = os.environ.get("CONNECTD_TEST_PLUGIN_DIR", os.path.join(BUILD, "test-plugins"))
GRACEFUL_MS = 2000


def lib(subdir, name):
    return os.path.join(PLUGINS, subdir, f"lib{name}.so")


class FaultyPluginWorker:
    """Mixin: one worker per test class, with the healthy VerifiableSource `healthy`."""

    @classmethod
    def start_worker(cls, plugins):
        cls.workdir = tempfile.mkdtemp(prefix="connectd-plugin-faults.")
        cls.worker = MockWorker(BUILD, cls.workdir, plugins=plugins, extra_props={
            "offset.flush.interval.ms": "500",
            "task.shutdown.graceful.timeout.ms": str(GRACEFUL_MS),
        })
        cls.worker.start()
        status, _ = cls.worker.call("PUT", "/connectors/healthy/config", {
            "connector.class": "VerifiableSource", "topic": "healthy", "throughput": "100",
            "tasks.max": "1"})
        assert status in (200, 201), status
        # The tests compare against a running healthy task: its status exists only once the
        # task thread has started it (as in Java, a task without a status is not listed).
        deadline = time.time() + 30
        while time.time() < deadline:
            code, body = cls.worker.call("GET", "/connectors/healthy/status")
            if code == 200 and [t["state"] for t in body["tasks"]] == ["RUNNING"]:
                return
            time.sleep(0.2)
        raise AssertionError(f"the healthy task never ran: {body}")

    @classmethod
    def stop_worker(cls):
        code = cls.worker.stop()
        if code == 0:
            shutil.rmtree(cls.workdir, ignore_errors=True)
        else:
            print(f"worker exit status {code}; logs in {cls.workdir}")

    def status(self, name):
        code, body = self.worker.call("GET", f"/connectors/{quote(name)}/status")
        return body if code == 200 else None

    def wait_for(self, what, predicate, timeout=20):
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            last = predicate()
            if last:
                return last
            time.sleep(0.2)
        self.fail(f"timed out waiting for {what}; last: {last}")

    def failed_trace(self, name):
        """The trace of the connector, or of its first task, once one of them is FAILED."""
        def check():
            s = self.status(name)
            if not s:
                return None
            if s["connector"]["state"] == "FAILED":
                return s["connector"].get("trace", "")
            for task in s["tasks"]:
                if task["state"] == "FAILED":
                    return task.get("trace", "")
            return None
        return self.wait_for(f"{name} FAILED", check)

    def healthy_offset(self):
        code, body = self.worker.call("GET", "/connectors/healthy/offsets")
        self.assertEqual(code, 200, body)
        offsets = body["offsets"]
        return offsets[0]["offset"]["seqno"] if offsets and offsets[0]["offset"] else -1

    def assert_worker_fine(self):
        self.assertTrue(self.worker.alive(), "the worker died")
        self.assertEqual(self.worker.health(), 200)
        s = self.status("healthy")
        self.assertEqual(s["connector"]["state"], "RUNNING", s)
        self.assertEqual([t["state"] for t in s["tasks"]], ["RUNNING"], s)
        before = self.healthy_offset()
        self.wait_for("the healthy connector's offsets to advance",
                      lambda: self.healthy_offset() > before, timeout=15)

    def create(self, name, config):
        code, body = self.worker.call("PUT", f"/connectors/{quote(name)}/config", config)
        self.assertIn(code, (200, 201), body)

    def delete(self, name):
        start = time.time()
        code, body = self.worker.call("DELETE", f"/connectors/{quote(name)}", timeout=60)
        self.assertEqual(code, 204, body)
        return time.time() - start


class PluginFaultsTest(FaultyPluginWorker, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.start_worker([lib("good", "connectd_test_plugins"), lib("bad", "c_plugin_bad_major"),
                          lib("bad", "c_plugin_no_entry"),
                          lib("faulty", "connectd_throwing_plugin"),
                          lib("faulty", "connectd_garbage_plugin")])

    @classmethod
    def tearDownClass(cls):
        cls.stop_worker()

    def test_refused_plugins_leave_the_others_loaded(self):
        code, plugins = self.worker.call("GET", "/connector-plugins")
        self.assertEqual(code, 200)
        classes = {p["class"] for p in plugins}
        self.assertIn("org.apache.kafka.connect.tools.VerifiableSourceConnector", classes)
        self.assertIn("org.connectd.test.GarbageSourceConnector", classes)
        self.assertIn("org.connectd.test.ThrowEverywhereSourceConnector", classes)
        self.assertNotIn("org.connectd.test.FutureMajorSourceConnector", classes)
        log = self.worker.log_text()
        self.assertIn("libc_plugin_bad_major.so", log)
        self.assertIn("libc_plugin_no_entry.so", log)
        self.assert_worker_fine()

    def test_an_exception_in_a_fatal_hook_fails_it_with_the_message_as_trace(self):
        for hook in ["connector.start", "connector.taskConfigs", "task.start", "task.poll"]:
            with self.subTest(hook=hook):
                name = f"throw-{hook}"
                self.create(name, {"connector.class": "ThrowEverywhereSource",
                                   "throw.in": hook, "topic": "throwing"})
                trace = self.failed_trace(name)
                self.assertIn(f"thrown in {hook}", trace)
                self.delete(name)
        self.assert_worker_fine()

    def test_a_retriable_task_configs_error_is_retried_with_the_connector_running(self):
        # The SDK's RetriableException (the ABI's UNAVAILABLE) from taskConfigs, three times:
        # the connector stays RUNNING, the herder asks again after 250, 500, 1000 ms, then the
        # task runs.
        name = "retriable-task-configs"
        self.create(name, {"connector.class": "ThrowEverywhereSource",
                           "retriable.task.configs": "3", "topic": "throwing"})
        s = self.wait_for(f"{name} status", lambda: self.status(name))
        self.assertEqual(s["connector"]["state"], "RUNNING", s)
        self.wait_for(f"{name} task RUNNING", lambda: (s := self.status(name)) and
                      s["connector"]["state"] == "RUNNING" and
                      [t["state"] for t in s["tasks"]] == ["RUNNING"])
        log = self.worker.log_text()
        for call in (1, 2, 3):
            self.assertIn(f"Failed to reconfigure connector's tasks ({name}), retrying after "
                          f"backoff: not ready yet (call {call})", log)
        self.delete(name)
        self.assert_worker_fine()

    def test_an_exception_in_validate_is_an_error_answer(self):
        code, body = self.worker.call("PUT", "/connectors/throw-validate/config", {
            "connector.class": "ThrowEverywhereSource", "throw.in": "connector.validate",
            "topic": "throwing"})
        self.assertIn(code, (400, 500), body)
        self.assertIn(b"thrown in connector.validate", body)
        code, body = self.worker.call("PUT",
                                      "/connector-plugins/ThrowEverywhereSource/config/validate",
                                      {"connector.class": "ThrowEverywhereSource",
                                       "throw.in": "connector.validate"})
        self.assertIn(code, (200, 400, 500), body)
        self.assert_worker_fine()

    def test_an_exception_in_commit_or_stop_is_logged_and_the_task_stops(self):
        # Connect logs these (WorkerSourceTask.commitSourceTask, WorkerTask.stop) and goes on.
        for hook in ["task.commit", "task.stop", "connector.stop"]:
            with self.subTest(hook=hook):
                name = f"throw-{hook}"
                self.create(name, {"connector.class": "ThrowEverywhereSource",
                                   "throw.in": hook, "topic": "throwing"})
                self.wait_for(f"{name} RUNNING", lambda: (s := self.status(name)) and
                              s["connector"]["state"] == "RUNNING" and
                              [t["state"] for t in s["tasks"]] == ["RUNNING"])
                time.sleep(1.5)  # several offset commits (offset.flush.interval.ms=500)
                self.assertLess(self.delete(name), GRACEFUL_MS / 1000 + 5)
                self.assertIn(f"thrown in {hook}", self.worker.log_text())
        self.assert_worker_fine()

    def test_garbage_from_the_c_abi_fails_the_connector_or_task(self):
        cases = [
            ("NullConnectorSource", None),
            ("NullTaskSource", None),
            ("GarbageSource", "connector.start.huge"),
            ("GarbageSource", "connector.start.status"),
            ("GarbageSource", "poll.null_headers"),
            ("GarbageSource", "poll.null_topic"),
            ("GarbageSource", "poll.huge_value"),
        ]
        for cls, mode in cases:
            with self.subTest(cls=cls, mode=mode):
                name = f"garbage-{mode or cls}"
                config = {"connector.class": cls, "topic": "garbage"}
                if mode:
                    config["garbage"] = mode
                self.create(name, config)
                trace = self.failed_trace(name)
                self.assertTrue(trace, f"{name} is FAILED without a trace")
                if mode == "connector.start.huge":
                    self.assertTrue(trace.startswith("huge failure: "), trace[:100])
                self.assertEqual(self.worker.health(), 200)
                self.delete(name)
        self.assert_worker_fine()

    def test_offsets_that_are_not_json_are_never_committed(self):
        # As Java's OffsetStorageWriter: the flush fails with an error in the log, the task goes
        # on, and nothing reaches the offset store (which other connectors share).
        self.create("garbage-bad-json", {"connector.class": "GarbageSource",
                                         "garbage": "poll.bad_json", "topic": "garbage"})
        self.wait_for("an offset commit to fail",
                      lambda: "Failed to commit offsets: invalid source partition" in
                      self.worker.log_text())
        s = self.status("garbage-bad-json")
        self.assertEqual([t["state"] for t in s["tasks"]], ["RUNNING"], s)
        code, body = self.worker.call("GET", "/connectors/garbage-bad-json/offsets")
        self.assertEqual((code, body), (200, {"offsets": []}))
        self.delete("garbage-bad-json")
        self.assert_worker_fine()

    def test_a_task_config_without_items_is_refused(self):
        self.create("garbage-null-items", {"connector.class": "GarbageSource",
                                           "garbage": "task_configs.null_items",
                                           "topic": "garbage"})
        trace = self.failed_trace("garbage-null-items")
        self.assertIn("task config", trace)
        self.delete("garbage-null-items")
        self.assert_worker_fine()


class HangingStopTest(FaultyPluginWorker, unittest.TestCase):
    """A task whose stop() blocks for 10 minutes."""

    @classmethod
    def setUpClass(cls):
        cls.start_worker([lib("good", "connectd_test_plugins")])

    @classmethod
    def tearDownClass(cls):
        if cls.worker.alive():
            cls.stop_worker()

    def test_1_a_hanging_stop_holds_a_delete_at_most_the_graceful_timeout(self):
        self.create("hang-delete", {"connector.class": "HangingSource", "stop.hang.ms": "600000",
                                    "topic": "hanging"})
        self.wait_for("hang-delete RUNNING", lambda: (s := self.status("hang-delete")) and
                      [t["state"] for t in s["tasks"]] == ["RUNNING"])
        took = self.delete("hang-delete")
        self.assertLess(took, GRACEFUL_MS / 1000 + 5)
        self.assert_worker_fine()

    def test_2_a_hanging_stop_holds_shutdown_at_most_the_graceful_timeout(self):
        self.create("hang-shutdown", {"connector.class": "HangingSource",
                                      "stop.hang.ms": "600000", "topic": "hanging"})
        self.wait_for("hang-shutdown RUNNING", lambda: (s := self.status("hang-shutdown")) and
                      [t["state"] for t in s["tasks"]] == ["RUNNING"])
        start = time.time()
        code = self.worker.stop(timeout=60)
        took = time.time() - start
        self.assertLess(took, GRACEFUL_MS / 1000 + 8, f"shutdown took {took:.1f} s")
        self.assertEqual(code, 0)
        shutil.rmtree(self.workdir, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
