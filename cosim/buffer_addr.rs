//! `buffer_addr` in the harness: the cxx binding of the Verilated RTL (rtl/buffer_addr.sv), the
//! random stimulus that drives it, and its `eval` objects (SPEC §13).
//! Model: rust/buffer_addr.rs  RTL: rtl/buffer_addr.sv  Tests: tests/buffer_addr.rs

use serde_json::{json, Map, Value};

use super::stimulus::Rng;
use super::Binding;
use crate::buffer_addr::{BufferAddr, In, Out};
use crate::one_of;
use crate::vsharp::VSharp;

#[cxx::bridge(namespace = "cosim::buffer_addr")]
mod ffi {
    // Shared structs: the RTL ports as plain integers, named like the ports without _i/_o.
    #[derive(Clone, Copy, Debug, Default)]
    struct PortsIn {
        valid: bool,
        vsharp_lo: u64,
        vsharp_hi: u64,
        inst_offset: u16,
        offen: bool,
        idxen: bool,
        access: u8,
        bytes: u8,
        lds: bool,
        sgpr_offset: u32,
        vgpr_index: u32,
        vgpr_offset: u32,
        tid: u8,
        m0: u32,
        lds_base: u16,
        lds_size: u16,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct PortsOut {
        valid: bool,
        address: u64,
        in_range: u8,
        unbound: bool,
        illegal: bool,
        lds_address: u32,
        lds_in_range: bool,
    }

    // C++ exposed to Rust: cosim/buffer_addr.h states each function's contract.
    unsafe extern "C++" {
        include!("gcn-vmem/cosim/buffer_addr.h");

        type Rtl;

        fn new_rtl(variant: u8, wave: u8, path: &str, x_random: bool, x_seed: u64) -> Result<UniquePtr<Rtl>>;
        fn set_reset(self: Pin<&mut Rtl>, asserted: bool, output: &mut PortsOut) -> u32;
        fn step(self: Pin<&mut Rtl>, input: &PortsIn, output: &mut PortsOut) -> u32;
        fn take_assertions(self: Pin<&mut Rtl>) -> Vec<String>;
        fn finish(self: Pin<&mut Rtl>);
        fn write_coverage(self: Pin<&mut Rtl>, path: &str);
        fn plain_loop(inputs: &[PortsIn], rounds: u64) -> u64;
    }
}

impl From<&In> for ffi::PortsIn {
    fn from(i: &In) -> Self {
        ffi::PortsIn {
            valid: i.valid,
            vsharp_lo: i.vsharp as u64,
            vsharp_hi: (i.vsharp >> 64) as u64,
            inst_offset: i.inst_offset,
            offen: i.offen,
            idxen: i.idxen,
            access: i.access,
            bytes: i.bytes,
            lds: i.lds,
            sgpr_offset: i.sgpr_offset,
            vgpr_index: i.vgpr_index,
            vgpr_offset: i.vgpr_offset,
            tid: i.tid,
            m0: i.m0,
            lds_base: i.lds_base,
            lds_size: i.lds_size,
        }
    }
}

impl From<&ffi::PortsOut> for Out {
    fn from(o: &ffi::PortsOut) -> Self {
        Out {
            valid: o.valid,
            address: o.address,
            in_range: o.in_range,
            unbound: o.unbound,
            illegal: o.illegal,
            lds_address: o.lds_address,
            lds_in_range: o.lds_in_range,
        }
    }
}

verilated_rtl!(BufferAddr);

/// The unit's place in the harness.
pub struct Harness;

impl Binding for Harness {
    type Model = BufferAddr;
    type Rtl = Rtl;

    fn generate(rng: &mut Rng) -> In {
        generate(rng)
    }

    fn describe(input: &In) -> String {
        VSharp::decode(input.vsharp).to_string()
    }

    fn eval_output(input: &In, out: &Out) -> Map<String, Value> {
        let dwords = usize::from(input.bytes).div_ceil(4).clamp(1, 4);
        let in_range: Vec<bool> = (0..dwords).map(|i| out.in_range >> i & 1 != 0).collect();
        let mut map = Map::new();
        map.insert("address".into(), json!(out.address));
        map.insert("in_range".into(), json!(in_range));
        map.insert("unbound".into(), json!(out.unbound));
        map.insert("illegal".into(), json!(out.illegal));
        map.insert("lds_address".into(), json!(out.lds_address));
        map.insert("lds_in_range".into(), json!(out.lds_in_range));
        map
    }
}

/// Values that sit on the edges of a 32-bit quantity: 0, 1, small, the top of the range.
fn edge_u32(rng: &mut Rng) -> u32 {
    one_of!(rng;
        3 => rng.next_u32(),
        1 => rng.below(64) as u32,
        1 => u32::MAX - rng.below(64) as u32,
        1 => 1u32 << rng.below(32),
    )
}

/// A V# field set and the instruction fields, chosen so that the interesting relations — the
/// range limit beside the checked quantity, the index beside a multiple of index_stride, the
/// LDS window edge — are hit often rather than by luck.
pub fn generate(rng: &mut Rng) -> In {
    let descriptor = (
        one_of!(rng; 1 => 0u64, 1 => rng.below(4096), 1 => rng.range((1u64 << 48) - 4096..(1u64 << 48)), 2 => rng.below(1u64 << 48)),
        one_of!(rng; 1 => 0u16, 2 => 2u16 << rng.below(8), 2 => rng.below(64) as u16 * 4, 2 => rng.below(1 << 14) as u16),
        rng.bool(),                                          // swizzle_en
        one_of!(rng; 1 => 0u8, 6 => rng.range(1..16) as u8), // dfmt: 0 is unbound
        rng.below(4) as u8,                                  // element_size
        rng.below(4) as u8,                                  // index_stride
        rng.bool(),                                          // add_tid_en
        rng.next_u128(),                                     // ignored bits and dst_sel/nfmt noise
    );
    let instruction = (
        one_of!(rng; 1 => 0u16, 1 => 4095u16, 3 => rng.below(4096) as u16),
        rng.bool(), // offen
        rng.bool(), // idxen
        one_of!(rng; 8 => rng.below(3) as u8, 1 => 3u8),
        one_of!(rng; 12 => rng.pick(&[1u8, 2, 4, 8, 12, 16]), 1 => rng.below(32) as u8),
        one_of!(rng; 3 => false, 1 => true), // lds
    );
    let lanes = (
        edge_u32(rng),
        edge_u32(rng),
        edge_u32(rng),
        rng.below(64) as u8,
        rng.next_u32(),
        rng.below(512) as u16,
        rng.below(512) as u16,
    );
    // How num_records and lds_size are placed relative to the quantities they limit.
    let relations = (
        rng.below(5) as u8,
        rng.range_i64(-6..=6),
        rng.below(3) as u8,
        rng.range_i64(-2..=2) as i32,
        rng.below(3) as u8,
        rng.range_i64(-1..=1) as i32,
    );
    let (base, stride14, swizzle_en, dfmt, element_size, index_stride, add_tid_en, noise) = descriptor;
    let (inst_offset, offen, idxen, access, bytes, lds) = instruction;
    let (sgpr_offset, mut vgpr_index, vgpr_offset, tid, m0, lds_base, mut lds_size) = lanes;
    let (nr_mode, nr_delta, idx_mode, idx_delta, lds_mode, lds_delta) = relations;

    // Index beside a multiple of index_stride (swizzle) or of 2^32 (wrap).
    let s = 8u32 << index_stride;
    match idx_mode {
        0 => vgpr_index = (vgpr_index & !(s - 1)).wrapping_add_signed(idx_delta),
        1 => vgpr_index = (idx_delta as u32).wrapping_sub(u32::from(tid)),
        _ => {}
    }
    let offset = (if offen { vgpr_offset } else { 0 }).wrapping_add(u32::from(inst_offset));
    let index = (if idxen { vgpr_index } else { 0 }).wrapping_add(if add_tid_en { u32::from(tid) } else { 0 });
    let near = |x: i64| (x + nr_delta).clamp(0, i64::from(u32::MAX)) as u32;
    let num_records = match nr_mode {
        0 => near(i64::from(offset)),
        1 => near(i64::from(offset) + i64::from(bytes)),
        2 => near(i64::from(vgpr_index)),
        3 => near(i64::from(index)),
        _ => noise as u32,
    };
    if lds_mode == 0 {
        // Put the end of the LDS window right at lds_address + 4.
        let addr = u32::from(lds_base) * 128 + (m0 & 0xffff) + u32::from(inst_offset) + u32::from(tid) * 4;
        let end_blocks = (addr + 4).div_ceil(128) as i32 + lds_delta;
        lds_size = (end_blocks - i32::from(lds_base)).clamp(0, 511) as u16;
    }

    // dst_sel, nfmt and the ignored high bits come from the noise.
    let mut v = noise & !((1u128 << 120) - 1) | (noise & (0x7fff << 96));
    v |= u128::from(base);
    v |= u128::from(stride14) << 48;
    v |= (noise >> 62 & 1) << 62; // cache_swizzle
    v |= u128::from(swizzle_en) << 63;
    v |= u128::from(num_records) << 64;
    v |= u128::from(dfmt) << 111;
    v |= u128::from(element_size) << 115;
    v |= u128::from(index_stride) << 117;
    v |= u128::from(add_tid_en) << 119;
    In {
        valid: true,
        vsharp: v,
        inst_offset,
        offen,
        idxen,
        access,
        bytes,
        lds,
        sgpr_offset,
        vgpr_index,
        vgpr_offset,
        tid,
        m0,
        lds_base,
        lds_size,
    }
}
