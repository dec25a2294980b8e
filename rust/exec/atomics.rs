//! §10.1's atomic operations: their arithmetic on one memory value ([`atomic_result`]) and the
//! rule that a 64-bit atomic lies in one line ([`atomic_across_lines`]), shared by buffer and
//! image atomics. The operation itself is the decoded instruction's ([`crate::isa::AtomicOp`]).

use super::ExecError;
use crate::isa::AtomicOp;

/// §10.1's result of one atomic on `tmp` with operand `data` (and `cmp` for the compare-swaps),
/// at 32 or 64 bits.
pub fn atomic_result(op: AtomicOp, wide: bool, tmp: u64, data: u64, cmp: u64) -> u64 {
    let mask = if wide { u64::MAX } else { u64::from(u32::MAX) };
    let signed = |v: u64| if wide { v as i64 } else { i64::from(v as u32 as i32) };
    let float = |v: u64| if wide { f64::from_bits(v) } else { f64::from(f32::from_bits(v as u32)) };
    let r = match op {
        AtomicOp::Swap => data,
        AtomicOp::Cmpswap => {
            if tmp == cmp {
                data
            } else {
                tmp
            }
        }
        AtomicOp::Add => tmp.wrapping_add(data),
        AtomicOp::Sub => tmp.wrapping_sub(data),
        AtomicOp::Rsub => data.wrapping_sub(tmp),
        AtomicOp::Smin => {
            if signed(data) < signed(tmp) {
                data
            } else {
                tmp
            }
        }
        AtomicOp::Smax => {
            if signed(data) > signed(tmp) {
                data
            } else {
                tmp
            }
        }
        AtomicOp::Umin => tmp.min(data),
        AtomicOp::Umax => tmp.max(data),
        AtomicOp::And => tmp & data,
        AtomicOp::Or => tmp | data,
        AtomicOp::Xor => tmp ^ data,
        AtomicOp::Inc => {
            if tmp >= data {
                0
            } else {
                tmp + 1
            }
        }
        AtomicOp::Dec => {
            if tmp == 0 || tmp > data {
                data
            } else {
                tmp - 1
            }
        }
        // +0 == -0 and NaN never equal: IEEE equality.
        AtomicOp::Fcmpswap => {
            if float(tmp) == float(cmp) {
                data
            } else {
                tmp
            }
        }
        // IEEE minNum/maxNum: a NaN operand yields the other operand.
        AtomicOp::Fmin => pick_num(tmp, data, float, |a, b| a < b || (a == b && a.is_sign_negative())),
        AtomicOp::Fmax => pick_num(tmp, data, float, |a, b| a > b || (a == b && a.is_sign_positive())),
    };
    r & mask
}

fn pick_num(tmp: u64, data: u64, float: impl Fn(u64) -> f64, better: impl Fn(f64, f64) -> bool) -> u64 {
    let (t, d) = (float(tmp), float(data));
    match (t.is_nan(), d.is_nan()) {
        (true, _) => data,
        (_, true) => tmp,
        _ if better(d, t) => data,
        _ => tmp,
    }
}

/// SPEC §10.1: the error for a 64-bit atomic on `lane` whose 8 bytes at `address` (the lane's
/// memory address, mod 2^48) lie in two 64-byte lines; `None` when they lie in one. The L2
/// executes an atomic within one line, so such an access cannot be atomic.
pub fn atomic_across_lines((lane, address): (usize, u64)) -> Option<ExecError> {
    const LINE: u64 = 64;
    (address % LINE + 8 > LINE).then(|| {
        ExecError(format!(
            "lane {lane}: the 64-bit atomic at {address:#x} lies in two 64-byte lines (bytes {:#x} and {:#x}); \
             the L2 executes an atomic within one line (SPEC §10.1)",
            address,
            address + 7
        ))
    })
}
