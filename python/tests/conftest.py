"""Shared set-up of the package's tests.

Without the installed package every test is skipped with the reason, unless
ENDODOI_REQUIRE_PYTHON_PKG=1 (as .ci/run sets it), when its absence fails.
The same switch makes the tests that need the arena binary, or OpenSpiel,
fail instead of skipping when those are missing.
"""

import os
import pathlib
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SOURCE = REPO / "python"
# `cd python && python -m pytest tests` puts python/ first on sys.path, where
# the source folder python/endodoi (without the built extension) would shadow
# the installed package: the tests import the installed one.
sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != SOURCE]
REQUIRED = os.environ.get("ENDODOI_REQUIRE_PYTHON_PKG") == "1"


def need(reason, module_level=False):
    """Skips the calling test (or module) with `reason`, or fails it when the switch is set."""
    if REQUIRED:
        pytest.fail(reason + " (ENDODOI_REQUIRE_PYTHON_PKG=1)", pytrace=False)
    pytest.skip(reason, allow_module_level=module_level)


def require(module, module_level=False):
    """The module imported, or a skip (a failure with the switch set)."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError as e:
        need("%s is not installed (pip install -r python/requirements-test.txt): %s" % (module, e),
             module_level)
    return None


try:
    import endodoi  # noqa: F401
    MISSING = None
except ImportError as e:
    MISSING = "the endodoi package is not installed (pip install ./python): %s" % e
    if REQUIRED:
        raise pytest.UsageError(MISSING + " (ENDODOI_REQUIRE_PYTHON_PKG=1)")
    # Every test module imports the package: collect only the one that says so.
    collect_ignore_glob = ["test_[!p]*.py", "test_properties.py"]


@pytest.fixture(scope="session")
def arena():
    """The arena binary: $ENDODOI_ARENA, else target/release/arena, else target/debug/arena."""
    candidates = [os.environ.get("ENDODOI_ARENA")] + [
        str(REPO / "target" / kind / "arena") for kind in ("release", "debug")]
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return path
    need("no arena binary (cargo build --release, or set ENDODOI_ARENA)")
    return None


@pytest.fixture(scope="session")
def vectors_path():
    """The rule vectors (RULES.md, "Test vectors")."""
    return REPO / "rules" / "tests" / "vectors.csv"


@pytest.fixture(scope="session")
def pure_python_engine():
    """tools/replay_check.py: the independent pure-Python engine."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("replay_check", REPO / "tools" / "replay_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
