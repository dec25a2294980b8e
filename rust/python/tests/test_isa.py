"""gcn_vmem_model.decode and asm against LLVM (tests/data/llvm-gfx9-vmem.canonical.tsv: llvm-mc's
canonical text of each encoding of LLVM's own GFX9 MC tests)."""

import pytest

import gcn_vmem_model as g


def llvm_rows(root):
    rows = []
    for line in (root / "tests" / "data" / "llvm-gfx9-vmem.canonical.tsv").read_text().splitlines():
        if line.startswith("#") or line.startswith("encoding\t"):
            continue
        encoding, canonical, peer = line.split("\t")
        if peer == "llvm-mc-14":
            data = bytes.fromhex(encoding)
            words = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
            rows.append((words, canonical))
    return rows


def test_decode_and_asm_equal_llvm(root):
    rows = llvm_rows(root)
    assert len(rows) > 3000
    for words, canonical in rows:
        assert g.decode(words) == canonical, words
        assert g.asm(canonical) == words, canonical
    words, canonical = rows[0]
    assert g.decode(" ".join(f"0x{w:08x}" for w in words)) == canonical


@pytest.mark.parametrize("words,message", [
    ([0xFFFFFFFF], None), ("0xe0000fff 0xzz", "`0xzz` is not a 32-bit hexadecimal dword"),
    ([1 << 32], "dword 0"), ([0xE0000FFF, 0x03020500, 0], "decode one instruction at a time"),
])
def test_decode_errors(words, message):
    with pytest.raises(g.Error, match=message):
        g.decode(words)


def test_asm_errors():
    with pytest.raises(g.Error):
        g.asm("buffer_load_dword v1, v2, s[4:7], s1 offen offset:4096")
    with pytest.raises(g.Error):
        g.asm("not_an_instruction")
