"""A throw-away single-node SLURM on localhost (munged + slurmctld + slurmd) for tests/test_slurm.py.

Everything lives in one private folder: the munge key and socket, `slurm.conf` (node size read
from `slurmd -C`), state, spool, logs and the job-completion history (`jobcomp.log`). Clients
find the cluster through `SLURM_CONF` (see `LocalSlurm.env`). Ports are picked free, so the
cluster does not clash with a system SLURM or with another test run on the same machine.
No accounting database: the Snakemake SLURM executor polls `squeue` (MinJobAge is set high enough).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

PACKAGES = ["slurm-wlm", "munge"]  # Debian: slurmctld, slurmd, the client commands, munged
DAEMONS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol", "sinfo"]
LIVE_STATES = ("PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING")
MIN_JOB_AGE = 3600  # seconds a finished job stays visible to `squeue` (the executor needs >= 120)


def missing_commands() -> list[str]:
    """The SLURM/munge commands not found on PATH (daemons live in /usr/sbin)."""
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin" + os.pathsep + "/sbin"
    return [name for name in DAEMONS if shutil.which(name, path=path) is None]


def install_packages(timeout: int = 600) -> str | None:
    """apt-get install Debian's slurm-wlm and munge; None on success, else the reason it failed."""
    if shutil.which("apt-get") is None:
        return "apt-get not found (not a Debian-like system)"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends",
               "-o", "DPkg::Lock::Timeout=300", *PACKAGES]
    # The packages would start the system's munged, slurmctld and slurmd (which have no config
    # here and are not wanted: the test starts its own). policy-rc.d tells dpkg not to start them.
    policy = Path("/usr/sbin/policy-rc.d")
    own_policy = not policy.exists()
    if own_policy:
        policy.write_text("#!/bin/sh\n# tests/slurm_cluster.py: no service starts while installing\nexit 101\n")
        policy.chmod(0o755)
    try:
        done = subprocess.run(install, env=env, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:  # a fresh machine may have no package lists yet
            subprocess.run(["apt-get", "update", "-q", "-o", "DPkg::Lock::Timeout=300"],
                           env=env, capture_output=True, text=True, timeout=timeout)
            done = subprocess.run(install, env=env, capture_output=True, text=True, timeout=timeout)
    finally:
        if own_policy:
            policy.unlink(missing_ok=True)
    if done.returncode != 0:
        return f"apt-get install {' '.join(PACKAGES)} failed: {done.stderr.strip()[-500:]}"
    still = missing_commands()
    if still:
        return f"installed {' '.join(PACKAGES)} but still missing: {', '.join(still)}"
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def node_hardware() -> str:
    """`slurmd -C`'s description of this machine (CPUs, sockets, cores, threads, RealMemory)."""
    out = subprocess.run([_sbin("slurmd"), "-C"], capture_output=True, text=True, check=True).stdout
    line = next(ln for ln in out.splitlines() if ln.startswith("NodeName="))
    fields = dict(item.split("=", 1) for item in line.split())
    fields.pop("NodeName")
    # leave the OS some memory so the node never drains for "Low RealMemory"
    fields["RealMemory"] = str(int(int(fields["RealMemory"]) * 0.9))
    return " ".join(f"{k}={v}" for k, v in fields.items())


def _sbin(name: str) -> str:
    path = os.environ.get("PATH", "") + os.pathsep + "/usr/sbin" + os.pathsep + "/sbin"
    found = shutil.which(name, path=path)
    if found is None:
        raise FileNotFoundError(name)
    return found


class LocalSlurm:
    """munged, slurmctld and slurmd started in the foreground as our own children, stopped by pid."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.node = socket.gethostname().split(".")[0]
        self.procs: dict[str, subprocess.Popen] = {}
        self.conf = self.root / "slurm.conf"
        self.jobcomp = self.root / "jobcomp.log"
        self.munge_socket = self.root / "munge" / "munge.socket"

    # ---- environment for clients (sbatch, squeue, snakemake) ----
    def env(self, base: dict | None = None) -> dict:
        env = dict(os.environ if base is None else base)
        for var in [v for v in env if v.startswith(("SLURM_", "SBATCH_", "SRUN_", "SQUEUE_"))]:
            del env[var]  # never look like we run inside a job of another cluster
        env["SLURM_CONF"] = str(self.conf)
        env["PATH"] = f"{self.root / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        return env

    def run(self, *cmd: str, check: bool = True, timeout: int = 60) -> subprocess.CompletedProcess:
        return subprocess.run(list(cmd), env=self.env(), capture_output=True, text=True, check=check,
                              timeout=timeout)

    # ---- start ----
    def start(self, timeout: float = 90) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        os.chmod(self.root, 0o755)
        for sub in ("munge", "state", "spool", "log"):
            (self.root / sub).mkdir(exist_ok=True)
        os.chmod(self.root / "munge", 0o711)  # munged wants the socket folder searchable
        self._write_srun_wrapper()
        self._start_munge()
        self._write_conf()
        self._spawn("slurmctld", [_sbin("slurmctld"), "-D", "-i", "-f", str(self.conf)])
        self._wait(lambda: self.run("scontrol", "ping", check=False).returncode == 0
                   and "UP" in self.run("scontrol", "ping", check=False).stdout, timeout, "slurmctld to answer")
        self._spawn("slurmd", [_sbin("slurmd"), "-D", "-N", self.node, "-f", str(self.conf)])
        self._wait(self._node_idle, timeout, f"node {self.node} to become idle")

    def _write_srun_wrapper(self) -> None:
        """`srun` that finds this cluster's config even without SLURM_CONF in its environment.

        The SLURM executor's job step (snakemake-executor-plugin-slurm-jobstep) starts `srun` with
        every SLURM_* variable removed, SLURM_CONF included; on a real cluster srun then reads
        /etc/slurm/slurm.conf (or asks slurmd), but this cluster's config lives in a private
        folder, and the test leaves the machine's /etc alone. The wrapper is first on the jobs' PATH.
        """
        wrapper = self.root / "bin" / "srun"
        wrapper.parent.mkdir(exist_ok=True)
        path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and Path(p) != wrapper.parent]
        srun = shutil.which("srun", path=os.pathsep.join(path)) or "/usr/bin/srun"
        wrapper.write_text(f'#!/bin/sh\nSLURM_CONF={self.conf} exec {srun} "$@"\n')
        os.chmod(wrapper, 0o755)

    def _start_munge(self) -> None:
        key = self.root / "munge" / "munge.key"
        key.write_bytes(os.urandom(1024))
        os.chmod(key, 0o400)
        self._spawn("munged", [
            _sbin("munged"), "--foreground", "--force", f"--socket={self.munge_socket}", f"--key-file={key}",
            f"--pid-file={self.root / 'munge' / 'munged.pid'}", f"--seed-file={self.root / 'munge' / 'seed'}",
            f"--log-file={self.root / 'log' / 'munged.log'}",
        ])
        self._wait(self.munge_socket.exists, 30, "munged's socket")

    def _write_conf(self) -> None:
        r = self.root
        self.conf.write_text(f"""\
# Written by tests/slurm_cluster.py: a single-node SLURM on localhost, no accounting database.
ClusterName=puzzlelab
SlurmctldHost={self.node}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={self.munge_socket}
StateSaveLocation={r / 'state'}
SlurmdSpoolDir={r / 'spool'}
SlurmctldPidFile={r / 'slurmctld.pid'}
SlurmdPidFile={r / 'slurmd.pid'}
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/affinity
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MinJobAge={MIN_JOB_AGE}
InactiveLimit=0
KillWait=5
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc={self.jobcomp}
NodeName={self.node} NodeAddr=127.0.0.1 {node_hardware()} State=UNKNOWN
PartitionName=debug Nodes={self.node} Default=YES MaxTime=INFINITE State=UP
""")

    def _spawn(self, name: str, cmd: list[str]) -> None:
        out = open(self.root / "log" / f"{name}.out", "wb")
        self.procs[name] = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=self.env(),
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        out.close()

    def _node_idle(self) -> bool:
        done = self.run("sinfo", "-h", "-N", "-o", "%t", check=False)
        return done.returncode == 0 and done.stdout.strip() == "idle"

    def _wait(self, ready, timeout: float, what: str) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode} while waiting for {what}:\n"
                                       + self.logs())
            if ready():
                return
            time.sleep(0.3)
        raise RuntimeError(f"timed out after {timeout:.0f}s waiting for {what}:\n" + self.logs())

    # ---- queries ----
    def jobcomp_records(self) -> dict[str, dict[str, str]]:
        """Finished jobs from slurmctld's job-completion log: job id -> its fields (JobState, Tres, ...)."""
        if not self.jobcomp.exists():
            return {}
        records = {}
        for line in self.jobcomp.read_text().splitlines():
            fields = dict(m.groups() for m in re.finditer(r"(\w+)=(\S*)", line))
            if "JobId" in fields:
                records[fields["JobId"]] = fields
        return records

    def queue(self) -> list[dict[str, str]]:
        """Jobs slurmctld still knows (pending, running, or finished less than MinJobAge ago)."""
        out = self.run("squeue", "--states=all", "-h", "-o", "%i|%T|%k").stdout
        return [dict(zip(("id", "state", "comment"), ln.split("|", 2))) for ln in out.splitlines() if ln]

    def logs(self, tail: int = 3000) -> str:
        parts = []
        for log in sorted((self.root / "log").glob("*")):
            text = log.read_text(errors="replace")
            parts.append(f"--- {log.name} ---\n{text[-tail:]}")
        return "\n".join(parts)

    # ---- stop ----
    def stop(self) -> None:
        """Cancel every job of this cluster, wait for them to end, then stop the daemons we started."""
        try:
            self.cancel_all()
        finally:
            self._stop_daemons()

    def cancel_all(self, timeout: float = 30) -> None:
        """scancel every job of this cluster and wait until none is pending or running."""
        if "slurmctld" not in self.procs or self.procs["slurmctld"].poll() is not None:
            return
        try:
            self.run("scancel", "--full", "--partition=debug", check=False, timeout=20)
            end = time.monotonic() + timeout
            while time.monotonic() < end:
                if not [j for j in self.queue() if j["state"] in LIVE_STATES]:
                    return
                time.sleep(0.5)
        except (subprocess.SubprocessError, OSError):
            pass  # the daemons are stopped all the same

    def _stop_daemons(self) -> None:
        for name in ("slurmd", "slurmctld", "munged"):
            proc = self.procs.get(name)
            if proc is None or proc.poll() is not None:
                continue
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    """`python tests/slurm_cluster.py DIR`: start a local SLURM in DIR, print how to use it, stop on Ctrl-C."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("root", type=Path, help="an empty folder for the cluster's files")
    args = parser.parse_args(argv)
    cluster = LocalSlurm(args.root.resolve())
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    try:
        cluster.start()
        print(f"SLURM is up: export SLURM_CONF={cluster.conf}   (Ctrl-C or SIGTERM stops it)", flush=True)
        while not stop:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
