//! `swizzle`: component selection of format loads — expansion, dst_sel, out-of-range and unbound
//! zeroing, DMASK compaction and the TFE status dword.
//!
//! Spec: docs/spec.md §3 (codes §1.1)  RTL: rtl/swizzle.sv  Tests: tests/swizzle.rs
//!
//! From the canonical components of one element (the `format_unpack` unit's output, §5) it builds
//! the dwords a lane writes to its VGPRs.
//!
//! Decisions where the spec is silent (docs/decisions.md):
//! - Component k (X, Y, Z, W) reads as 0 when k >= `count`; a count above 4 means all four.
//! - dst_sel codes 2 and 3 read as SEL_0 (§1.1) and raise no flag (the unit has no `illegal`).
//! - `oor` bit k marks component k, not channel k: a channel selecting component k reads 0 when
//!   bit k is set; SEL_0 and SEL_1 channels ignore `oor`. `unbound` zeroes every channel.
//! - `result` carries dwords 0..3 only: the fifth dword §3 allows can only be the TFE status
//!   dword, which is always 0. `result_count` = popcount(dmask') + tfe still counts it (up to 5).
//!   Dwords at and above popcount(dmask') are 0.
//! - Inputs are masked to their port widths (`count` 3 bits, `dst_sel` 12, `dmask` and `oor` 4).
//!
//! Timing: `LATENCY = 2`. Stage 1 registers the computed outputs with the input's valid; the
//! output stage registers stage 1. `valid` shifts every edge; the data registers of a stage load
//! only when the valid entering it is 1 and hold otherwise, so the data outputs show the most
//! recent valid result to reach the output stage (0 after reset). Reset clears every register.

use crate::ports;
use crate::unit::{eval_object, pick, pipelined_unit, Kind};
use crate::vsharp::{SEL_1, SEL_X};

ports! {
    /// Inputs of `swizzle`, in RTL port order.
    pub struct In {
        /// The element is present this cycle.
        valid: bool;
        /// Canonical components X, Y, Z, W (component k at bits 32k+31:32k), as `format_unpack`
        /// outputs them.
        components: u128, Kind::List { width: 32, len: 4 };
        /// Components the format has (0..4; 5..7 read as 4).
        count: u8 = 3;
        /// dst_sel of channels R, G, B, A (channel c at bits 3c+2:3c), codes as SPEC §1.1.
        dst_sel: u16 = 12, Kind::List { width: 3, len: 4 };
        /// 1 for uint/sint nfmts (SEL_1 = 0x00000001), 0 for float-like ones (SEL_1 = 1.0f).
        integer: bool;
        /// Enabled channels, bit c for channel c; 0 behaves as 0b0001.
        dmask: u8 = 4;
        /// Out-of-range components, bit k for component k (X, Y, Z, W).
        oor: u8 = 4;
        /// The resource is unbound (SPEC §1.1): every channel reads 0, SEL_1 included.
        unbound: bool;
        /// Append the (always 0) TFE status dword after the data dwords.
        tfe: bool;
    }
}
ports! {
    /// Outputs of `swizzle`, in RTL port order.
    pub struct Out {
        /// `valid` of the input that produced the outputs.
        valid: bool;
        /// Result dwords 0..3 (dword i at bits 32i+31:32i); dwords at and above the data count
        /// are 0.
        result: u128, Kind::List { width: 32, len: 4 };
        /// Result dwords written: popcount(dmask, 0 read as 0b0001) + tfe, 1..5.
        result_count: u8 = 3;
    }
}

/// SEL_1 for float-like nfmts: 1.0f.
pub const ONE_FLOAT: u32 = 0x3F80_0000;
/// SEL_1 for integer nfmts (uint, sint).
pub const ONE_INTEGER: u32 = 0x0000_0001;
/// The TFE status dword: no partially-resident-texture model, so always 0 (SPEC §3 step 5).
pub const TFE_STATUS: u32 = 0;
/// The DMASK that a DMASK of 0 behaves as (SPEC §3 step 4).
pub const DMASK_ZERO_AS: u8 = 0b0001;

/// Dword `i` (0..3) of a 128-bit port.
#[inline]
fn dword(bits: u128, i: usize) -> u32 {
    // Truncation to the dword is the point.
    (bits >> (32 * i)) as u32
}

/// dst_sel field of channel `c` (0..3): bits 3c+2:3c.
#[inline]
fn dst_sel_of(dst_sel: u16, c: usize) -> u8 {
    ((dst_sel >> (3 * c)) & 0x7) as u8
}

/// The combinational function of SPEC §3 for one lane; `valid` is passed through.
#[inline]
pub fn compute(input: &In) -> Out {
    // Inputs narrower than their Rust type are masked to the port width first.
    let count = usize::from(input.count & 0x7);
    let dst_sel = input.dst_sel & 0xfff;
    let dmask = input.dmask & 0xf;
    let oor = input.oor & 0xf;

    // Step 1, expansion: components absent from the format read as 0 (k >= count; a count above 4
    // has all four).
    let expanded: [u32; 4] = std::array::from_fn(|k| if k < count { dword(input.components, k) } else { 0 });

    // Steps 2 and 3, what each dst_sel code selects: SEL_0 → 0, SEL_1 → 1 in the nfmt's class,
    // reserved codes 2 and 3 → 0 (§1.1), X/Y/Z/W → the expanded component, or 0 when that
    // component is out of range (SEL_1 keeps its 1). Unbound: every code selects 0, SEL_1
    // included.
    let one = if input.integer { ONE_INTEGER } else { ONE_FLOAT };
    let mut selects = [0u32; 8];
    if !input.unbound {
        selects[usize::from(SEL_1)] = one;
        for (k, &value) in expanded.iter().enumerate() {
            let component_oor = (oor >> k) & 1 != 0;
            selects[usize::from(SEL_X) + k] = if component_oor { 0 } else { value };
        }
    }
    let channels: [u32; 4] = std::array::from_fn(|c| selects[usize::from(dst_sel_of(dst_sel, c))]);

    // Step 4, DMASK compaction: the enabled channels, in R, G, B, A order, go to consecutive
    // result dwords; DMASK = 0 behaves as 0001.
    let dmask = if dmask == 0 { DMASK_ZERO_AS } else { dmask };
    let mut result = 0u128;
    let mut data_dwords = 0usize;
    for (c, &value) in channels.iter().enumerate() {
        let enabled = (dmask >> c) & 1 != 0;
        result |= u128::from(pick(enabled, value, 0)) << (32 * data_dwords);
        data_dwords += usize::from(enabled);
    }

    // Step 5, TFE: one status dword after the data dwords. It is always 0, so writing it changes
    // nothing in `result` (and at dword 4 it lies beyond the port); it only adds to the count.
    let status_dwords = usize::from(input.tfe);
    if input.tfe && data_dwords < 4 {
        result |= u128::from(TFE_STATUS) << (32 * data_dwords);
    }
    // At most 4 + 1 = 5: fits the 3-bit port.
    let result_count = (data_dwords + status_dwords) as u8;

    Out { valid: input.valid, result, result_count }
}

pipelined_unit! {
    /// The cycle-accurate model: two register stages, compute before stage 1.
    pub struct Swizzle { NAME: "swizzle", LATENCY: 2 }
}

// Functional coverage bins: rust/swizzle/cover.rs.
pub mod cover;

// The unit's `eval` object (SPEC §13): its input ports in, this object out.
eval_object!(Swizzle, |_input, out| {
    // `result_count` dwords: the reserved counts above 4 read zeros past the fourth.
    let words = crate::unit::words(out.result);
    let result: Vec<u32> = (0..usize::from(out.result_count)).map(|i| words.get(i).copied().unwrap_or(0)).collect();
    eval::object([("result", Value::from(result)), ("result_count", Value::from(out.result_count))])
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unit::{testing, Unit};
    use crate::vsharp::{SEL_0, SEL_W, SEL_Y, SEL_Z};
    use proptest::prelude::*;

    /// dst_sel codes of R, G, B, A packed at 3-bit steps.
    fn sel(r: u8, g: u8, b: u8, a: u8) -> u16 {
        u16::from(r) | u16::from(g) << 3 | u16::from(b) << 6 | u16::from(a) << 9
    }

    /// Identity dst_sel XYZW.
    const XYZW: [u8; 4] = [SEL_X, SEL_Y, SEL_Z, SEL_W];

    /// Recognisable components 0x11111111 … 0x44444444.
    const C: u128 = 0x4444_4444_3333_3333_2222_2222_1111_1111;

    /// A valid float-like 4-component element, identity dst_sel, all four channels enabled.
    fn input() -> In {
        In {
            valid: true,
            components: C,
            count: 4,
            dst_sel: sel(XYZW[0], XYZW[1], XYZW[2], XYZW[3]),
            dmask: 0b1111,
            ..In::default()
        }
    }

    fn run(i: In) -> (u128, u8) {
        let o = compute(&i);
        (o.result, o.result_count)
    }

    #[test]
    fn port_tables_match_the_rtl() {
        assert_eq!(
            testing::port_widths::<In>(),
            [
                ("valid", 1),
                ("components", 128),
                ("count", 3),
                ("dst_sel", 12),
                ("integer", 1),
                ("dmask", 4),
                ("oor", 4),
                ("unbound", 1),
                ("tfe", 1),
            ]
        );
        assert_eq!(testing::port_widths::<Out>(), [("valid", 1), ("result", 128), ("result_count", 3)]);
    }

    /// Identity: count 4, XYZW, DMASK 1111 → the components unchanged, 4 dwords.
    #[test]
    fn identity() {
        let o = compute(&input());
        assert_eq!((o.valid, o.result, o.result_count), (true, C, 4));
    }

    /// DMASK = 1001 on a 3-component format (count 3, e.g. 32_32_32), identity dst_sel:
    /// R = X = 0x11111111, A = W, but W is absent → 0 (step 1; the 0x44444444 in the W slot is
    /// ignored). Compaction puts R in dword 0 and A in dword 1: 0x00000000_11111111, count 2.
    /// With dst_sel XYZ1 (a common RGB view) A = SEL_1 = 1.0 → dword 1 = 0x3F800000.
    #[test]
    fn dmask_1001_on_three_components() {
        let i = In { count: 3, dmask: 0b1001, ..input() };
        assert_eq!(run(i), (0x1111_1111, 2));
        let xyz1 = In { dst_sel: sel(SEL_X, SEL_Y, SEL_Z, SEL_1), ..i };
        assert_eq!(run(xyz1), (0x3F80_0000_1111_1111, 2));
        // DMASK 0110 takes G, B: Y then Z.
        assert_eq!(run(In { dmask: 0b0110, ..i }), (0x3333_3333_2222_2222, 2));
    }

    /// DMASK = 0 behaves as 0001: only R = X, one dword, exactly as DMASK 0001.
    #[test]
    fn dmask_zero_is_0001() {
        let zero = run(In { dmask: 0, ..input() });
        assert_eq!(zero, (0x1111_1111, 1));
        assert_eq!(zero, run(In { dmask: 0b0001, ..input() }));
        // R = SEL_1 integer: the single dword is 1.
        assert_eq!(run(In { dmask: 0, dst_sel: sel(SEL_1, 0, 0, 0), integer: true, ..input() }), (1, 1));
    }

    /// SEL_1 is 1.0f (0x3F800000) for float-like nfmts and 0x00000001 for integer ones; SEL_0 is
    /// 0. dst_sel 1 0 1 1 → 1, 0, 1, 1 whatever the components.
    #[test]
    fn sel_1_float_and_integer() {
        let i = In { dst_sel: sel(SEL_1, SEL_0, SEL_1, SEL_1), ..input() };
        assert_eq!(run(i), (0x3F80_0000_3F80_0000_0000_0000_3F80_0000, 4));
        assert_eq!(run(In { integer: true, ..i }), (0x0000_0001_0000_0001_0000_0000_0000_0001, 4));
        // SEL_1 is a constant, not a component: count 0 (no components) still gives it.
        assert_eq!(run(In { count: 0, ..i }).0, 0x3F80_0000_3F80_0000_0000_0000_3F80_0000);
    }

    /// Reserved codes 2 and 3 read as SEL_0: dst_sel 2, 3, X, Y → 0, 0, X, Y (components nonzero).
    #[test]
    fn reserved_codes_read_0() {
        let i = In { dst_sel: sel(2, 3, SEL_X, SEL_Y), ..input() };
        assert_eq!(run(i), (0x2222_2222_1111_1111_0000_0000_0000_0000, 4));
        // Not even in the integer class, where SEL_1 (code 1) would give 1.
        assert_eq!(run(In { integer: true, ..i }).0, 0x2222_2222_1111_1111_0000_0000_0000_0000);
    }

    /// Swizzles and replication: dst_sel W Z Y X (reversed) and X X X X.
    #[test]
    fn swizzled_selection() {
        let wzyx = In { dst_sel: sel(SEL_W, SEL_Z, SEL_Y, SEL_X), ..input() };
        assert_eq!(run(wzyx).0, 0x1111_1111_2222_2222_3333_3333_4444_4444);
        let xxxx = In { dst_sel: sel(SEL_X, SEL_X, SEL_X, SEL_X), ..input() };
        assert_eq!(run(xxxx).0, 0x1111_1111_1111_1111_1111_1111_1111_1111);
    }

    /// `oor` marks components, SEL_1 keeps its 1.
    /// - oor 0010 (Y out), dst_sel Y X 1 Y → 0, X, 1.0, 0.
    /// - all or nothing (oor 1111) on XYZ1: 0, 0, 0, 1.0 — an out-of-range format load still
    ///   returns SEL_1's 1 (SPEC §2.4).
    /// - oor 1000 (W out) with dst_sel X X X X: no channel reads W → all X.
    /// - oor 0001 (X out) with W Z Y X: channel A reads X → 0, the rest W, Z, Y.
    #[test]
    fn out_of_range_components_and_sel_1() {
        let i = In { oor: 0b0010, dst_sel: sel(SEL_Y, SEL_X, SEL_1, SEL_Y), ..input() };
        assert_eq!(run(i), (0x0000_0000_3F80_0000_1111_1111_0000_0000, 4));
        let all = In { oor: 0b1111, dst_sel: sel(SEL_X, SEL_Y, SEL_Z, SEL_1), ..input() };
        assert_eq!(run(all), (0x3F80_0000_0000_0000_0000_0000_0000_0000, 4));
        assert_eq!(run(In { integer: true, ..all }).0, 0x0000_0001_0000_0000_0000_0000_0000_0000);
        let w_out = In { oor: 0b1000, dst_sel: sel(SEL_X, SEL_X, SEL_X, SEL_X), ..input() };
        assert_eq!(run(w_out).0, 0x1111_1111_1111_1111_1111_1111_1111_1111);
        let x_out = In { oor: 0b0001, dst_sel: sel(SEL_W, SEL_Z, SEL_Y, SEL_X), ..input() };
        assert_eq!(run(x_out).0, 0x0000_0000_2222_2222_3333_3333_4444_4444);
    }

    /// Unbound zeroes every channel, SEL_1 included (float and integer), but the dwords are still
    /// written: XYZ1, DMASK 1111 → four 0 dwords, count 4; with TFE, count 5.
    #[test]
    fn unbound_zeroes_sel_1() {
        let i = In { unbound: true, dst_sel: sel(SEL_X, SEL_Y, SEL_Z, SEL_1), ..input() };
        assert_eq!(run(i), (0, 4));
        assert_eq!(run(In { integer: true, ..i }), (0, 4));
        assert_eq!(run(In { tfe: true, ..i }), (0, 5));
        assert_eq!(run(In { dst_sel: sel(SEL_1, SEL_1, SEL_1, SEL_1), dmask: 0b0011, ..i }), (0, 2));
    }

    /// TFE appends one status dword (0) after the data dwords.
    /// - DMASK 0101: R = X, B = Z in dwords 0, 1; status in dword 2 (0); count 3.
    /// - DMASK 1111: dwords 0..3 data, status is dword 4 (off the port, 0); count 5.
    /// - DMASK 0 (as 0001): X in dword 0, status dword 1; count 2.
    /// - Out of range with TFE: the data dwords are written normally (0), status 0, count 2.
    #[test]
    fn tfe_status_position_and_count() {
        assert_eq!(run(In { dmask: 0b0101, tfe: true, ..input() }), (0x3333_3333_1111_1111, 3));
        assert_eq!(run(In { tfe: true, ..input() }), (C, 5));
        assert_eq!(run(In { dmask: 0, tfe: true, ..input() }), (0x1111_1111, 2));
        assert_eq!(run(In { dmask: 0b0001, oor: 0b1111, tfe: true, ..input() }), (0, 2));
    }

    /// Expansion by count: count 1 (e.g. 32) with XYZW → X, 0, 0, 0; count 0 → all 0; count 5, 6,
    /// 7 mean all four present, the same as 4.
    #[test]
    fn expansion_and_count_above_4() {
        assert_eq!(run(In { count: 1, ..input() }).0, 0x1111_1111);
        assert_eq!(run(In { count: 2, ..input() }).0, 0x2222_2222_1111_1111);
        assert_eq!(run(In { count: 0, ..input() }), (0, 4));
        for count in 5..=7 {
            assert_eq!(run(In { count, ..input() }), (C, 4), "count {count}");
        }
    }

    /// Port-width masking: count 0x0b → 3 (W absent), dst_sel bit 12+ ignored, dmask 0x13 → 0011,
    /// oor 0x12 → 0010 (Y out): R = X, G = 0; count 2.
    #[test]
    fn inputs_are_masked_to_port_width() {
        let i = In { count: 0x0b, dst_sel: 0xf000 | sel(SEL_X, SEL_Y, 0, 0), dmask: 0x13, oor: 0x12, ..input() };
        assert_eq!(run(i), (0x1111_1111, 2));
    }

    /// Call j's valid input comes back from call j + 1; valid shifts every edge.
    #[test]
    fn latency() {
        let mut m = Swizzle::new();
        assert_eq!(Swizzle::NAME, "swizzle");
        assert_eq!(Swizzle::LATENCY, 2);
        assert_eq!(m.step(&input()), Out::default());
        let o = m.step(&In::default());
        assert_eq!(o, Out { valid: true, result: C, result_count: 4 });
        assert!(!m.step(&In::default()).valid);
    }

    /// Back-to-back inputs stream one per cycle.
    #[test]
    fn throughput() {
        let mut m = Swizzle::new();
        let got: Vec<_> = (0..5u8)
            .map(|k| {
                let o = m.step(&In { dmask: 1 << (k % 4), ..input() });
                (o.valid, o.result, o.result_count)
            })
            .collect();
        assert_eq!(
            got,
            [
                (false, 0, 0),
                (true, 0x1111_1111, 1),
                (true, 0x2222_2222, 1),
                (true, 0x3333_3333, 1),
                (true, 0x4444_4444, 1)
            ]
        );
    }

    /// Without valid, data registers hold the last valid result while valid drops to 0.
    #[test]
    fn hold() {
        let mut m = Swizzle::new();
        let a = In { dmask: 0b0011, ..input() };
        let junk = In { valid: false, dmask: 0b1000, tfe: true, unbound: true, ..a };
        let first = testing::first_output_then_hold(&mut m, &a, &junk);
        assert_eq!(first, Out { valid: true, result: 0x2222_2222_1111_1111, result_count: 2 });
        // A bubble between two valid inputs: the output shows a, holds a, then b.
        let b = In { dmask: 0b0100, ..a };
        m.step(&a);
        assert_eq!(m.step(&junk), first);
        assert_eq!(m.step(&b), Out { valid: false, ..first });
        let o = m.step(&junk);
        assert_eq!((o.valid, o.result, o.result_count), (true, 0x3333_3333, 1));
    }

    /// Reset clears valid and data in both stages.
    #[test]
    fn reset_clears_everything() {
        let mut m = Swizzle::new();
        m.step(&input());
        testing::assert_reset_clears(&mut m, &input(), &In::default());
    }

    fn any_in() -> impl Strategy<Value = In> {
        (
            any::<bool>(),
            any::<u128>(),
            0u8..8,
            0u16..1 << 12,
            any::<bool>(),
            0u8..16,
            0u8..16,
            // Unbound is rare in practice; keep most cases bound so the selection is exercised.
            prop::bool::weighted(0.2),
            any::<bool>(),
        )
            .prop_map(|(valid, components, count, dst_sel, integer, dmask, oor, unbound, tfe)| In {
                valid,
                components,
                count,
                dst_sel,
                integer,
                dmask,
                oor,
                unbound,
                tfe,
            })
    }

    proptest! {
        /// result_count = popcount(dmask, 0 as 0001) + tfe; result dwords at and above the data
        /// dwords are 0 (the status dword included); outputs fit their ports; unbound gives 0.
        #[test]
        fn count_and_zero_tail(i in any_in()) {
            let o = compute(&i);
            testing::fits_ports(&o)?;
            let data = if i.dmask == 0 { 1 } else { i.dmask.count_ones() };
            prop_assert_eq!(u32::from(o.result_count), data + u32::from(i.tfe));
            for d in data..4 {
                prop_assert_eq!(dword(o.result, d as usize), 0, "dword {}", d);
            }
            if i.unbound {
                prop_assert_eq!(o.result, 0);
            }
        }

        /// Compaction only moves channels: the result under any DMASK is the DMASK-1111 result's
        /// enabled channels in R, G, B, A order; and a SEL_1 channel of a bound lane is the
        /// constant whatever the components, count and oor.
        #[test]
        fn compaction_picks_channels_in_order(i in any_in()) {
            let full = compute(&In { dmask: 0b1111, tfe: false, ..i }).result;
            let dmask = if i.dmask == 0 { 1 } else { i.dmask };
            let mut n = 0;
            for c in 0..4 {
                if (dmask >> c) & 1 != 0 {
                    prop_assert_eq!(dword(compute(&i).result, n), dword(full, c), "channel {}", c);
                    n += 1;
                }
                if !i.unbound && dst_sel_of(i.dst_sel, c) == SEL_1 {
                    let one = if i.integer { ONE_INTEGER } else { ONE_FLOAT };
                    prop_assert_eq!(dword(full, c), one);
                }
            }
        }

        /// The two-stage model equals "compute, delayed one call, holding on invalid".
        #[test]
        fn model_matches_delayed_compute(inputs in prop::collection::vec(any_in(), 1..40)) {
            testing::matches_delayed_compute::<Swizzle>(&inputs, compute)?;
        }
    }
}
