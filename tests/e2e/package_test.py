"""End to end: connectd's Debian package (scripts/package) installed into a clean Debian 12 root
made from Debian's packages (scripts/debian-root), and a worker started from the installed files
against the real Kafka fixture, as the package's unit would start it.

The root is a fresh copy of an mmdebstrap root (essential packages, apt and systemd, nothing of
the build machine's). apt installs the .deb there with the dependencies its Depends name, from
deb.debian.org; nothing else is copied in. The worker then runs inside the root (chroot, as the
`connectd` user the postinst made, from /etc/connectd and /var/lib/connectd) with the unit's
sd_notify readiness: READY=1 must come while /health answers 200, STOPPING=1 on SIGTERM.

- test_1_the_package_installs_with_its_dependencies: files, conffiles (the worker configs
  0640 root:connectd: they hold credentials), user, state directory, units that systemd accepts
  and rates at most 2.0 on `systemd-analyze security` (issue 48), the FileStream connectors
  beside and not on the default plugin.path.
- test_2_a_worker_runs_from_the_installed_files: a distributed worker from
  /etc/connectd/connect-distributed.properties runs a FileStreamSource from the installed
  file connectors (named in its plugin.path) into the fixture; READY=1 / STOPPING=1; a clean
  stop.
- test_3_the_hardened_unit_runs_under_systemd: the root booted with systemd (systemd-nspawn,
  sharing the host's network): connectd-distributed.service, with every hardening option of the
  unit, becomes active, serves, runs a MirrorHeartbeat flow against the fixture, holds no
  capability, runs with no new privileges and a system call filter, and stops with status 0.
- test_4_purge_removes_it: apt-get purge leaves no file of the package, no /etc/connectd and no
  /var/lib/connectd.
"""
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import unittest
import uuid

from connectd_e2e import BUILD_DIR, REPO_ROOT, free_port, http, kafka_bootstrap, wait_until

TOOL = os.path.join(BUILD_DIR, "tests", "kafka_test_tool")


def run(*argv, timeout=600):
    out = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"{' '.join(argv)} exited {out.returncode}:\n{out.stdout[-3000:]}"
                             f"{out.stderr[-3000:]}")
    return out.stdout


def chroot_argv(root, argv, user=None):
    """argv inside `root`, with /proc mounted in a private mount namespace (gone with it)."""
    userspec = [f"--userspec={user}:{user}"] if user else []
    return ["unshare", "--mount", "--propagation", "private", "sh", "-ec",
            'mount -t proc proc "$0/proc" && exec chroot "$@"', root, *userspec, root, *argv]


class DebianPackageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="connectd-package-", dir="/var/tmp")
        debs = run(os.path.join(REPO_ROOT, "scripts", "package"), "--no-build", "--build-dir",
                   BUILD_DIR, "--out", os.path.join(cls.work, "debs")).split()
        cls.deb = next(d for d in debs if os.path.basename(d).startswith("connectd_"))
        tarball = run(os.path.join(REPO_ROOT, "scripts", "debian-root")).strip()
        cls.root = os.path.join(cls.work, "root")
        os.makedirs(cls.root)
        run("tar", "-xf", tarball, "-C", cls.root)
        shutil.copy("/etc/resolv.conf", os.path.join(cls.root, "etc", "resolv.conf"))
        shutil.copy(cls.deb, os.path.join(cls.root, "tmp"))
        cls.install_log = cls.chroot("apt-get", "install", "-y", "--no-install-recommends",
                                     "/tmp/" + os.path.basename(cls.deb))

    @classmethod
    def tearDownClass(cls):
        with open("/proc/mounts") as f:
            mounted = [line.split()[1] for line in f if line.split()[1].startswith(cls.work)]
        if mounted:
            raise AssertionError(f"still mounted, not removed: {mounted}")
        subprocess.run(["rm", "-rf", "--one-file-system", cls.work], check=False)

    @classmethod
    def chroot(cls, *argv, user=None):
        return run(*chroot_argv(cls.root, list(argv), user), timeout=600)

    def in_root(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def test_1_the_package_installs_with_its_dependencies(self):
        status = self.chroot("dpkg-query", "-W", "-f=${Status} ${Version}", "connectd")
        self.assertEqual(status, "install ok installed 0.1.0-1")
        # The dependencies came from Debian, not from this machine.
        for dependency in ("libabsl20220623", "libsasl2-2", "libssl3"):
            self.assertIn("install ok installed",
                          self.chroot("dpkg-query", "-W", "-f=${Status}", dependency))
        for path in ("/usr/bin/connectd", "/usr/lib/connectd/librdkafka.so.1",
                     "/usr/lib/connectd/plugins/libconnectd_mirror_source.so",
                     "/lib/systemd/system/connectd-distributed.service",
                     "/lib/systemd/system/connectd-mirror-maker.service",
                     "/usr/share/connectd/config/grafana/connectd-mirror-flows.json"):
            self.assertTrue(os.path.exists(self.in_root(path)), path)
        conffiles = self.chroot("dpkg-query", "-W", "-f=${Conffiles}", "connectd")
        for name in ("connect-distributed", "connect-mirror-maker", "connect-standalone"):
            self.assertIn(f"/etc/connectd/{name}.properties", conffiles)
        self.assertIn("/etc/default/connectd", conffiles)
        user = self.chroot("getent", "passwd", "connectd").split(":")
        self.assertEqual((user[0], user[5], user[6].strip()),
                         ("connectd", "/var/lib/connectd", "/usr/sbin/nologin"))
        state = self.chroot("stat", "-c", "%U:%G %a", "/var/lib/connectd").strip()
        self.assertEqual(state, "connectd:connectd 750")
        for name in ("connect-distributed", "connect-mirror-maker", "connect-standalone"):
            mode = self.chroot("stat", "-c", "%U:%G %a", f"/etc/connectd/{name}.properties")
            self.assertEqual(mode.strip(), "root:connectd 640", name)
        # The FileStream connectors read and write any file the worker can: not on the default
        # plugin.path, installed beside it.
        listed = self.chroot("connectd", "plugins", user="connectd")
        self.assertIn("MirrorSourceConnector", listed)
        self.assertNotIn("FileStream", listed)
        named = self.chroot("connectd", "plugins", "--plugin-path",
                            "/usr/lib/connectd/file-connectors", user="connectd")
        self.assertIn("org.apache.kafka.connect.file.FileStreamSourceConnector", named)
        for unit in ("connectd-distributed.service", "connectd-mirror-maker.service"):
            out = subprocess.run(chroot_argv(self.root, ["systemd-analyze", "security",
                                                         "--offline=true",
                                                         f"/lib/systemd/system/{unit}"]),
                                 capture_output=True, text=True, timeout=60)
            score = re.search(r"Overall exposure level for \S+: ([0-9.]+)", out.stdout)
            self.assertIsNotNone(score, out.stdout[-2000:] + out.stderr[-2000:])
            print(f"systemd-analyze security {unit}: {score.group(1)}")
            self.assertLessEqual(float(score.group(1)), 2.0, out.stdout)
        version = self.chroot("connectd", "version", user="connectd")
        self.assertIn("librdkafka 2.14.2", version)
        # The root's systemd (bookworm's) accepts the units as installed.
        for unit in ("connectd-distributed.service", "connectd-mirror-maker.service"):
            out = subprocess.run(chroot_argv(self.root, ["systemd-analyze", "verify",
                                                         f"/lib/systemd/system/{unit}"]),
                                 capture_output=True, text=True, timeout=60)
            self.assertEqual((out.returncode, out.stderr), (0, ""), unit)

    def test_2_a_worker_runs_from_the_installed_files(self):
        bootstrap, port, uid = kafka_bootstrap("ctest-a"), free_port(), uuid.uuid4().hex[:8]
        topic = f"packaged-{uid}"
        internal = [f"packaged-{uid}-{kind}" for kind in ("offsets", "configs", "status")]
        config = self.in_root("/etc/connectd/connect-distributed.properties")
        with open(config) as f:
            text = f.read()
        for key, value in {"bootstrap.servers": bootstrap, "group.id": f"packaged-{uid}",
                           "offset.storage.topic": internal[0], "config.storage.topic": internal[1],
                           "status.storage.topic": internal[2],
                           "listeners": f"http://127.0.0.1:{port}"}.items():
            self.assertIn(f"\n{key}=", text)
            text = "\n".join(f"{key}={value}" if line.startswith(f"{key}=") else line
                             for line in text.split("\n"))
        text += "\nplugin.path=/usr/lib/connectd/plugins,/usr/lib/connectd/file-connectors\n"
        with open(config, "w") as f:
            f.write(text)
        lines = [f"line-{i}" for i in range(100)]
        with open(self.in_root("/var/lib/connectd/in.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")

        # systemd's side of Type=notify: a datagram socket whose path the worker sees in the root.
        notify_path = self.in_root("/run/connectd-notify")
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(notify_path)
        os.chmod(notify_path, 0o777)
        notify.settimeout(90)
        log_path = os.path.join(self.work, "worker.log")
        env = dict(os.environ, NOTIFY_SOCKET="/run/connectd-notify")
        with open(log_path, "w") as log:
            # The unit's ExecStart, as its User, in its WorkingDirectory.
            worker = subprocess.Popen(
                chroot_argv(self.root, ["sh", "-c", "cd /var/lib/connectd && exec "
                                        "/usr/bin/connectd distributed "
                                        "/etc/connectd/connect-distributed.properties"],
                            user="connectd"), stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            ready = notify.recv(4096).decode()
            self.assertTrue(ready.startswith("READY=1\n"), ready)
            url = f"http://127.0.0.1:{port}"
            self.assertEqual(http("GET", url + "/health")[0], 200)
            status, body, text = http("POST", url + "/connectors", {
                "name": "packaged-source", "config": {
                    "connector.class": "FileStreamSource", "file": "/var/lib/connectd/in.txt",
                    "topic": topic,
                    "value.converter": "org.apache.kafka.connect.storage.StringConverter"}})
            self.assertEqual(status, 201, text)

            def copied():
                if worker.poll() is not None:
                    raise AssertionError(f"the worker exited {worker.returncode}")
                try:
                    return int(run(TOOL, "count", bootstrap, topic).strip()) == len(lines)
                except AssertionError:
                    return False
            wait_until(copied, timeout=90, interval=1, what="the file's 100 lines in Kafka")
            # The worker runs the package's binary with the package's librdkafka and plugins.
            with open(f"/proc/{worker.pid}/maps") as f:
                maps = f.read()
            self.assertIn(self.in_root("/usr/lib/connectd/librdkafka.so.1"), maps)
            self.assertIn(self.in_root("/usr/lib/connectd/file-connectors/libconnectd_file.so"),
                          maps)
            worker.send_signal(signal.SIGTERM)
            self.assertEqual(notify.recv(4096).decode(), "STOPPING=1")
            self.assertEqual(worker.wait(timeout=90), 0)
        except BaseException:
            with open(log_path) as f:
                print("---- worker ----\n" + "".join(f.readlines()[-60:]))
            raise
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
            notify.close()
            subprocess.run([TOOL, "delete", bootstrap, topic, *internal], capture_output=True)

    def configure_worker(self, uid, port):
        """The package's connect-distributed.properties pointed at the fixture, for `uid`."""
        internal = [f"packaged-{uid}-{kind}" for kind in ("offsets", "configs", "status")]
        config = self.in_root("/etc/connectd/connect-distributed.properties")
        with open(config) as f:
            text = f.read()
        for key, value in {"bootstrap.servers": kafka_bootstrap("ctest-a"),
                           "group.id": f"packaged-{uid}", "offset.storage.topic": internal[0],
                           "config.storage.topic": internal[1],
                           "status.storage.topic": internal[2],
                           "listeners": f"http://127.0.0.1:{port}"}.items():
            text = "\n".join(f"{key}={value}" if line.startswith(f"{key}=") else line
                             for line in text.split("\n"))
        with open(config, "w") as f:
            f.write(text)
        return internal

    def test_3_the_hardened_unit_runs_under_systemd(self):
        uid, port = uuid.uuid4().hex[:8], free_port()
        internal = self.configure_worker(uid, port)
        bootstrap = kafka_bootstrap("ctest-a")
        # systemd-nspawn keeps its mount propagation directory in /run/systemd/nspawn; without a
        # systemd of its own this machine's /run is no tmpfs, so give it one for the test.
        propagate = "/run/systemd/nspawn"
        os.makedirs(propagate, exist_ok=True)
        mounted = subprocess.run(["mountpoint", "-q", propagate]).returncode != 0
        if mounted:
            run("mount", "-t", "tmpfs", "tmpfs", propagate)
        nspawn = ["systemd-nspawn", "--quiet", "--register=no", "--keep-unit", "-D", self.root]
        boot_log = os.path.join(self.work, "boot.log")
        container = None
        try:
            run(*nspawn, "--pipe", "systemctl", "enable", "connectd-distributed")
            with open(boot_log, "w") as log:
                container = subprocess.Popen([*nspawn, "--boot", "--console=passive"],
                                             stdout=log, stderr=subprocess.STDOUT)
            url = f"http://127.0.0.1:{port}"

            def serving():
                if container.poll() is not None:
                    raise AssertionError(f"the container exited {container.returncode}")
                try:
                    return http("GET", url + "/health")[0] == 200
                except OSError:
                    return False
            wait_until(serving, timeout=120, interval=1, what="the unit's worker serving")
            # The worker under the unit: the unit's command, a child of the container's systemd.
            def status(pid):
                with open(f"/proc/{pid}/status") as f:
                    return dict(line.split(":", 1) for line in f.read().splitlines())
            pid = next(int(p) for p in os.listdir("/proc") if p.isdigit() and
                       self.cmdline(p) == "/usr/bin/connectd distributed "
                                          "/etc/connectd/connect-distributed.properties " and
                       "systemd" in self.cmdline(status(p)["PPid"].strip()))
            fields = status(pid)
            self.assertEqual(fields["CapEff"].strip(), "0000000000000000")
            self.assertEqual(fields["CapBnd"].strip(), "0000000000000000")
            self.assertEqual(fields["NoNewPrivs"].strip(), "1")
            self.assertEqual(fields["Seccomp"].strip(), "2")
            status, _, text = http("PUT", url + "/connectors/packaged-heartbeats/config", {
                "connector.class": "MirrorHeartbeatConnector", "source.cluster.alias": f"p{uid}",
                "target.cluster.alias": f"q{uid}", "source.cluster.bootstrap.servers": bootstrap,
                "target.cluster.bootstrap.servers": bootstrap,
                "emit.heartbeats.interval.seconds": "1"})
            self.assertEqual(status, 201, text)
            wait_until(lambda: (http("GET", url + "/connectors/packaged-heartbeats/status")[1]
                                or {}).get("tasks", [{}])[0].get("state") == "RUNNING",
                       timeout=60, interval=1, what="the heartbeat task RUNNING under the unit")
            # systemd, the worker's parent, as the container's PID 1.
            init = ["nsenter", "-t", fields["PPid"].strip(), "-a"]
            out = subprocess.run([*init, "systemctl", "show", "connectd-distributed", "-p", "ActiveState",
                                  "-p", "SubState"], capture_output=True, text=True, timeout=60)
            self.assertIn("ActiveState=active", out.stdout, out.stderr)
            stop = subprocess.run([*init, "systemctl", "stop", "connectd-distributed"],
                                  capture_output=True, text=True, timeout=150)
            self.assertEqual(stop.returncode, 0, stop.stderr)
            result = subprocess.run([*init, "systemctl", "show", "connectd-distributed", "-p",
                                     "Result", "-p", "ExecMainStatus"],
                                    capture_output=True, text=True, timeout=60).stdout
            self.assertIn("Result=success", result)
            self.assertIn("ExecMainStatus=0", result)
        except BaseException:
            with open(boot_log) as f:
                print("---- container ----\n" + "".join(f.readlines()[-60:]))
            raise
        finally:
            if container is not None and container.poll() is None:
                container.terminate()  # nspawn powers the container off
                try:
                    container.wait(timeout=90)
                except subprocess.TimeoutExpired:
                    container.kill()
                    container.wait()
            if mounted:
                subprocess.run(["umount", propagate])
            subprocess.run([TOOL, "delete", bootstrap, *internal], capture_output=True)

    @staticmethod
    def cmdline(pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                return f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            return ""

    def test_4_purge_removes_it(self):
        self.chroot("apt-get", "purge", "-y", "connectd")
        for path in ("/usr/bin/connectd", "/usr/lib/connectd", "/etc/connectd",
                     "/var/lib/connectd", "/lib/systemd/system/connectd-distributed.service"):
            self.assertFalse(os.path.exists(self.in_root(path)), path)
        self.assertFalse(glob.glob(self.in_root("/usr/share/connectd/*")))


if __name__ == "__main__":
    unittest.main()
