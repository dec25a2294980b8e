"""The example of docs/integrations/python.md: `target/python/venv/bin/python rust/python/example.py`
after `make python`."""

import gcn_vmem_model as g

# A structured buffer (SPEC §1.1): base 0x1000, 16-byte records, 8 records, dfmt 32, nfmt uint.
vsharp = hex(0x1000 | 16 << 48 | 8 << 64 | 4 << 108 | 4 << 111)
lane = {"vsharp": vsharp, "inst_offset": 4, "offen": False, "idxen": True, "access": "non_format",
        "bytes": 4, "lds": False, "sgpr_offset": 0, "vgpr_index": 3, "vgpr_offset": 0, "tid": 0,
        "m0": 0, "lds_base": 0, "lds_size": 0}
print(g.eval("buffer_addr", lane))

# Many lanes in one call: a dict of columns in, a dict of columns out.
columns = {name: [value] * 4 for name, value in lane.items()}
columns["vgpr_index"] = [0, 7, 8, 9]
out = g.eval_batch("buffer_addr", columns)
print(out["address"], out["in_range"])

print(g.eval("format_unpack", {"dfmt": 10, "nfmt": 0, "data": "0xff8000"}))
print(g.eval("inline_const", {"code": 0x38}))

# The executor (SPEC §13.1): store each lane's v2 at s[4:7]'s base + v1, load it back into v3.
result = g.exec({
    "sgprs": {"s[4:7]": hex(0x1000 | 256 << 64 | 4 << 108 | 4 << 111)},
    "vgprs": {"v1": [4 * k for k in range(64)], "v2": [0x1234 + k for k in range(64)]},
    "exec": "0x3",
    "program": ["buffer_store_dword v2, v1, s[4:7], 0 offen", "buffer_load_dword v3, v1, s[4:7], 0 offen"],
})
print(result["memory"], result["vgprs"]["v3"][:3])

# The cost model (SPEC §13.2) and the codec.
print(g.cost({"op": "buffer_load", "address_dwords": 1, "data_dwords": 0, "single": True}))
words = g.asm("buffer_load_dword v1, v2, s[4:7], s1 offen offset:4 glc")
print([hex(w) for w in words], g.decode(words))

# Bad input: gcn_vmem_model.Error, a ValueError naming the field.
try:
    g.eval("buffer_addr", {**lane, "tid": 64})
except ValueError as e:
    print(type(e).__name__, e)
