"""Per-unit stimulus of the cocotb bench: SPEC §13 input objects (random, with corners placed on
purpose), their RTL port values, and the RTL output ports of the model's eval dict."""

ACCESS = ["format", "non_format", "atomic", "reserved"]
BYTES = [1, 2, 4, 8, 12, 16]


def edge32(rng):
    return rng.choice([rng.getrandbits(32), rng.randrange(64), 0xFFFFFFFF - rng.randrange(64), 1 << rng.randrange(32),
                       0, 0xFFFFFFFF])


def pack(values, width):
    return sum((v & ((1 << width) - 1)) << (width * i) for i, v in enumerate(values))


class BufferAddr:
    OUTPUTS = ["valid_o", "address_o", "in_range_o", "unbound_o", "illegal_o", "lds_address_o", "lds_in_range_o"]

    @staticmethod
    def generate(rng, n):
        b = rng.getrandbits
        swizzle = rng.random() < 0.4
        element_size, index_stride = b(2), b(2)
        stride = rng.choice([0, 2 << b(3), 4 * b(6), b(14), (2 << element_size) * b(6)])
        dfmt = rng.choice([0] + list(range(1, 16)) * 2)
        add_tid = rng.random() < 0.3
        inst_offset = rng.choice([0, 4095, b(12)])
        offen, idxen = rng.random() < 0.5, rng.random() < 0.5
        nbytes = rng.choice(BYTES)
        vgpr_index, vgpr_offset, tid = edge32(rng), edge32(rng), b(6)
        offset = ((vgpr_offset if offen else 0) + inst_offset) & 0xFFFFFFFF
        index = ((vgpr_index if idxen else 0) + (tid if add_tid else 0)) & 0xFFFFFFFF
        # num_records beside the quantity it limits (SPEC §2.4), or anywhere.
        near = lambda x: min(max(x + rng.randrange(-6, 7), 0), 0xFFFFFFFF)  # noqa: E731
        num_records = rng.choice([near(offset), near(offset + nbytes), near(vgpr_index), near(index), b(32), 0])
        base = rng.choice([0, b(12), (1 << 48) - 1 - b(12), b(48)])
        v = base | stride << 48 | int(swizzle) << 63 | num_records << 64 | b(3) << 108 | dfmt << 111
        v |= element_size << 115 | index_stride << 117 | int(add_tid) << 119 | b(8) << 120 | b(1) << 62
        lds_base, m0 = b(9), b(32)
        lds_end = (lds_base * 128 + (m0 & 0xFFFF) + inst_offset + tid * 4 + 4 + 127) // 128
        lds_size = rng.choice([b(9), min(max(lds_end - lds_base + rng.randrange(-1, 2), 0), 511)])
        return {"vsharp": hex(v), "inst_offset": inst_offset, "offen": offen, "idxen": idxen,
                "access": rng.choice(ACCESS if rng.random() < 0.1 else ACCESS[:3]), "bytes": nbytes,
                "lds": rng.random() < 0.25, "sgpr_offset": edge32(rng), "vgpr_index": vgpr_index,
                "vgpr_offset": vgpr_offset, "tid": tid, "m0": m0, "lds_base": lds_base, "lds_size": lds_size}

    @staticmethod
    def in_ports(i):
        return {"vsharp_i": int(i["vsharp"], 16), "inst_offset_i": i["inst_offset"], "offen_i": int(i["offen"]),
                "idxen_i": int(i["idxen"]), "access_i": ACCESS.index(i["access"]), "bytes_i": i["bytes"],
                "lds_i": int(i["lds"]), "sgpr_offset_i": i["sgpr_offset"], "vgpr_index_i": i["vgpr_index"],
                "vgpr_offset_i": i["vgpr_offset"], "tid_i": i["tid"], "m0_i": i["m0"], "lds_base_i": i["lds_base"],
                "lds_size_i": i["lds_size"]}

    @staticmethod
    def out_ports(_i, e):
        # in_range: one bit per dword of the access, the rest 0 (rtl/buffer_addr.sv's contract).
        return {"address_o": e["address"], "in_range_o": pack([int(x) for x in e["in_range"]], 1),
                "unbound_o": int(e["unbound"]), "illegal_o": int(e["illegal"]), "lds_address_o": e["lds_address"],
                "lds_in_range_o": int(e["lds_in_range"])}


F32_CORNERS = [0, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x00000001,
               0x007FFFFF, 0xFFFFFFFF, 0x7F7FFFFF]


class Swizzle:
    OUTPUTS = ["valid_o", "result_o", "result_count_o"]

    @staticmethod
    def generate(rng, n):
        b = rng.getrandbits
        return {"components": [rng.choice([b(32), rng.choice(F32_CORNERS)]) for _ in range(4)],
                "count": rng.choice([1, 2, 3, 4, 0, 5, 6, 7, 1, 2, 3, 4]),
                "dst_sel": [b(3) for _ in range(4)] if rng.random() < 0.7 else [4, 5, 6, 7],
                "integer": rng.random() < 0.5, "dmask": rng.choice([0, 15, b(4), b(4)]),
                "oor": rng.choice([0, 0, 15, b(4)]), "unbound": rng.random() < 0.1, "tfe": rng.random() < 0.5}

    @staticmethod
    def in_ports(i):
        return {"components_i": pack(i["components"], 32), "count_i": i["count"], "dst_sel_i": pack(i["dst_sel"], 3),
                "integer_i": int(i["integer"]), "dmask_i": i["dmask"], "oor_i": i["oor"],
                "unbound_i": int(i["unbound"]), "tfe_i": int(i["tfe"])}

    @staticmethod
    def out_ports(_i, e):
        # result_o holds the first four dwords (a fifth, TFE's status, is always 0: SPEC §3 step 5).
        return {"result_o": pack(e["result"][:4], 32), "result_count_o": e["result_count"]}


UNITS = {"buffer_addr": BufferAddr, "swizzle": Swizzle}
