"""Shared set-up of the package's tests.

Without the installed package every test is skipped with the reason, unless
ENDODOI_REQUIRE_PYTHON_PKG=1 (as .ci/run sets it), when its absence fails.
The same switch makes the tests that need the arena binary, or OpenSpiel,
fail instead of skipping when those are missing.
"""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("ENDODOI_REQUIRE_PYTHON_PKG") == "1"


def need(reason):
    """Skips the calling test with `reason`, or fails it when the switch is set."""
    if REQUIRED:
        pytest.fail(reason + " (ENDODOI_REQUIRE_PYTHON_PKG=1)")
    pytest.skip(reason)


def pytest_collection_modifyitems(config, items):
    try:
        import endodoi  # noqa: F401
    except ImportError as e:
        reason = "the endodoi package is not installed (pip install ./python): %s" % e
        if REQUIRED:
            raise pytest.UsageError(reason + " (ENDODOI_REQUIRE_PYTHON_PKG=1)")
        for item in items:
            item.add_marker(pytest.mark.skip(reason=reason))


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
