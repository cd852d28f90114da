"""Tests of tools/layers.py on small workspaces made here, and on this one."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "layers.py")


def workspace(files):
    root = tempfile.mkdtemp()
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return root


def run(root):
    return subprocess.run([sys.executable, TOOL, root], capture_output=True, text=True)


CARGO = '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n'

def run_crate(files):
    """Runs the tool on a crate `demo` made of `files` (path -> text)."""
    return run(workspace({"Cargo.toml": CARGO, **files}))


def run_b_uses_c(c_rs, more=None):
    """Runs the tool on a crate of two modules where b uses c and c is
    `c_rs`, plus the `more` files (path -> text)."""
    return run_crate({
        "src/lib.rs": "pub mod b;\npub mod c;\n",
        "src/b.rs": "use crate::c::C;\npub struct B;\n",
        "src/c.rs": c_rs,
        **(more or {}),
    })


class Layers(unittest.TestCase):
    def test_a_cycle_between_nested_modules_is_found(self):
        out = run_crate({
            "src/lib.rs": "pub mod a;\n",
            "src/a/mod.rs": "pub mod b;\npub mod c;\n",
            "src/a/b.rs": "use super::c::C;\npub struct B;\n",
            "src/a/c.rs": "/// See [`crate::a::b::B`].\npub struct C;\n",
        })
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn("a module cycle in a: b -> c", out.stdout)

    def test_tests_may_use_anything(self):
        out = run_b_uses_c("pub struct C;\n#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n")
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)

    def test_code_after_a_test_module_declaration_is_checked(self):
        out = run_b_uses_c("#[cfg(test)]\nmod tests;\n\npub struct C;\nuse crate::b::B;\n",
                           {"src/c/tests.rs": ""})
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        self.assertIn("b -> c", out.stdout)

    def test_a_use_list_counts(self):
        out = run_crate({
            "src/lib.rs": "pub mod b;\npub mod c;\n",
            "src/b.rs": "use crate::{c::C, c};\npub struct B;\n",
            "src/c.rs": "use crate::{b::{self}};\npub struct C;\n",
        })
        self.assertIn("b -> c", out.stdout)

    def test_this_workspace_has_its_shape(self):
        out = run(os.path.dirname(HERE))
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)


if __name__ == "__main__":
    unittest.main()
