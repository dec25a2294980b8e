"""gcn_vmem_model.cost (SPEC §13.2): seed 003's issue table (tests/data/cost/issue.tsv, transcribed
from the seed, not computed by the model) and the examples against `gcn-vmem cost`."""

import csv
import json

import pytest

import gcn_vmem_model as g


def issue_rows(root):
    with open(root / "tests" / "data" / "cost" / "issue.tsv", newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def test_issue_cycles_equal_seed_003(root):
    rows = issue_rows(root)
    assert len(rows) >= 7
    for row in rows:
        fetch = {"op": row["op"], "address_dwords": int(row["address_dwords"]),
                 "data_dwords": int(row["data_dwords"])}
        if row["op"].startswith("buffer"):
            fetch["single"] = False
        else:
            fetch["tsharp_bits"] = int(row["tsharp_bits"])
            fetch["sampler"] = row["sampler"] == "true"
        if row["op"] in ("image_sample", "image_gather4"):
            fetch["filter"] = "point"
        out = g.cost(fetch)
        assert out["issue_cycles"] == int(row["total"]), row
        for name in ("command", "address", "data"):
            if row[name] != "-":
                assert out[f"{name}_cycles"] == int(row[name]), row


def test_examples_equal_gcn_vmem_cost(root, gcn_vmem):
    lines = [line for line in (root / "tests" / "data" / "cost" / "examples.jsonl").read_text().splitlines() if line]
    expected = gcn_vmem(["cost"], lines)
    assert [g.cost(json.loads(line)) for line in lines] == expected
    assert g.cost_batch([json.loads(line) for line in lines]) == expected


def test_errors_name_the_field():
    with pytest.raises(g.Error, match="field `op`"):
        g.cost({"op": "image_fly", "address_dwords": 1, "data_dwords": 0})
    with pytest.raises(ValueError, match="missing field `single`"):
        g.cost({"op": "buffer_load", "address_dwords": 1, "data_dwords": 0})
    with pytest.raises(g.Error, match="input 1: unknown field `x`"):
        g.cost_batch([{"op": "buffer_load", "address_dwords": 1, "data_dwords": 0, "single": True}, {"x": 1}])
