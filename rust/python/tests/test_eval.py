"""gcn_vmem_model.eval and eval_batch: SPEC §13's objects, against the spec's values and the
`gcn-vmem eval` binary."""

import random

import pytest

import gcn_vmem_model as g

BUFFER_FIELDS = dict(
    inst_offset=0, offen=False, idxen=False, access="non_format", bytes=4, lds=False, sgpr_offset=0,
    vgpr_index=0, vgpr_offset=0, tid=0, m0=0, lds_base=0, lds_size=0,
)


def vsharp(base=0, stride=0, num_records=0, dfmt=4, nfmt=4, swizzle=False, element_size=0, index_stride=0,
           add_tid=False):
    """A V# from its fields (SPEC §1.1's bit positions)."""
    v = base | stride << 48 | int(swizzle) << 63 | num_records << 64 | nfmt << 108 | dfmt << 111
    v |= element_size << 115 | index_stride << 117 | int(add_tid) << 119
    return hex(v)


def buffer(**fields):
    return {**BUFFER_FIELDS, **fields}


# --- spec values -------------------------------------------------------------------------------

def test_buffer_addr_structured_spec_example():
    # SPEC §2.3: index * stride + offset; base 0x1000, stride 16, index 3, inst_offset 4.
    out = g.eval("buffer_addr", buffer(vsharp=vsharp(base=0x1000, stride=16, num_records=8), idxen=True,
                                        vgpr_index=3, inst_offset=4))
    assert out == {"address": 0x1000 + 3 * 16 + 4, "in_range": [True], "unbound": False, "illegal": False,
                   "lds_address": 0, "lds_in_range": False}
    # SPEC §2.4, structured: record 8 is not below num_records 8.
    out = g.eval("buffer_addr", buffer(vsharp=vsharp(base=0x1000, stride=16, num_records=8), idxen=True,
                                        vgpr_index=8, inst_offset=4))
    assert out["address"] == 0x1000 + 8 * 16 + 4 and out["in_range"] == [False]


def test_buffer_addr_raw_range_per_dword():
    # SPEC §2.4 and §12 (raw: the last byte of each checked dword below num_records): a 16-byte
    # access at offset 8 of a 20-byte buffer has dwords at 8, 12 (in) and 16, 20 (16..19 in, 20 out).
    out = g.eval("buffer_addr", buffer(vsharp=vsharp(base=0x100, num_records=20), offen=True, vgpr_offset=8,
                                        bytes=16))
    assert out["address"] == 0x108
    assert out["in_range"] == [True, True, True, False]
    # dfmt 0 is an unbound V# (SPEC §1.1).
    assert g.eval("buffer_addr", buffer(vsharp=vsharp(num_records=20, dfmt=0)))["unbound"] is True


@pytest.mark.parametrize("code,bits", [
    # SPEC §9's examples: 0x00 -> 2^-10, 0x01 -> 2^-9, 0x08 -> 2^-6, 0x38 -> 1.0, 0x78 -> 256, 0x7F -> 480.
    (0x00, 0x3A800000), (0x01, 0x3B000000), (0x08, 0x3C800000), (0x38, 0x3F800000), (0x78, 0x43800000),
    (0x7F, 0x43F00000),
])
def test_inline_const_spec_examples(code, bits):
    assert g.eval("inline_const", {"code": code}) == {"bits": bits}


def test_format_unpack_spec_values():
    # SPEC §1.4/§5: dfmt 10 (8_8_8_8) as uint: X = bits 7:0 ... W = bits 31:24.
    out = g.eval("format_unpack", {"dfmt": 10, "nfmt": 4, "data": "0x44332211"})
    assert out == {"components": [0x11, 0x22, 0x33, 0x44], "count": 4, "valid": True}
    # dfmt 1 (8) as unorm: 0xff -> 1.0, missing components 0 (SPEC §12), one component.
    assert g.eval("format_unpack", {"dfmt": 1, "nfmt": 0, "data": "0xff"}) == {
        "components": [0x3F800000, 0, 0, 0], "count": 1, "valid": True}
    # dfmt 2 (16) as float: f16 0x3c00 = 1.0 widened exactly.
    assert g.eval("format_unpack", {"dfmt": 2, "nfmt": 7, "data": "0x3c00"})["components"][0] == 0x3F800000
    # nfmt 6 is reserved: format_valid false (SPEC §1.4).
    assert g.eval("format_unpack", {"dfmt": 4, "nfmt": 6, "data": "0x0"})["valid"] is False


def test_format_pack_spec_values():
    # SPEC §5: f32 1.0 into a 16-bit float field is 0x3c00; the element is 2 bytes.
    assert g.eval("format_pack", {"dfmt": 2, "nfmt": 7, "components": [0x3F800000, 0, 0, 0]}) == {
        "data": "0x3c00", "valid": True}
    # dfmt 0: no element, "0x00" (docs/usage.md).
    assert g.eval("format_pack", {"dfmt": 0, "nfmt": 4, "components": [1, 2, 3, 4]})["data"] == "0x00"


def test_swizzle_spec_steps():
    comps = [0x11, 0x22, 0x33, 0x44]
    # dst_sel codes: 0 SEL_0, 1 SEL_1, 4..7 R, G, B, A (X, Y, Z, W). Identity, all four, no TFE.
    base = {"components": comps, "count": 4, "dst_sel": [4, 5, 6, 7], "integer": True, "dmask": 15, "oor": 0,
            "unbound": False, "tfe": False}
    assert g.eval("swizzle", base) == {"result": comps, "result_count": 4}
    # DMASK 1001 puts R in dword 0 and A in dword 1 (SPEC §3 step 4); TFE appends a 0 status dword.
    assert g.eval("swizzle", {**base, "dmask": 0b1001, "tfe": True}) == {"result": [0x11, 0x44, 0], "result_count": 3}
    # SEL_1 is 1 for integer nfmts, 1.0 for float-like ones; out of range keeps SEL_1, zeroes the rest.
    sel = {**base, "dst_sel": [1, 4, 0, 1], "oor": 15}
    assert g.eval("swizzle", sel)["result"] == [1, 0, 0, 1]
    assert g.eval("swizzle", {**sel, "integer": False})["result"] == [0x3F800000, 0, 0, 0x3F800000]
    # Unbound: every channel 0, SEL_1 included.
    assert g.eval("swizzle", {**sel, "unbound": True})["result"] == [0, 0, 0, 0]


# --- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("change,field", [
    ({"tid": 64}, "tid"), ({"inst_offset": 4096}, "inst_offset"), ({"bytes": 3}, "bytes"),
    ({"access": "bogus"}, "access"), ({"vsharp": "0x1" + "0" * 32}, "vsharp"), ({"lds": 2}, "lds"),
    ({"m0": -1}, "m0"), ({"m0": 1.5}, "m0"), ({"vsharp": "12"}, "vsharp"), ({"lds_base": 512}, "lds_base"),
])
def test_bad_values_name_the_field(change, field):
    with pytest.raises(g.Error, match=f"field `{field}`"):
        g.eval("buffer_addr", {**buffer(vsharp="0x0"), **change})


def test_missing_unknown_and_unit_errors():
    with pytest.raises(ValueError, match="missing field `vsharp`"):
        g.eval("buffer_addr", BUFFER_FIELDS)
    with pytest.raises(g.Error, match="unknown field `valid`"):
        g.eval("buffer_addr", buffer(vsharp="0x0", valid=True))
    with pytest.raises(g.Error, match="unknown unit `nope`.*buffer_addr"):
        g.eval("nope", {})
    with pytest.raises(g.Error, match="vmem_pipe has no eval object"):
        g.eval("vmem_pipe", {})
    with pytest.raises(g.Error, match="expected a dict"):
        g.eval("inline_const", [1])
    with pytest.raises(g.Error, match="input 1: field `code`"):
        g.eval_batch("inline_const", [{"code": 1}, {"code": 128}])
    with pytest.raises(g.Error, match="input 2: field `code`"):
        g.eval_batch("inline_const", {"code": [1, 2, 300]})
    with pytest.raises(g.Error, match="field `addresses`: expected a list of 64"):
        g.eval("coalescer", {"addresses": [0] * 63, "active": "0x1", "bytes": 4, "single": False})


# --- random inputs against `gcn-vmem eval` ---------------------------------------------------------

def edge32(rng):
    return rng.choice([rng.getrandbits(32), rng.randrange(64), 0xFFFFFFFF - rng.randrange(64), 1 << rng.randrange(32)])


def random_input(unit, rng):
    """A random SPEC §13 object of `unit`: every field inside its width and set."""
    b = rng.getrandbits
    if unit == "buffer_addr":
        return {"vsharp": hex(b(128)), "inst_offset": rng.choice([0, 4095, b(12)]), "offen": rng.random() < .5,
                "idxen": rng.random() < .5, "access": rng.choice(["format", "non_format", "atomic"]),
                "bytes": rng.choice([1, 2, 4, 8, 12, 16]), "lds": rng.random() < .3, "sgpr_offset": edge32(rng),
                "vgpr_index": edge32(rng), "vgpr_offset": edge32(rng), "tid": b(6), "m0": b(32), "lds_base": b(9),
                "lds_size": b(9)}
    if unit == "swizzle":
        return {"components": [b(32) for _ in range(4)], "count": b(3), "dst_sel": [b(3) for _ in range(4)],
                "integer": rng.random() < .5, "dmask": b(4), "oor": b(4), "unbound": rng.random() < .1,
                "tfe": rng.random() < .5}
    if unit == "format_unpack":
        return {"dfmt": b(4), "nfmt": b(3), "data": hex(b(rng.choice([8, 16, 32, 64, 128])))}
    if unit == "format_pack":
        return {"dfmt": b(4), "nfmt": b(3), "components": [rng.choice([b(32), b(16), 0x3F800000]) for _ in range(4)]}
    if unit == "d16":
        ops = ["load_format", "load_ubyte", "load_sbyte", "load_short", "store_format", "store_byte",
               "store_short", "reserved"]
        return {"op": rng.choice(ops), "hi": rng.random() < .5, "nfmt": b(3), "count": b(3), "data": hex(b(128)),
                "old": hex(b(32))}
    if unit == "image_addr":
        # T# bits 120:116 (sw_mode) drawn among linear, the tiled modes and an unmodelled one.
        lo = b(128) & ~(0x1f << 116) | rng.choice([0, 1, 5, 9, 3, b(5)]) << 116
        return {"tsharp_lo": hex(lo), "tsharp_hi": hex(b(128)), "r128": rng.random() < .5,
                "op": rng.choice(["by2", "by4", "pck2", "pck4", "element", "element", "element", "reserved6"]),
                "mip": rng.random() < .5, "dmask": b(4), "d16": rng.random() < .2, "tfe": rng.random() < .2,
                "da": rng.random() < .2, "x": b(rng.choice([4, 16, 32])), "y": b(rng.choice([4, 16, 32])),
                "slice": b(rng.choice([2, 4, 32])), "mipid": b(rng.choice([2, 4, 32]))}
    if unit == "multi_texel":
        return {"op": rng.choice(["by2", "by4", "pck2", "pck4"]), "dmask": b(4), "dfmt": b(6), "nfmt": b(4),
                "group_valid": rng.random() < .8, "texels": hex(b(64))}
    if unit == "coalescer":
        nbytes = rng.choice([1, 2, 4, 8, 12, 16])
        base = b(48)
        layout = rng.randrange(3)
        addrs = [(base + k * nbytes) % (1 << 48) if layout == 0 else
                 (base + rng.randrange(256)) % (1 << 48) if layout == 1 else b(48) for k in range(64)]
        return {"addresses": addrs, "active": hex(rng.choice([b(64), (1 << 64) - 1, 0])), "bytes": nbytes,
                "single": rng.random() < .5}
    if unit == "inline_const":
        return {"code": b(7)}
    raise AssertionError(f"{unit}: no random input; add one here (CONTRIBUTING.md \"Adding a unit\")")


def test_fields_match_the_binary_and_docs():
    # docs/usage.md's eval table, first column of inputs.
    assert g.fields("buffer_addr") == ["vsharp", "inst_offset", "offen", "idxen", "access", "bytes", "lds",
                                       "sgpr_offset", "vgpr_index", "vgpr_offset", "tid", "m0", "lds_base", "lds_size"]
    assert g.fields("coalescer") == ["addresses", "active", "bytes", "single"]


def units_txt(root):
    """The units of cosim/units.txt, in order (the first word of each line, comments dropped)."""
    lines = (root / "cosim" / "units.txt").read_text().splitlines()
    return [words[0] for words in (line.split("#")[0].split() for line in lines) if words]


def test_units_are_those_of_units_txt_with_an_eval_object(root):
    listed = units_txt(root)
    assert set(g.units()) <= set(listed)
    assert g.units() == [u for u in listed if u in g.units()], "in cosim/units.txt's order"
    # Every other unit of the list is known and refused with the reason.
    for unit in set(listed) - set(g.units()):
        with pytest.raises(g.Error, match=f"^{unit} has no eval object: "):
            g.eval(unit, {})
    assert "buffer_addr" in g.units() and "vmem_pipe" not in g.units()  # SPEC §13's table, §14.1


def test_units_equal_the_binarys_units_with_an_eval_object(gcn_vmem_lines):
    assert g.units() == gcn_vmem_lines(["units", "--eval"])


@pytest.mark.parametrize("unit", g.units())
def test_random_inputs_equal_gcn_vmem_eval(unit, gcn_vmem):
    rng = random.Random(20 + len(unit))
    n = 50 if unit == "coalescer" else 400
    inputs = [random_input(unit, rng) for _ in range(n)]
    expected = gcn_vmem(["eval", unit], inputs)
    assert len(expected) == n
    got = [g.eval(unit, i) for i in inputs]
    for i, (e, o) in enumerate(zip(expected, got)):
        assert "error" not in e, (inputs[i], e)
        assert list(o.items()) == list(e.items()), (inputs[i], e, o)  # same keys, same order, same values
    # The batch forms give the same answers.
    assert g.eval_batch(unit, inputs) == got
    columns = {f: [i[f] for i in inputs] for f in g.fields(unit)}
    out_columns = g.eval_batch(unit, columns)
    for k, column in out_columns.items():
        assert column == [o.get(k) for o in got], k


@pytest.mark.parametrize("unit,bad", [
    ("buffer_addr", {"tid": 64}), ("buffer_addr", {"bytes": 3}), ("buffer_addr", {"access": "x"}),
    ("swizzle", {"dst_sel": [1, 2, 3]}), ("swizzle", {"components": [0, 0, 0, 1 << 32]}),
    ("format_unpack", {"data": "0x" + "f" * 33}), ("d16", {"op": 3}), ("inline_const", {"code": 128}),
    ("coalescer", {"bytes": 5}), ("coalescer", {"active": "0xg"}), ("image_addr", {"op": "by3"}),
])
def test_error_messages_equal_gcn_vmem_eval(unit, bad, gcn_vmem):
    line = {**random_input(unit, random.Random(1)), **bad}
    (expected,) = gcn_vmem(["eval", unit], [line])
    assert expected["error"].startswith("line 1: ")
    with pytest.raises(g.Error) as e:
        g.eval(unit, line)
    assert str(e.value) == expected["error"][len("line 1: "):]


def test_numpy_like_columns():
    class Array:
        """Anything with tolist(), as a numpy array."""

        def __init__(self, values):
            self.values = values

        def tolist(self):
            return list(self.values)

    out = g.eval_batch("inline_const", {"code": Array([0x38, 0x78])})
    assert out == {"bits": [0x3F800000, 0x43800000]}
    assert g.eval_batch("inline_const", []) == []
    assert g.eval_batch("inline_const", {"code": []}) == {}


def test_numpy_arrays_and_scalars():
    np = pytest.importorskip("numpy")
    # SPEC §9: 0x00 -> 2^-10, 0x38 -> 1.0; numpy columns and numpy scalars read as integers.
    assert g.eval_batch("inline_const", {"code": np.array([0x00, 0x38], dtype=np.uint8)}) == {
        "bits": [0x3A800000, 0x3F800000]}
    assert g.eval("inline_const", {"code": np.uint8(0x38)}) == {"bits": 0x3F800000}
    # Hex strings in a numpy string array; dfmt 10 as uint (SPEC §1.4).
    out = g.eval_batch("format_unpack", {"dfmt": np.full(2, 10), "nfmt": np.full(2, 4),
                                         "data": np.array(["0x44332211", "0x1"])})
    assert out["components"] == [[0x11, 0x22, 0x33, 0x44], [1, 0, 0, 0]]
    with pytest.raises(g.Error, match="field `code`: -1 is not a non-negative integer"):
        g.eval("inline_const", {"code": np.int64(-1)})
    with pytest.raises(g.Error, match="field `code`: expected an integer"):
        g.eval("inline_const", {"code": np.float64(1.0)})


def test_reserved_access_computes_and_is_illegal():
    # SPEC §13: reserved-but-encodable inputs compute and report through the unit's flags (§2.3).
    out = g.eval("buffer_addr", buffer(vsharp=vsharp(base=0x1000, num_records=64), access="reserved"))
    assert out["illegal"] is True and out["address"] == 0x1000
