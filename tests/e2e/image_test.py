"""End to end: connectd's container image (scripts/image: packaging/container/Dockerfile on a
debian:bookworm-slim made from Debian's packages, the .deb of scripts/package) run with podman
against the real Kafka fixture.

- test_image_metadata: runs as the package's `connectd` user, HEALTHCHECK and entry point set,
  `connectd version` answers.
- test_connect_variables_become_the_worker_config: CONNECT_* variables turn into the properties
  Kafka Connect images make of them, unreadable by others; a multi-line value (a PEM) stays whole
  and a line break in a value adds no property.
- test_worker_configured_by_environment_joins_the_broker: a worker configured by CONNECT_*
  variables, on a read-only root file system, serves, passes its HEALTHCHECK, runs a
  FileStreamSource from the image's file connectors (named in plugin.path: they are not on the
  default one) into the broker and stops cleanly on `podman stop`.
- test_worker_from_a_mounted_properties_file: without CONNECT_* variables the mounted
  /etc/connectd/connect-distributed.properties configures the worker.
"""
import os
import shutil
import subprocess
import tempfile
import unittest
import uuid

from connectd_e2e import BUILD_DIR, REPO_ROOT, free_port, http, kafka_bootstrap, wait_until

TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")
ENV = dict(os.environ)


def run(*argv, timeout=600, check=True):
    out = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout, env=ENV)
    if check and out.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} exited {out.returncode}:\n{out.stdout[-3000:]}"
                             f"{out.stderr[-3000:]}")
    return out


def podman(*args, **kwargs):
    return run("podman", *args, **kwargs)


class ContainerImageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        ENV["CONTAINERS_CONF"] = run(os.path.join(REPO_ROOT, "scripts", "lib", "podman-conf")
                                     ).stdout.strip()
        cls.image = f"localhost/connectd-test:{uuid.uuid4().hex[:8]}"
        run(os.path.join(REPO_ROOT, "scripts", "image"), "--no-build", "--build-dir", BUILD_DIR,
            "--tag", cls.image, timeout=900)

    @classmethod
    def tearDownClass(cls):
        podman("rmi", "-f", cls.image, check=False)
        podman("image", "prune", "-f", check=False)

    def setUp(self):
        self.uid = uuid.uuid4().hex[:8]
        self.containers, self.topics = [], []
        self.workdir = tempfile.mkdtemp(prefix="connectd-image-", dir="/var/tmp")

    def tearDown(self):
        for name in self.containers:
            podman("rm", "-f", name, check=False)
        if self.topics:
            subprocess.run([TOOL, "delete", kafka_bootstrap("ctest-a"), *self.topics],
                           capture_output=True)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def worker_settings(self, port):
        """A distributed worker's settings for this test: its own group and topics."""
        self.topics += [f"image-{self.uid}-{kind}" for kind in ("offsets", "configs", "status")]
        return {"bootstrap.servers": kafka_bootstrap("ctest-a"), "group.id": f"image-{self.uid}",
                "offset.storage.topic": self.topics[-3], "config.storage.topic": self.topics[-2],
                "status.storage.topic": self.topics[-1],
                "offset.storage.replication.factor": "1",
                "config.storage.replication.factor": "1",
                "status.storage.replication.factor": "1",
                "key.converter": "org.apache.kafka.connect.storage.StringConverter",
                "value.converter": "org.apache.kafka.connect.storage.StringConverter",
                "listeners": f"http://127.0.0.1:{port}"}

    def start(self, *options):
        name = f"connectd-test-{self.uid}-{len(self.containers)}"
        self.containers.append(name)
        podman("run", "-d", "--name", name, "--network", "host", *options, self.image)
        return name

    def wait_serving(self, name, port):
        def serving():
            state = podman("inspect", name, "--format", "{{.State.Status}}").stdout.strip()
            if state != "running":
                raise AssertionError(f"{name} is {state}:\n{podman('logs', name).stderr[-3000:]}")
            try:
                return http("GET", f"http://127.0.0.1:{port}/health")[0] == 200
            except OSError:
                return False
        wait_until(serving, timeout=90, interval=0.5, what=f"{name} serving /health")

    def stop(self, name):
        podman("stop", "-t", "60", name)
        state = podman("inspect", name, "--format", "{{.State.ExitCode}}").stdout.strip()
        self.assertEqual(state, "0", podman("logs", name).stderr[-3000:])

    def test_image_metadata(self):
        config = podman("image", "inspect", self.image, "--format",
                        "{{.Config.User}}|{{json .Config.Entrypoint}}|{{json .Config.Healthcheck.Test}}"
                        ).stdout.strip().split("|")
        self.assertEqual(config[0], "connectd")
        self.assertEqual(config[1], '["/usr/lib/connectd/entrypoint"]')
        self.assertEqual(config[2], '["CMD","/usr/lib/connectd/entrypoint","health"]')
        version = podman("run", "--rm", "--network", "none", self.image, "version").stdout
        self.assertIn("librdkafka 2.14.2", version)
        user = podman("run", "--rm", "--network", "none", "--entrypoint", "id", self.image).stdout
        self.assertIn("(connectd)", user)
        self.assertNotIn("uid=0(", user)

    def test_connect_variables_become_the_worker_config(self):
        # The entry point with a stand-in connectd that prints the file it was given (the real
        # one makes the file).
        script = ("mkdir -p /tmp/bin && printf '#!/bin/sh\\n"
                  "[ \"$1\" = properties-from-env ] && exec /usr/bin/connectd \"$@\"\\n"
                  "stat -c %%a \"$2\"; cat \"$2\"\\n' "
                  ">/tmp/bin/connectd && chmod +x /tmp/bin/connectd && "
                  "PATH=/tmp/bin:$PATH exec /usr/lib/connectd/entrypoint")
        pem = "-----BEGIN CERTIFICATE-----\nMIIBszCC\n-----END CERTIFICATE-----"
        out = podman("run", "--rm", "--network", "none", "--entrypoint", "sh",
                     "-e", "CONNECT_BOOTSTRAP_SERVERS=k1:9092,k2:9092",
                     "-e", "CONNECT_GROUP_ID=g", "-e", r"CONNECT_TOPICS_REGEX=a\.b.*",
                     "-e", "CONNECT_CONSUMER_SASL_JAAS_CONFIG=x y=\"z\";",
                     "-e", "CONNECT_A__B___C_D=v", "-e", "KAFKA_HEAP_OPTS=-Xmx1g",
                     "-e", f"CONNECT_SSL_TRUSTSTORE_CERTIFICATES={pem}",
                     "-e", "CONNECT_X=a\nCONNECT_PLUGIN_PATH=/tmp/evil\nplugin.path=/tmp/evil",
                     self.image, "-c", script).stdout.splitlines()
        self.assertEqual(out[0], "600")
        self.assertEqual(sorted(out[1:]), sorted([
            "bootstrap.servers=k1:9092,k2:9092", "group.id=g", r"topics.regex=a\\.b.*",
            "consumer.sasl.jaas.config=x y=\"z\";", "a_b-c.d=v",
            r"ssl.truststore.certificates=-----BEGIN CERTIFICATE-----\nMIIBszCC\n"
            r"-----END CERTIFICATE-----",
            r"x=a\nCONNECT_PLUGIN_PATH=/tmp/evil\nplugin.path=/tmp/evil"]))

    def test_worker_configured_by_environment_joins_the_broker(self):
        port = free_port()
        settings = self.worker_settings(port)
        settings["plugin.path"] = "/usr/lib/connectd/plugins,/usr/lib/connectd/file-connectors"
        env = []
        for key, value in settings.items():
            env += ["-e", "CONNECT_" + key.upper().replace("-", "___").replace(".", "_") + "=" + value]
        # A read-only root: the worker writes only to its volume (/var/lib/connectd).
        name = self.start("--read-only", *env)
        self.wait_serving(name, port)
        self.assertEqual(podman("healthcheck", "run", name, check=False).returncode, 0)
        root = http("GET", f"http://127.0.0.1:{port}/")[1]
        self.assertEqual(root["version"], "4.4.0")
        # A FileStreamSource from the image's plugins, reading a file of the image.
        topic = f"image-{self.uid}"
        self.topics.append(topic)
        lines = podman("exec", name, "cat", "/etc/os-release").stdout.splitlines()
        status, _, text = http("POST", f"http://127.0.0.1:{port}/connectors", {
            "name": "image-source", "config": {"connector.class": "FileStreamSource",
                                               "file": "/etc/os-release", "topic": topic}})
        self.assertEqual(status, 201, text)

        def copied():
            out = subprocess.run([TOOL, "count", settings["bootstrap.servers"], topic],
                                 capture_output=True, text=True)
            return out.returncode == 0 and int(out.stdout.strip()) == len(lines)
        wait_until(copied, timeout=60, interval=1, what="/etc/os-release's lines in Kafka")
        self.stop(name)

    def test_worker_from_a_mounted_properties_file(self):
        port = free_port()
        path = os.path.join(self.workdir, "connect-distributed.properties")
        with open(path, "w") as f:
            f.writelines(f"{k}={v}\n" for k, v in self.worker_settings(port).items())
        os.chmod(path, 0o644)
        name = self.start("-v", f"{path}:/etc/connectd/connect-distributed.properties:ro")
        self.wait_serving(name, port)
        self.assertEqual(podman("healthcheck", "run", name, check=False).returncode, 0)
        self.stop(name)


if __name__ == "__main__":
    unittest.main()
