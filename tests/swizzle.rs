//! `swizzle` (SPEC §3, docs/decisions.md "swizzle"): a directed table with hand-computed
//! expectations, a snapshot of its cycle-by-cycle trace, pipeline hold behaviour, a random
//! lockstep property, and model + RTL against [`reference`], an independent transcription of
//! SPEC §3's five steps, on random and on exhaustively enumerated inputs.
//!
//! No expected value comes from the model: the rows are written by hand from the spec (the
//! derivation is the row's name and comment), and [`reference`] is written here from SPEC §3.

use crate::common;

use gcn_vmem::bindings::swizzle::Harness;
use gcn_vmem_model::swizzle::{In, Out, Swizzle};

// ---------------------------------------------------------------------------------------------
// Port helpers, written from docs/decisions.md "swizzle" (not from rust/swizzle.rs).
// ---------------------------------------------------------------------------------------------

/// SEL_1 for float-like nfmts: 1.0f (SPEC §3 step 2).
const ONE_F: u32 = 0x3F80_0000;
/// SEL_1 for integer nfmts (SPEC §3 step 2).
const ONE_I: u32 = 0x0000_0001;

/// dst_sel codes of SPEC §1.1.
const S0: u8 = 0;
const S1: u8 = 1;
const R2: u8 = 2;
const R3: u8 = 3;
const X: u8 = 4;
const Y: u8 = 5;
const Z: u8 = 6;
const W: u8 = 7;

/// The components every row feeds in: none is 0, 1.0f or 1, so SEL_0/SEL_1/zeroing are visible.
const CX: u32 = 0x3E80_0000; // 0.25f
const CY: u32 = 0xC120_0000; // -10.0f
const CZ: u32 = 0x0000_0007; // integer 7
const CW: u32 = 0xFFFF_FFFF; // integer -1
const XYZW: [u32; 4] = [CX, CY, CZ, CW];

/// Four dwords into a 128-bit port, dword k at bits 32k+31:32k.
const fn pack(w: [u32; 4]) -> u128 {
    (w[0] as u128) | (w[1] as u128) << 32 | (w[2] as u128) << 64 | (w[3] as u128) << 96
}

/// Dword k of a 128-bit port.
fn dword(v: u128, k: usize) -> u32 {
    (v >> (32 * k)) as u32
}

/// dst_sel port value: channel c (R, G, B, A) at bits 3c+2:3c.
const fn sel(c: [u8; 4]) -> u16 {
    (c[0] as u16) | (c[1] as u16) << 3 | (c[2] as u16) << 6 | (c[3] as u16) << 9
}

/// Identity XYZW, four components, float-like, all channels enabled, in range, bound, no TFE.
const BASE: In = In {
    valid: true,
    components: pack(XYZW),
    count: 4,
    dst_sel: sel([X, Y, Z, W]),
    integer: false,
    dmask: 0b1111,
    oor: 0,
    unbound: false,
    tfe: false,
};

// ---------------------------------------------------------------------------------------------
// Directed table.
// ---------------------------------------------------------------------------------------------

struct Row {
    name: &'static str,
    input: In,
    /// Result dwords 0..3 as the port carries them (0 at and above the data count).
    result: [u32; 4],
    result_count: u8,
}

const fn row(name: &'static str, input: In, result: [u32; 4], result_count: u8) -> Row {
    Row { name, input, result, result_count }
}

/// [`BASE`] with another dst_sel.
const fn ds(c: [u8; 4]) -> In {
    In { dst_sel: sel(c), ..BASE }
}

/// [`BASE`] with another dmask.
const fn dm(dmask: u8) -> In {
    In { dmask, ..BASE }
}

/// Every row: components X, Y, Z, W = CX, CY, CZ, CW unless said otherwise.
const ROWS: &[Row] = &[
    // ---- step 2 with nothing else: identity and swizzles.
    row("identity XYZW", BASE, [CX, CY, CZ, CW], 4),
    row("swizzle WZYX", ds([W, Z, Y, X]), [CW, CZ, CY, CX], 4),
    row("swizzle XXXX", ds([X, X, X, X]), [CX, CX, CX, CX], 4),
    row("swizzle WWWW", ds([W, W, W, W]), [CW, CW, CW, CW], 4),
    row("swizzle ZYXW (BGRA)", ds([Z, Y, X, W]), [CZ, CY, CX, CW], 4),
    row("swizzle YXWZ", ds([Y, X, W, Z]), [CY, CX, CW, CZ], 4),
    // integer only changes SEL_1: components pass unchanged.
    row("identity, integer nfmt", In { integer: true, ..BASE }, [CX, CY, CZ, CW], 4),
    // ---- step 2: SEL_0, SEL_1 (float-like 1.0f, integer 1), reserved codes 2/3 → 0.
    row("SEL_0 SEL_1 float-like", ds([S0, S1, S0, S1]), [0, ONE_F, 0, ONE_F], 4),
    row("SEL_0 SEL_1 integer", In { integer: true, ..ds([S0, S1, S0, S1]) }, [0, ONE_I, 0, ONE_I], 4),
    row("SEL_1 x4 float-like", ds([S1, S1, S1, S1]), [ONE_F; 4], 4),
    row("SEL_1 x4 integer", In { integer: true, ..ds([S1, S1, S1, S1]) }, [ONE_I; 4], 4),
    row("SEL_0 x4", ds([S0, S0, S0, S0]), [0; 4], 4),
    row("reserved 2 3 2 3 read 0", ds([R2, R3, R2, R3]), [0; 4], 4),
    row("reserved mixed with components", ds([R2, X, R3, Y]), [0, CX, 0, CY], 4),
    row("reserved not SEL_1, integer", In { integer: true, ..ds([R3, S1, R2, W]) }, [0, ONE_I, 0, CW], 4),
    // ---- step 1: expansion (absent components read 0; count 0; 5..7 as 4).
    row("expand count 3: W absent", In { count: 3, ..BASE }, [CX, CY, CZ, 0], 4),
    row("expand count 2: Z W absent", In { count: 2, ..BASE }, [CX, CY, 0, 0], 4),
    row("expand count 1: Y Z W absent", In { count: 1, ..BASE }, [CX, 0, 0, 0], 4),
    row("expand count 0: all absent", In { count: 0, ..BASE }, [0; 4], 4),
    row("expand count 5 as 4", In { count: 5, ..BASE }, [CX, CY, CZ, CW], 4),
    row("expand count 6 as 4", In { count: 6, ..BASE }, [CX, CY, CZ, CW], 4),
    row("expand count 7 as 4", In { count: 7, ..BASE }, [CX, CY, CZ, CW], 4),
    // A 1 comes only from SEL_1 (SPEC §12 "missing components").
    row("expand count 3, XYZ1 float-like", In { count: 3, ..ds([X, Y, Z, S1]) }, [CX, CY, CZ, ONE_F], 4),
    row("expand count 1, X001 integer", In { count: 1, integer: true, ..ds([X, S0, S0, S1]) }, [CX, 0, 0, ONE_I], 4),
    row("expand count 0 keeps SEL_1", In { count: 0, ..ds([X, S1, Y, S1]) }, [0, ONE_F, 0, ONE_F], 4),
    // Expansion is of components, before the swizzle: WZYX of a 2-component format.
    row("expand count 2, then WZYX", In { count: 2, ..ds([W, Z, Y, X]) }, [0, 0, CY, CX], 4),
    row("expand count 1, XXXX", In { count: 1, ..ds([X, X, X, X]) }, [CX; 4], 4),
    // ---- step 3: out of range per component (oor bit k = component k), SEL_1 keeps 1.
    row("oor Y only, identity", In { oor: 0b0010, ..BASE }, [CX, 0, CZ, CW], 4),
    // oor marks components, not channels: X out of range zeroes channel A (which reads X).
    row("oor X, WZYX: per component", In { oor: 0b0001, ..ds([W, Z, Y, X]) }, [CW, CZ, CY, 0], 4),
    row("oor W, WWWW", In { oor: 0b1000, ..ds([W, W, W, W]) }, [0; 4], 4),
    row("oor W, XXXX unaffected", In { oor: 0b1000, ..ds([X, X, X, X]) }, [CX; 4], 4),
    // All-or-nothing masks (format accesses): 0000 all read, 1111 all 0 except SEL_1.
    row("oor 1111, identity", In { oor: 0b1111, ..BASE }, [0; 4], 4),
    row("oor 1111, XYZ1 float-like keeps 1.0", In { oor: 0b1111, ..ds([X, Y, Z, S1]) }, [0, 0, 0, ONE_F], 4),
    row("oor 1111, XYZ1 integer keeps 1", In { oor: 0b1111, integer: true, ..ds([X, Y, Z, S1]) }, [0, 0, 0, ONE_I], 4),
    row("oor 1111, SEL_0 SEL_1 reserved", In { oor: 0b1111, ..ds([S0, S1, R2, R3]) }, [0, ONE_F, 0, 0], 4),
    // oor on an absent component changes nothing (it reads 0 anyway).
    row("oor on absent Z W, count 2", In { count: 2, oor: 0b1100, ..BASE }, [CX, CY, 0, 0], 4),
    // ---- step 3: unbound zeroes every channel, SEL_1 included.
    row("unbound identity", In { unbound: true, ..BASE }, [0; 4], 4),
    row("unbound SEL_1 x4 float-like", In { unbound: true, ..ds([S1, S1, S1, S1]) }, [0; 4], 4),
    row("unbound SEL_1 x4 integer", In { unbound: true, integer: true, ..ds([S1, S1, S1, S1]) }, [0; 4], 4),
    row("unbound and oor 1111, XYZ1", In { unbound: true, oor: 0b1111, ..ds([X, Y, Z, S1]) }, [0; 4], 4),
    // The count still includes the data dwords and the TFE dword.
    row(
        "unbound, dmask 0011, tfe: count 3",
        In { unbound: true, dmask: 0b0011, tfe: true, ..ds([X, S1, Z, W]) },
        [0; 4],
        3,
    ),
    row("unbound, dmask 0, no tfe: count 1", In { unbound: true, dmask: 0, ..ds([S1, Y, Z, W]) }, [0; 4], 1),
    // ---- step 4: DMASK compaction, every mask (identity XYZW, four components).
    row("dmask 0000 as 0001", dm(0b0000), [CX, 0, 0, 0], 1),
    row("dmask 0001", dm(0b0001), [CX, 0, 0, 0], 1),
    row("dmask 0010", dm(0b0010), [CY, 0, 0, 0], 1),
    row("dmask 0011", dm(0b0011), [CX, CY, 0, 0], 2),
    row("dmask 0100", dm(0b0100), [CZ, 0, 0, 0], 1),
    row("dmask 0101", dm(0b0101), [CX, CZ, 0, 0], 2),
    row("dmask 0110", dm(0b0110), [CY, CZ, 0, 0], 2),
    row("dmask 0111", dm(0b0111), [CX, CY, CZ, 0], 3),
    row("dmask 1000", dm(0b1000), [CW, 0, 0, 0], 1),
    row("dmask 1001", dm(0b1001), [CX, CW, 0, 0], 2),
    row("dmask 1010", dm(0b1010), [CY, CW, 0, 0], 2),
    row("dmask 1011", dm(0b1011), [CX, CY, CW, 0], 3),
    row("dmask 1100", dm(0b1100), [CZ, CW, 0, 0], 2),
    row("dmask 1101", dm(0b1101), [CX, CZ, CW, 0], 3),
    row("dmask 1110", dm(0b1110), [CY, CZ, CW, 0], 3),
    row("dmask 1111", dm(0b1111), [CX, CY, CZ, CW], 4),
    // SPEC §3 step 4's example on a 3-component format: R in dword 0, A (W absent → 0) in dword 1.
    row("dmask 1001 on a 3-component format", In { count: 3, ..dm(0b1001) }, [CX, 0, 0, 0], 2),
    row(
        "dmask 1001 on 3 components, XYZ1",
        In { count: 3, ..In { dst_sel: sel([X, Y, Z, S1]), ..dm(0b1001) } },
        [CX, ONE_F, 0, 0],
        2,
    ),
    // Compaction is of channels (after dst_sel): dmask 0 keeps channel R, whatever it selects.
    row("dmask 0 as 0001, R = W", In { dmask: 0, ..ds([W, X, X, X]) }, [CW, 0, 0, 0], 1),
    row("dmask 0 as 0001, R = SEL_1 integer", In { dmask: 0, integer: true, ..ds([S1, X, Y, Z]) }, [ONE_I, 0, 0, 0], 1),
    // R = W, G = 0, B = 1.0, A = X; dmask 1101 → R, B, A.
    row("dmask 1101 after a swizzle", In { dmask: 0b1101, ..ds([W, S0, S1, X]) }, [CW, ONE_F, CX, 0], 3),
    // Channels G (Y, oor) and B (SEL_1) with oor Y: dmask 0110 → [0, 1.0].
    row("dmask 0110 with oor and SEL_1", In { dmask: 0b0110, oor: 0b0010, ..ds([X, Y, S1, W]) }, [0, ONE_F, 0, 0], 2),
    // ---- step 5: TFE appends one status dword (always 0) after the data dwords.
    row("tfe, dmask 0001: count 2", In { tfe: true, ..dm(0b0001) }, [CX, 0, 0, 0], 2),
    row("tfe, dmask 0000 as 0001: count 2", In { tfe: true, ..dm(0b0000) }, [CX, 0, 0, 0], 2),
    row("tfe, dmask 0101: count 3", In { tfe: true, ..dm(0b0101) }, [CX, CZ, 0, 0], 3),
    row("tfe, dmask 0111: count 4", In { tfe: true, ..dm(0b0111) }, [CX, CY, CZ, 0], 4),
    row("tfe, dmask 1000: count 2", In { tfe: true, ..dm(0b1000) }, [CW, 0, 0, 0], 2),
    // Five dwords: the port carries the four data dwords, the fifth (status 0) is only counted.
    row("tfe, dmask 1111: count 5, 4 dwords on the port", In { tfe: true, ..BASE }, [CX, CY, CZ, CW], 5),
    // Out-of-range lanes still write their data dwords (0 or 1) and a 0 status.
    row(
        "tfe, oor 1111: data written normally",
        In { tfe: true, oor: 0b1111, dmask: 0b0011, ..ds([X, S1, Z, W]) },
        [0, ONE_F, 0, 0],
        3,
    ),
    row("tfe, unbound, dmask 1111: count 5", In { tfe: true, unbound: true, ..BASE }, [0; 4], 5),
    row(
        "tfe, integer SEL_1, dmask 1110",
        In { tfe: true, integer: true, dmask: 0b1110, ..ds([X, S1, S1, Y]) },
        [ONE_I, ONE_I, CY, 0],
        4,
    ),
    // ---- other component values: zero components, -0.0, and all-ones.
    row(
        "components with zeros and -0.0",
        In { components: pack([0, 0x8000_0000, 0x7FC0_0000, 0x0000_0001]), ..ds([Y, X, W, Z]) },
        [0x8000_0000, 0, 0x0000_0001, 0x7FC0_0000],
        4,
    ),
];

/// Expected output of a row (valid = 1).
fn expected(r: &Row) -> Out {
    Out { valid: true, result: pack(r.result), result_count: r.result_count }
}

/// The table as the helpers of tests/common take it.
fn rows() -> Vec<common::Row<'static, Harness>> {
    ROWS.iter().map(|r| (r.name, r.input, expected(r))).collect()
}

#[test]
fn directed_table_is_well_formed() {
    common::assert_rows_well_formed::<Harness>(&rows());
    // Every row's expectation obeys docs/decisions.md: dwords at and above the data count are 0.
    common::assert_zero_above_data(
        ROWS.iter().map(|r| (r.name, &r.result[..], usize::from(r.result_count) - usize::from(r.input.tfe))),
    );
}

// The rows through model and RTL in lockstep and against the independent reference (used on
// random and enumerated inputs below); the trace of the table as a reviewed snapshot.
common::unit_tests! {
    directed_rows_match_spec: rows(),
    reference_matches_directed_rows: (rows(), reference),
    directed_table_trace: rows(),
}

// ---------------------------------------------------------------------------------------------
// Pipeline: data outputs hold the last valid result through bubbles; reset values are 0.
// ---------------------------------------------------------------------------------------------

/// An invalid cycle whose other inputs would change every output if they were taken.
fn junk(k: u32) -> In {
    In {
        valid: false,
        components: pack([0x1234_5678 ^ k, 0x9abc_def0, 0x0f0f_0f0f, 0xf0f0_f0f0]),
        count: 4,
        dst_sel: sel([S1, W, Z, Y]),
        integer: true,
        dmask: 0b1111,
        oor: 0,
        unbound: false,
        tfe: true,
    }
}

common::unit_tests! {
    pipeline_bubbles_hold_last_result: (junk, rows(), "swizzle WZYX", "tfe, dmask 0101: count 3"),
}

// ---------------------------------------------------------------------------------------------
// Independent reference: SPEC §3's five steps, transcribed.
// ---------------------------------------------------------------------------------------------

/// SPEC §3 for one lane, with the port conventions of docs/decisions.md "swizzle".
fn reference(i: &In) -> Out {
    let comp: Vec<u32> = (0..4).map(|k| dword(i.components, k)).collect();
    // 1. Expansion: components absent from the format read as 0 (count above 4: all present).
    let present = usize::from(i.count & 7).min(4);
    let expanded: Vec<u32> = (0..4).map(|k| if k < present { comp[k] } else { 0 }).collect();
    let one = if i.integer { 0x0000_0001 } else { 0x3F80_0000 };
    let mut channel = [0u32; 4];
    for (c, ch) in channel.iter_mut().enumerate() {
        let code = (i.dst_sel >> (3 * c)) & 7;
        // 2. dst_sel.
        *ch = match code {
            0 => 0,
            1 => one,
            4..=7 => expanded[usize::from(code - 4)],
            _ => 0, // 2, 3 reserved
        };
        // 3. Out of range: a channel whose component is out of range reads 0 (SEL_1 keeps 1).
        if (4..=7).contains(&code) && i.oor >> (code - 4) & 1 == 1 {
            *ch = 0;
        }
        // Unbound: every channel 0, SEL_1 included.
        if i.unbound {
            *ch = 0;
        }
    }
    // 4. DMASK compaction; 0 behaves as 0001.
    let dmask = if i.dmask & 0xf == 0 { 0b0001 } else { i.dmask & 0xf };
    let mut dwords: Vec<u32> = (0..4).filter(|c| dmask >> c & 1 == 1).map(|c| channel[c]).collect();
    // 5. TFE: one status dword (always 0) after the data dwords.
    if i.tfe {
        dwords.push(0);
    }
    let result_count = dwords.len() as u8;
    dwords.resize(4, 0);
    Out { valid: i.valid, result: pack([dwords[0], dwords[1], dwords[2], dwords[3]]), result_count }
}

common::unit_tests! {
    stimulus_matches_reference: (400, reference),
}

/// Every count (0..7), dst_sel (4096), oor mask (16) and integer flag: 1,048,576 inputs, with
/// dmask, tfe, unbound and the components varied by a hash of the index, through model and RTL
/// (`sweep` checks they agree) and against the reference.
#[test]
fn exhaustive_selection_matches_reference() {
    let mut inputs = Vec::with_capacity(1 << 20);
    for count in 0..8u8 {
        for dst_sel in 0..4096u16 {
            for oor in 0..16u8 {
                for integer in [false, true] {
                    let h = common::mix(inputs.len() as u64);
                    let c = |k: u32| (h >> (16 * k)) as u32 | 0x0101_0000; // never 0, 1 or 1.0f
                    inputs.push(In {
                        valid: true,
                        components: pack([c(0), c(1), c(2), c(3)]),
                        count,
                        dst_sel,
                        integer,
                        dmask: (h >> 3) as u8 & 0xf,
                        oor,
                        unbound: h & 0x7 == 0,
                        tfe: h >> 7 & 1 == 1,
                    });
                }
            }
        }
    }
    assert_eq!(inputs.len(), 8 * 4096 * 16 * 2);
    common::assert_sweep_matches::<Harness>(&inputs, reference);
}

// ---------------------------------------------------------------------------------------------
// Functional coverage (rust/swizzle.rs `cover`).
// ---------------------------------------------------------------------------------------------

/// Asserts that `input` lands in every bin of `expected` (and, with `exactly`, in no other).
fn assert_bins(input: In, expected: &[&str], exactly: bool) {
    let out = gcn_vmem_model::swizzle::compute(&input);
    common::assert_input_bins::<Swizzle>(&format!("{input:?}"), &input, &out, expected, exactly);
}

/// Hand-chosen inputs land in the bins SPEC §3 names for them.
#[test]
fn directed_inputs_land_in_their_bins() {
    let sel = |c: [u16; 4]| c[0] | c[1] << 3 | c[2] << 6 | c[3] << 9;
    let base = In { valid: true, components: 0, count: 4, dst_sel: sel([4, 5, 6, 7]), ..In::default() };
    // Identity dst_sel, DMASK 1001: R (X) to dword 0, A (W) to dword 1; TFE adds the status
    // dword; all in range.
    assert_bins(
        In { dmask: 0b1001, tfe: true, ..base },
        &[
            "enabled channel x dst_sel: R X",
            "enabled channel x dst_sel: A W",
            "dst_sel pattern: identity XYZW",
            "compaction: channel -> result dword: R -> dword 0",
            "compaction: channel -> result dword: A -> dword 1",
            "dmask: 1001 (R,A)",
            "channel source x state: X present",
            "channel source x state: W present",
            "count: 4",
            "oor mask: none",
            "tfe x data dwords: tfe=1 2",
            "lane state x tfe: in range tfe=1",
        ],
        true,
    );
    // SEL_1 on an unbound integer lane, DMASK 0 (as 0001): R reads 0, SEL_1 included.
    assert_bins(
        In { dst_sel: sel([1, 0, 0, 0]), integer: true, unbound: true, dmask: 0, ..base },
        &[
            "enabled channel x dst_sel: R SEL_1",
            "dst_sel pattern: constants only (0, 1, reserved)",
            "compaction: channel -> result dword: R -> dword 0",
            "dmask: 0000 (as 0001: R)",
            "channel source x state: SEL_1 integer unbound",
            "count: 4",
            "oor mask: none",
            "tfe x data dwords: tfe=0 1",
            "lane state x tfe: unbound tfe=0",
        ],
        true,
    );
    // dst_sel W, Z, X, X on a 2-component format with dwords 2 and 3 out of range: W and Z are
    // out of range, X is present (twice), B and A repeat X; float SEL_1 keeps 1 when out of range.
    assert_bins(
        In { dst_sel: sel([7, 6, 4, 4]), count: 2, oor: 0b1100, dmask: 0xf, ..base },
        &[
            "channel source x state: W out of range",
            "channel source x state: Z out of range",
            "channel source x state: X present",
            "dst_sel pattern: a component selected twice or more",
            "oor mask: a suffix (1000, 1100, 1110)",
            "lane state x tfe: out of range tfe=0",
            "count: 2",
            "compaction: channel -> result dword: A -> dword 3",
        ],
        false,
    );
    // Z on a 2-component format, in range: absent (reads 0); reserved code 3 on G; SEL_1 float.
    assert_bins(
        In { dst_sel: sel([6, 3, 1, 0]), count: 2, dmask: 0b0111, ..base },
        &[
            "channel source x state: Z absent (k >= count)",
            "enabled channel x dst_sel: G reserved 3",
            "channel source x state: reserved 2/3 (as SEL_0) float-like in range",
            "channel source x state: SEL_1 float-like in range",
            "dst_sel pattern: constants and components",
        ],
        false,
    );
}

// ---------------------------------------------------------------------------------------------
// Random lockstep property (bubbles included), assertions and the bins' budget.
// ---------------------------------------------------------------------------------------------

common::unit_tests! {
    random_cases_agree_in_lockstep: 1000,
    every_assertion_fires_and_is_reported: [
        "CountBound_A",
        "CountNonZero_A",
        "ZeroAboveCount0_A",
        "ZeroAboveCount1_A",
        "ZeroAboveCount2_A",
        "ZeroAboveCount3_A",
    ],
    random_stimulus_hits_every_bin: 62,
}
