"""The module itself: its docstring and its version."""

import importlib.metadata
import re

import gcn_vmem_model as g


def test_version_is_the_crates_and_the_wheels(root):
    cargo = (root / "rust" / "python" / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, re.M).group(1)
    assert g.__version__ == version
    assert importlib.metadata.version("gcn_vmem_model") == version


def test_docstring_names_every_function_and_the_documentation():
    doc = g.__doc__
    for name in ("eval", "eval_batch", "units", "fields", "exec", "cost", "cost_batch", "decode", "asm"):
        assert re.search(rf"\b{name}\(", doc), name
    assert "docs/integrations/python.md" in doc
