//! The wave's architectural state (SPEC §10): the sparse byte-addressed [`Memory`], the LDS
//! allocation ([`Lds`]), and the [`Wave`] itself (SGPRs, 256 VGPRs × 64 lanes, EXEC, M0), with
//! the operand reads every instruction shares: scalar operands (SOFFSET), descriptors (V#, T#)
//! from SGPRs, EXEC's active lanes, one lane's VGPR, and a result's dwords.

use std::collections::BTreeMap;

/// Lanes of a wave.
pub const LANES: usize = 64;
/// VGPRs of a wave.
pub const VGPRS: usize = 256;
/// Addresses wrap modulo 2^48 (SPEC conventions).
pub(super) const ADDRESS_MASK: u64 = (1 << 48) - 1;
const PAGE: u64 = 4096;

/// A sparse byte-addressed memory: unwritten bytes read 0, addresses wrap modulo 2^48.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    pages: BTreeMap<u64, Box<[u8; PAGE as usize]>>,
}

impl Memory {
    pub fn read_byte(&self, address: u64) -> u8 {
        let a = address & ADDRESS_MASK;
        self.pages.get(&(a / PAGE)).map_or(0, |p| p[(a % PAGE) as usize])
    }

    pub fn write_byte(&mut self, address: u64, value: u8) {
        let a = address & ADDRESS_MASK;
        self.pages.entry(a / PAGE).or_insert_with(|| Box::new([0; PAGE as usize]))[(a % PAGE) as usize] = value;
    }

    /// The runs of an access of `n` bytes (at most 16) from `address`: (page, offset in the page,
    /// first byte of the access, length), one per page it touches.
    fn chunks(address: u64, n: u32) -> impl Iterator<Item = (u64, usize, u32, u32)> {
        let mut i = 0;
        std::iter::from_fn(move || {
            (i < n).then(|| {
                let a = address.wrapping_add(u64::from(i)) & ADDRESS_MASK;
                let offset = (a % PAGE) as u32;
                let len = (PAGE as u32 - offset).min(n - i);
                let chunk = (a / PAGE, offset as usize, i, len);
                i += len;
                chunk
            })
        })
    }

    /// `n` bytes (at most 16) from `address` upward (wrapping), little-endian into the low bits.
    pub fn read(&self, address: u64, n: u32) -> u128 {
        Self::chunks(address, n.min(16)).fold(0u128, |acc, (page, offset, first, len)| match self.pages.get(&page) {
            Some(p) => (0..len).fold(acc, |acc, k| acc | u128::from(p[offset + k as usize]) << (8 * (first + k))),
            None => acc,
        })
    }

    /// The low `n` bytes (at most 16) of `value` at `address` upward (wrapping).
    pub fn write(&mut self, address: u64, n: u32, value: u128) {
        for (page, offset, first, len) in Self::chunks(address, n.min(16)) {
            let p = self.pages.entry(page).or_insert_with(|| Box::new([0; PAGE as usize]));
            for k in 0..len {
                p[offset + k as usize] = (value >> (8 * (first + k))) as u8;
            }
        }
    }

    /// Every byte that differs from `before` (unwritten bytes count as 0), as runs of consecutive
    /// addresses: `(first address, bytes)`, sorted by address.
    pub fn changes_since(&self, before: &Memory) -> Vec<(u64, Vec<u8>)> {
        let mut runs: Vec<(u64, Vec<u8>)> = Vec::new();
        let pages: std::collections::BTreeSet<u64> = self.pages.keys().chain(before.pages.keys()).copied().collect();
        for page in pages {
            for offset in 0..PAGE {
                let a = page * PAGE + offset;
                let now = self.read_byte(a);
                if now != before.read_byte(a) {
                    match runs.last_mut() {
                        Some((start, bytes)) if *start + bytes.len() as u64 == a => bytes.push(now),
                        _ => runs.push((a, vec![now])),
                    }
                }
            }
        }
        runs
    }
}

/// The wave's LDS allocation (SPEC §2.5): `base` and `size` in 128-byte units, and the LDS bytes
/// (64 KiB, addressed from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lds {
    pub base: u16,
    pub size: u16,
    pub bytes: Vec<u8>,
}

impl Default for Lds {
    fn default() -> Self {
        Lds { base: 0, size: 0, bytes: vec![0; 1 << 16] }
    }
}

/// A wave's architectural state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wave {
    /// SGPRs by operand code 0..=127 (s0–s101, then flat_scratch, xnack_mask, vcc, ttmp0–15 at
    /// 108–123, m0 at 124 (kept in [`Wave::m0`]), exec at 126–127 (kept in [`Wave::exec`])).
    pub sgprs: [u32; 128],
    /// VGPR `v` of lane `l` is `vgprs[v][l]`.
    pub vgprs: Vec<[u32; LANES]>,
    pub exec: u64,
    pub m0: u32,
    pub lds: Lds,
    pub memory: Memory,
    /// VGPRs some instruction wrote (in any lane), for reporting.
    pub written: Vec<bool>,
}

impl Default for Wave {
    fn default() -> Self {
        Wave {
            sgprs: [0; 128],
            vgprs: vec![[0; LANES]; VGPRS],
            exec: u64::MAX,
            m0: 0,
            lds: Lds::default(),
            memory: Memory::default(),
            written: vec![false; VGPRS],
        }
    }
}

/// SOFFSET codes that are not SGPRs (GFX9 scalar operand encoding).
const M0_CODE: u8 = 124;
const EXEC_LO_CODE: u8 = 126;
const EXEC_HI_CODE: u8 = 127;

impl Wave {
    /// A scalar operand as SOFFSET reads it (SPEC §10: an SGPR, M0 or an inline constant).
    pub fn scalar(&self, code: u8) -> Result<u32, String> {
        Ok(match code {
            0..=123 => self.sgprs[usize::from(code)],
            M0_CODE => self.m0,
            EXEC_LO_CODE => self.exec as u32,
            EXEC_HI_CODE => (self.exec >> 32) as u32,
            128..=192 => u32::from(code - 128),
            193..=208 => (-(i32::from(code) - 192)) as u32,
            240 => 0.5f32.to_bits(),
            241 => (-0.5f32).to_bits(),
            242 => 1.0f32.to_bits(),
            243 => (-1.0f32).to_bits(),
            244 => 2.0f32.to_bits(),
            245 => (-2.0f32).to_bits(),
            246 => 4.0f32.to_bits(),
            247 => (-4.0f32).to_bits(),
            248 => 0x3e22_f983, // 1 / (2 * pi)
            other => return Err(format!("soffset operand code {other} is not an SGPR, M0 or an inline constant")),
        })
    }

    /// Four consecutive SGPRs from `first` as a 128-bit descriptor, the first in bits 31:0.
    pub fn descriptor(&self, first: u8) -> Result<u128, String> {
        if !first.is_multiple_of(4) || usize::from(first) + 4 > 124 {
            return Err(format!("srsrc s{first} is not an aligned group of four SGPRs"));
        }
        Ok((0..4).fold(0u128, |acc, i| acc | u128::from(self.sgprs[usize::from(first) + i]) << (32 * i)))
    }

    pub(super) fn active(&self, lane: usize) -> bool {
        self.exec >> lane & 1 != 0
    }

    /// The T# at `first`: (bits 127:0, bits 255:128 or 0 for a 128-bit T#).
    pub fn tsharp(&self, first: u8, r128: bool) -> Result<(u128, u128), String> {
        let lo = self.descriptor(first)?;
        let hi = if r128 { 0 } else { self.descriptor(first.wrapping_add(4))? };
        Ok((lo, hi))
    }
}

pub(super) fn vgpr(wave: &Wave, v: u8, lane: usize) -> u32 {
    wave.vgprs[usize::from(v)][lane]
}

/// The first `count` dwords of a 128-bit result.
pub(super) fn dwords(result: u128, count: u8) -> Vec<u32> {
    (0..u32::from(count.min(4))).map(|i| (result >> (32 * i)) as u32).collect()
}
