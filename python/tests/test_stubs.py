"""The type stubs (endodoi/_endodoi.pyi) and the native module name the
same things: every stubbed class, method, property and function exists, and
every public name of the module is stubbed."""

import ast
import pathlib

import endodoi._endodoi as native

STUB = pathlib.Path(native.__file__).parent / "_endodoi.pyi"


def stubbed():
    tree = ast.parse(STUB.read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, members


def test_every_stub_exists_at_run_time():
    names, members = stubbed()
    for name in names - {"Side"}:
        assert hasattr(native, name), "%s is stubbed but not in the module" % name
    for cls, methods in members.items():
        for method in methods - {"__init__", "__new__", "__eq__", "__hash__"}:
            assert hasattr(getattr(native, cls), method), "%s.%s is stubbed but missing" % (cls, method)


def test_every_public_name_is_stubbed():
    names, members = stubbed()
    public = {n for n in dir(native) if not n.startswith("_")}
    assert public <= names, "not stubbed: %s" % sorted(public - names)
    for cls in members:
        inherited = set(dir(ValueError)) if cls == "IllegalMoveError" else set()
        runtime = {n for n in dir(getattr(native, cls)) if not n.startswith("_")} - inherited
        assert runtime <= members[cls], "%s: not stubbed: %s" % (cls, sorted(runtime - members[cls]))


def test_mypy_stubtest_passes():
    """mypy's own checker of stubs against the run-time module (mypy pinned in
    requirements-test.txt), with the allowlist of what cannot match."""
    import subprocess
    import sys

    from conftest import require
    require("mypy.stubtest")
    allowlist = pathlib.Path(__file__).parent / "stubtest-allowlist.txt"
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "endodoi._endodoi", "--ignore-disjoint-bases",
         "--allowlist", str(allowlist)],
        cwd=str(pathlib.Path(__file__).parents[2] / "rules"), capture_output=True, text=True,
        timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
