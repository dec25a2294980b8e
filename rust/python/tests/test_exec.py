"""gcn_vmem_model.exec (SPEC §13.1): a hand-computed program, the docs' examples against
`gcn-vmem exec`, and errors."""

import json

import pytest

import gcn_vmem_model as g


def raw_vsharp(base, num_records):
    # SPEC §1.1: base 47:0, stride 61:48 = 0, num_records 95:64, nfmt 110:108 = uint, dfmt 114:111 = 32.
    return hex(base | num_records << 64 | 4 << 108 | 4 << 111)


PROGRAM = {
    "sgprs": {"s[4:7]": raw_vsharp(0x1000, 256)},
    "vgprs": {"v1": [4 * lane for lane in range(64)], "v2": [lane + 100 for lane in range(64)]},
    "exec": "0x00000000ffffffff",
    "program": [
        "buffer_store_dword v2, v1, s[4:7], 0 offen",
        "buffer_load_dword v3, v1, s[4:7], 0 offen offset:4",
    ],
}


def test_store_then_load_by_hand():
    out = g.exec(PROGRAM)
    # Lanes 0..31 (EXEC) store lane + 100 at 0x1000 + 4 * lane, little-endian; the output lists
    # the bytes that changed (SPEC §13.1), so each lane's low byte (its upper three stay 0).
    assert out["memory"] == [{"address": 0x1000 + 4 * lane, "data": f"{lane + 100:02x}"} for lane in range(32)]
    # The load reads the next dword: lane + 101 for lanes 0..30, lane 31 reads byte 0x1080 (never
    # written: 0); inactive lanes keep v3's old value 0.
    assert out["vgprs"]["v3"] == [lane + 101 for lane in range(31)] + [0] * 33
    assert out["lds"] == []
    # The same document as JSON text.
    assert g.exec(json.dumps(PROGRAM)) == out


def test_docs_examples_equal_gcn_vmem_exec(root, gcn_vmem):
    docs = [PROGRAM] + [json.loads(p.read_text()) for p in sorted((root / "docs" / "examples").glob("*.json"))]
    for doc in docs:
        (expected,) = gcn_vmem(["exec", "-"], [json.dumps(doc)])
        assert g.exec(doc) == expected


@pytest.mark.parametrize("doc,message", [
    ({"program": ["buffer_load_dword v1, v2, s[4:7], 0 offen bogus"]}, "instruction 0"),
    ({"program": [], "sgprs": {"s200": 1}}, "sgprs: `s200`"),
    ({"program": [], "bogus": 1}, "unknown key `bogus`"),
    ({"program": [], "memory": [{"address": 0, "data": "aé"}]}, r"memory\[0\].data"),
    ({"program": [], "memory": [{"address": 0, "data": "a\u00e9b"}]}, r"memory\[0\].data"),
    ({"sgprs": {}}, "missing key `program`"),
])
def test_errors_name_the_key_or_instruction(doc, message):
    with pytest.raises(g.Error, match=message):
        g.exec(doc)


def test_error_equals_gcn_vmem_exec(gcn_vmem):
    doc = {**PROGRAM, "program": PROGRAM["program"] + ["buffer_load_dwordx2 v[3:4], v1, s[4:7], 0 offen lds"]}
    (expected,) = gcn_vmem(["exec", "-"], [json.dumps(doc)])
    with pytest.raises(g.Error) as e:
        g.exec(doc)
    assert str(e.value) == expected["error"]
