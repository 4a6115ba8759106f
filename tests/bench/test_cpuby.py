"""``scripts/cpuby``: a command's CPU by kind of process, and the command's exit code."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "cpuby"
_loader = importlib.machinery.SourceFileLoader("cpuby", str(SCRIPT))
cpuby = importlib.util.module_from_spec(importlib.util.spec_from_loader("cpuby", _loader))
_loader.exec_module(cpuby)

# a second of CPU in a child process, then a pause so that a sample sees it all
SPIN = ("import time\nt = time.process_time()\nwhile time.process_time() - t < 1.0: pass\n"
        "time.sleep(0.6)\nraise SystemExit(3)")


def test_a_child_s_cpu_is_counted_under_its_kind_and_its_exit_code_kept(tmp_path):
    # cpuby counts every process of the machine (a run's servers, brokers, browsers): the child
    # runs Python under a name of its own, so that the other tests' Python processes running
    # beside this one (xdist) are not counted with it (CI once read 2.2 s of "python" here)
    spinner = tmp_path / "cpubyspin"
    spinner.symlink_to(os.path.realpath(sys.executable))
    done = subprocess.run([sys.executable, str(SCRIPT), "--every", "0.1", "--",
                           str(spinner), "-c", SPIN], capture_output=True, text=True, timeout=60)
    assert done.returncode == 3
    lines = dict((kind, float(seconds)) for seconds, kind in
                 re.findall(r"^\s+([\d.]+)\s+(\S+)$", done.stderr, re.M))
    assert 0.9 <= lines["cpubyspin"] <= 1.6, done.stderr
    busy = float(re.search(r"the machine ([\d.]+) core-seconds busy", done.stderr).group(1))
    assert busy >= lines["cpubyspin"] - 0.1  # the machine was busy at least that long


def test_kinds():
    kind = cpuby.kind_of
    assert kind("chromium-headle", ["/usr/lib/chromium/chromium-headless-shell"]) == "chromium"
    assert kind("node", ["node", "cli.js", "run-driver"]) == "node"
    assert kind("python", [".venv-test/bin/python", "-m", "popreplay", "serve", "--port", "1"]) \
        == "server"
    assert kind("python", [".venv-test/bin/python", "-m", "popreplay", "worker"]) == "worker"
    assert kind("python", ["python", "tests/queue/poisoned_worker.py", "worker"]) == "worker"
    assert kind("python", ["python", "-m", "pytest", "-n", "2"]) == "pytest"
    assert kind("python", ["python", "-u", "-c", "import sys;exec(eval(sys.stdin.readline()))"]) \
        == "pytest"  # an xdist worker
    assert kind("python", [".venv/bin/python", ".venv/bin/pip", "install", "."]) == "pip"
    assert kind("python3", ["/x/.venv/bin/python3", "/x/.venv/bin/popreplay", "export"]) \
        == "popreplay"
    assert kind("postgres", ["postgres: 15/main: postgres test"]) == "postgres"
    # the folders of a path do not make a kind: a clone in ~/popreplay, a user named pip
    assert kind("python", ["/home/pip/popreplay/.venv/bin/python", "-c", "print(1)"]) == "python"
    assert kind("python3", ["/home/pip/popreplay/.venv/bin/python3", "/tmp/job.py"]) == "python"
