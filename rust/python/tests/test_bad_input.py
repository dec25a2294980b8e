"""Nothing panics on bad input: junk of every type in every field of every unit, of exec documents
and of cost objects raises gcn_vmem_model.Error (a ValueError), never PyO3's PanicException (a
BaseException) nor another exception."""

import random

import gcn_vmem_model as g
from test_eval import random_input

JUNK = [None, True, -1, 1 << 200, 1.5, "", "0x", "0xg", "0x" + "f" * 40, "é", "a\u00e9b", b"\x00", [], [1] * 65,
        [None] * 4, {}, {"a": 1}, (1, 2), object(), float("nan"), "non_format", [[1]] * 64]


def raises_error(f, *args):
    try:
        f(*args)
    except g.Error:
        return True
    except BaseException as e:  # noqa: BLE001  (a PanicException is a BaseException)
        raise AssertionError(f"{type(e).__name__}: {e} for {args!r}") from e
    return False


def test_eval_junk_fields():
    rng = random.Random(7)
    for unit in g.units():
        base = random_input(unit, rng)
        for field in g.fields(unit):
            for junk in JUNK:
                raises_error(g.eval, unit, {**base, field: junk})
                raises_error(g.eval_batch, unit, [{**base, field: junk}])
                raises_error(g.eval_batch, unit, {f: [junk if f == field else v] for f, v in base.items()})
        raises_error(g.eval, unit, {**base, 1: 2})
        raises_error(g.eval_batch, unit, {f: [v, v] if f != g.fields(unit)[-1] else [v] for f, v in base.items()})
    for junk in JUNK:
        raises_error(g.eval, "buffer_addr", junk)
        raises_error(g.eval_batch, "buffer_addr", junk)


def test_exec_cost_codec_junk():
    for junk in JUNK:
        for key in ["sgprs", "vgprs", "exec", "m0", "lds", "memory", "program"]:
            raises_error(g.exec, {"program": [], key: junk})
            raises_error(g.exec, {"program": [junk]})
            raises_error(g.exec, {"program": [{"encoding": junk}]})
            raises_error(g.exec, {"program": [], "lds": {"bytes": [{"address": 0, "data": junk}]}})
            raises_error(g.exec, {"program": [], "sgprs": {"s[4:7]": junk}, "vgprs": {"v1": junk}})
        for key in ["op", "tsharp_bits", "sampler", "address_dwords", "data_dwords", "filter", "aniso", "format",
                    "single"]:
            raises_error(g.cost, {"op": "image_sample", "tsharp_bits": 128, "sampler": True, "address_dwords": 1,
                                  "data_dwords": 0, "filter": "bilinear", key: junk})
        raises_error(g.decode, junk)
        raises_error(g.asm, junk if isinstance(junk, str) else "x")
    for text in ["{", "[]", "null", '{"program": "x"}', "\u00e9"]:
        raises_error(g.exec, text)
        raises_error(g.cost, text)
