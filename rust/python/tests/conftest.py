"""Shared fixtures of the gcn_vmem_model tests (run by `make python`).

Expected values come from the spec (docs/spec.md), from independent data in the repository
(tests/data: LLVM's encodings, seed 003's cost tables), or from the `gcn-vmem` binary of the
harness (`gcn-vmem eval`, `exec`, `cost`), which the tests run when it has been built
(target/release/gcn-vmem, or $GCN_VMEM_BIN) and skip otherwise.
"""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _binary():
    path = pathlib.Path(os.environ.get("GCN_VMEM_BIN", ROOT / "target" / "release" / "gcn-vmem"))
    return path if path.is_file() and os.access(path, os.X_OK) else None


@pytest.fixture(scope="session")
def root():
    return ROOT


def _run(args, text):
    """`gcn-vmem ARGS` with `text` on stdin: its stdout lines (skips the test when it is not built)."""
    binary = _binary()
    if binary is None:
        pytest.skip("target/release/gcn-vmem is not built (make build); the cross-checks need it")
    p = subprocess.run([str(binary), *args], input=text, capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1):
        raise AssertionError(f"gcn-vmem {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return [line for line in p.stdout.splitlines() if line.strip()]


@pytest.fixture(scope="session")
def gcn_vmem():
    """Runs `gcn-vmem ARGS` with JSON lines on stdin; returns the parsed stdout lines."""

    def run(args, lines):
        text = "".join(json.dumps(line) + "\n" if not isinstance(line, str) else line + "\n" for line in lines)
        return [json.loads(line) for line in _run(args, text)]

    return run


@pytest.fixture(scope="session")
def gcn_vmem_lines():
    """Runs `gcn-vmem ARGS` (nothing on stdin); returns its stdout lines as text."""
    return lambda args: _run(args, "")
