//! The units' `eval` objects (SPEC §13, docs/usage.md "eval objects"): a dict of input fields in,
//! the dict `gcn-vmem eval UNIT` prints out, computed by the model crate's combinational
//! function of the unit (`<unit>::compute`; the coalescer's `coalesce`), which is what the
//! clocked model registers for a valid input.
//!
//! The input fields of a unit with a `ports!` bundle are its input ports after `valid`, read
//! through the model's own port table; the output dicts follow `gcn-vmem eval`'s (the harness's
//! cosim/bindings/<unit>.rs `eval_output`), checked against the binary by
//! rust/python/tests/test_eval.py.

use gcn_vmem_model::unit::{Kind, Ports, Signal};
use gcn_vmem_model::{
    buffer_addr, coalescer, d16, format, format_pack, format_unpack, image_addr, inline_const, multi_texel, swizzle,
};

use crate::values::{items, parse_value, Val};
use pyo3::prelude::*;

/// One output dict: its keys in SPEC §13's order.
pub type Output = Vec<(&'static str, Val)>;

/// One unit's eval: its input field names, the parse of their values (in that order, all
/// present) and the output of a parsed input.
pub trait Evaluator {
    type In;
    fn fields() -> Vec<&'static str>;
    fn parse(values: &[Bound<'_, PyAny>]) -> Result<Self::In, String>;
    fn output(input: &Self::In) -> Output;
}

/// The units with an eval object, in cosim/units.txt's order (vmem_pipe has none: it runs
/// programs, `gcn-vmem exec --pipeline`).
pub const UNITS: &[&str] = &[
    "buffer_addr",
    "swizzle",
    "format_unpack",
    "format_pack",
    "d16",
    "image_addr",
    "multi_texel",
    "coalescer",
    "inline_const",
];

/// The fields of a `ports!` bundle after `valid`.
fn port_fields<P: Ports>() -> Vec<&'static str> {
    P::SIGNALS.iter().skip(1).map(|s| s.name).collect()
}

/// A `ports!` bundle from its fields' values (in port order after `valid`), `valid` set.
fn parse_ports<P: Ports>(values: &[Bound<'_, PyAny>]) -> Result<P, String> {
    let mut ports = P::default();
    ports.set(0, 1);
    for (i, (signal, v)) in P::SIGNALS.iter().skip(1).zip(values).enumerate() {
        let bits = parse_value(signal, v).map_err(|e| format!("field `{}`: {e}", signal.name))?;
        ports.set(i + 1, bits);
    }
    Ok(ports)
}

fn words(v: u128) -> [u32; 4] {
    [v as u32, (v >> 32) as u32, (v >> 64) as u32, (v >> 96) as u32]
}

/// The 32-bit words of a list port, as integers.
fn word_list(v: u128, n: usize) -> Vec<u64> {
    words(v)[..n.min(4)].iter().map(|&w| u64::from(w)).collect()
}

macro_rules! ports_unit {
    ($eval:ident, $unit:ident, |$input:ident, $out:ident| $body:expr) => {
        pub struct $eval;
        impl Evaluator for $eval {
            type In = $unit::In;
            fn fields() -> Vec<&'static str> {
                port_fields::<$unit::In>()
            }
            fn parse(values: &[Bound<'_, PyAny>]) -> Result<$unit::In, String> {
                parse_ports(values)
            }
            fn output($input: &$unit::In) -> Output {
                let $out = $unit::compute($input);
                $body
            }
        }
    };
}

ports_unit!(BufferAddr, buffer_addr, |input, out| {
    let dwords = usize::from(input.bytes).div_ceil(4).clamp(1, 4);
    vec![
        ("address", Val::Int(out.address)),
        ("in_range", Val::Bools((0..dwords).map(|i| out.in_range >> i & 1 != 0).collect())),
        ("unbound", Val::Bool(out.unbound)),
        ("illegal", Val::Bool(out.illegal)),
        ("lds_address", Val::Int(u64::from(out.lds_address))),
        ("lds_in_range", Val::Bool(out.lds_in_range)),
    ]
});

ports_unit!(Swizzle, swizzle, |_input, out| {
    let n = usize::from(out.result_count);
    let result = (0..n).map(|i| if i < 4 { u64::from(words(out.result)[i]) } else { 0 }).collect();
    vec![("result", Val::Ints(result)), ("result_count", Val::Int(u64::from(out.result_count)))]
});

ports_unit!(FormatUnpack, format_unpack, |_input, out| {
    vec![
        ("components", Val::Ints(word_list(out.components, 4))),
        ("count", Val::Int(u64::from(out.count))),
        ("valid", Val::Bool(out.fmt_valid)),
    ]
});

ports_unit!(FormatPack, format_pack, |input, out| {
    // The element's bytes (SPEC §1.4); no element for dfmt 0 and 15: one zero byte.
    let bytes = format::element_bytes(input.dfmt).max(1) as usize;
    vec![("data", Val::Str(format!("0x{:0w$x}", out.data, w = 2 * bytes))), ("valid", Val::Bool(out.fmt_valid))]
});

ports_unit!(D16, d16, |_input, out| {
    let n = usize::from(out.result_count).min(4);
    vec![
        ("result", Val::Strs(words(out.result)[..n].iter().map(|w| format!("0x{w:08x}")).collect())),
        ("result_count", Val::Int(u64::from(out.result_count))),
        ("illegal", Val::Bool(out.illegal)),
    ]
});

ports_unit!(ImageAddr, image_addr, |input, out| {
    let mut o = vec![
        ("level_ok", Val::Bool(out.level_ok)),
        ("level", Val::Int(u64::from(out.level))),
        ("width", Val::Int(u64::from(out.width))),
        ("height", Val::Int(u64::from(out.height))),
        ("pitch", Val::Int(u64::from(out.pitch))),
        ("xa", Val::Int(u64::from(out.xa))),
        ("group_valid", Val::Bool(out.group_valid)),
        ("address", Val::Int(out.address)),
        ("illegal", Val::Bool(out.illegal)),
    ];
    if out.illegal {
        // The executor's rejection of the lane's instruction (SPEC §4.3's table).
        if let Err(message) = image_addr::check_multi_texel(&input.access()) {
            o.push(("rejected", Val::Str(message)));
        }
    }
    o
});

ports_unit!(MultiTexel, multi_texel, |_input, out| {
    vec![
        ("result", Val::Ints(word_list(out.result, usize::from(out.result_count)))),
        ("result_count", Val::Int(u64::from(out.result_count))),
        ("illegal", Val::Bool(out.illegal)),
    ]
});

ports_unit!(InlineConst, inline_const, |_input, out| vec![("bits", Val::Int(u64::from(out.bits)))]);

/// The coalescer's wave (SPEC §13): 64 lane addresses, the active mask, the access size, single.
pub struct Coalescer;

const COALESCER_BYTES: &[u32] = &[1, 2, 4, 8, 12, 16];

impl Evaluator for Coalescer {
    type In = coalescer::Wave;
    fn fields() -> Vec<&'static str> {
        vec!["addresses", "active", "bytes", "single"]
    }
    fn parse(values: &[Bound<'_, PyAny>]) -> Result<coalescer::Wave, String> {
        let lanes = coalescer::LANES;
        let addresses = &values[0];
        let list = items(addresses)
            .filter(|l| l.len() == lanes)
            .ok_or_else(|| format!("field `addresses`: expected a list of {lanes} addresses"))?;
        let address = Signal { name: "addresses", width: 48, kind: Kind::Int };
        let mut addr = [0u64; coalescer::LANES];
        for (lane, item) in list.iter().enumerate() {
            addr[lane] =
                parse_value(&address, item).map_err(|e| format!("field `addresses`: element {lane}: {e}"))? as u64;
        }
        let field = |i: usize, name: &'static str, width: u32, kind: Kind| {
            parse_value(&Signal { name, width, kind }, &values[i]).map_err(|e| format!("field `{name}`: {e}"))
        };
        let active = field(1, "active", 64, Kind::Hex)? as u64;
        let bytes = field(2, "bytes", 5, Kind::OneOf(COALESCER_BYTES))? as u8;
        let single = field(3, "single", 1, Kind::Bool)? != 0;
        Ok(coalescer::Wave { addr, active, bytes, single })
    }
    fn output(wave: &coalescer::Wave) -> Output {
        let c = coalescer::coalesce(wave);
        let requests = c
            .requests
            .iter()
            .filter(|r| r.lanes != 0)
            .map(|r| (r.block << 4, u64::from(r.bytes), format!("0x{:016x}", r.lanes)))
            .collect();
        vec![("requests", Val::Requests(requests)), ("cycles", Val::Int(u64::from(c.cycles)))]
    }
}
