"""The docs' commands work as written on a clone (issue 19): docs/python.md's
`python python/bench.py` from the repository's root, and the tests run from
python/ (`cd python && python -m pytest tests`), import the installed
package, not the source folder python/endodoi that lacks the extension."""

import os
import subprocess
import sys

from conftest import REPO


def run(args, cwd):
    return subprocess.run([sys.executable] + args, cwd=str(cwd), capture_output=True, text=True,
                          timeout=300)


def test_the_docs_bench_command_runs():
    assert "python python/bench.py" in (REPO / "docs" / "python.md").read_text()
    done = run(["python/bench.py", "--rounds", "1", "--seconds", "0.05"], REPO)
    assert done.returncode == 0, done.stderr
    assert "batch (Position.playouts)" in done.stdout, done.stdout


def test_the_tests_run_from_the_python_folder():
    env = dict(os.environ, ENDODOI_REQUIRE_PYTHON_PKG="1")
    done = subprocess.run([sys.executable, "-m", "pytest", "tests/test_package.py", "-q",
                           "-p", "no:cacheprovider"], cwd=str(REPO / "python"), env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout, done.stdout
