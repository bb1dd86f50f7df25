"""End to end over SASL: a pair of `connectd distributed` workers whose Kafka clients reach the
broker only through its SASL_PLAINTEXT listener (issue #5: the group membership client on a
secured cluster).

The ctest fixture starts ctest-a with `scripts/kafka start --sasl`: next to the PLAINTEXT
listener the broker has a SASL_PLAINTEXT one with PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 for one
user ($CONNECTD_RUN_DIR/<cluster>/sasl_bootstrap, .../sasl_username, .../sasl_password). The
workers get the Java keys a user writes: security.protocol=SASL_PLAINTEXT, sasl.mechanism and a
PlainLoginModule / ScramLoginModule sasl.jaas.config, used for the internal topics (librdkafka),
`connect` group membership (connectd's own protocol client) and the tasks' producers. A
VerifiableSource connector created over REST runs its tasks on both workers and its records land
in the topic. The test's own checks use the PLAINTEXT listener.

SCRAM works with the librdkafka connectd links (>= 2.14, built by scripts/librdkafka: releases
before 2.6.1 sent a client-final-message Kafka 4.x rejects, confluentinc/librdkafka#4895); the
test first checks that connectd loads that library. connectd's own group client covers every
mechanism too (tests/integration/kafka/sasl_group_test.cc).

Run, from tests/e2e (build dir: $CONNECTD_BUILD_DIR, else <repo>/build):
    CONNECTD_RUN_DIR=<run dir of clusters started with --sasl> python3 -m unittest -v sasl_test
"""
import os
import subprocess
import unittest
import uuid

from connectd_e2e import BUILD_DIR
from distributed_cluster import WorkerCluster, clean_up_pair, run_verifiable_pair


def kafka_sasl(cluster="ctest-a"):
    """(bootstrap, username, password) of the cluster's SASL_PLAINTEXT listener."""
    run_dir = os.environ.get("CONNECTD_RUN_DIR", os.path.join(BUILD_DIR, "kafka-run"))
    values = []
    try:
        for file in ("sasl_bootstrap", "sasl_username", "sasl_password"):
            with open(os.path.join(run_dir, cluster, file)) as f:
                values.append(f.read().strip())
    except FileNotFoundError:
        raise AssertionError(f"Kafka test cluster {cluster} in {run_dir} has no SASL listener: "
                             f"start it with `scripts/kafka start {cluster} --sasl`") from None
    return tuple(values)


def sasl_client_props(mechanism, username, password, prefix=""):
    """Java client keys for the SASL_PLAINTEXT listener."""
    module = ("org.apache.kafka.common.security.plain.PlainLoginModule" if mechanism == "PLAIN"
              else "org.apache.kafka.common.security.scram.ScramLoginModule")
    return {f"{prefix}security.protocol": "SASL_PLAINTEXT",
            f"{prefix}sasl.mechanism": mechanism,
            f"{prefix}sasl.jaas.config":
                f'{module} required username="{username}" password="{password}";'}


def loaded_librdkafka():
    """The librdkafka.so.1 that the build's connectd loads (its RUNPATH, else the system's)."""
    out = subprocess.run(["ldd", os.path.join(BUILD_DIR, "bin", "connectd")], capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        if line.strip().startswith("librdkafka.so") and "=>" in line:
            return os.path.realpath(line.split("=>")[1].split("(")[0].strip())
    raise AssertionError(f"connectd does not link librdkafka:\n{out}")


def check_loads_built_librdkafka():
    """When the build was configured with CONNECTD_RDKAFKA_PREFIX (ctest passes it on), connectd
    must load that library: a RUNPATH that stopped working fails here, not silently."""
    library = loaded_librdkafka()
    prefix = os.environ.get("CONNECTD_RDKAFKA_PREFIX")
    if prefix:
        expected = os.path.realpath(os.path.join(prefix, "lib"))
        if os.path.dirname(library) != expected:
            raise AssertionError(f"connectd loads {library}, not the librdkafka of {expected}")


class DistributedSaslTest(unittest.TestCase):

    def setUp(self):
        self.bootstrap, self.user, self.password = kafka_sasl("ctest-a")
        self.cluster = None

    def start_pair(self, mechanism):
        self.cluster = WorkerCluster(
            ["connectd", "connectd"], name="sasl-" + uuid.uuid4().hex[:8],
            props={"bootstrap.servers": self.bootstrap,
                   **sasl_client_props(mechanism, self.user, self.password)})
        self.topic = clean_up_pair(self, self.cluster)

    def test_connectd_pair_runs_a_connector_over_plain(self):
        self.run_pair("PLAIN")

    def test_connectd_worker_over_scram_sha_512(self):
        check_loads_built_librdkafka()
        self.run_pair("SCRAM-SHA-512")

    def run_pair(self, mechanism):
        self.start_pair(mechanism)
        run_verifiable_pair(self, self.cluster, self.topic, self.bootstrap,
                            name="verifiable-sasl-" + mechanism.lower(), listener="SASL",
                            label=f"sasl pair ({mechanism})")


if __name__ == "__main__":
    unittest.main()
