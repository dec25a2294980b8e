//! Scalar and vector operands as GFX9 encodes them and LLVM spells them.
//!
//! SOFFSET is an 8-bit scalar source code (SGPR, special register, inline constant); SRSRC and
//! SSAMP are 5-bit fields holding an SGPR number divided by 4 (the tuple is 4-aligned).

use std::fmt::Write as _;

/// SGPR numbers of the GFX9 special scalar registers in the SOFFSET / SRSRC code space.
pub const SGPR_COUNT: u8 = 102;
pub const FLAT_SCRATCH_LO: u8 = 102;
pub const XNACK_MASK_LO: u8 = 104;
pub const VCC_LO: u8 = 106;
pub const TTMP0: u8 = 108;
pub const M0: u8 = 124;
pub const NULL: u8 = 125;
pub const EXEC_LO: u8 = 126;

/// The inline float constants of codes 0xf0..=0xf8, as f32 bit patterns and as LLVM prints them.
pub const INLINE_FLOATS: [(u8, u32, &str); 9] = [
    (0xf0, 0x3f00_0000, "0.5"),
    (0xf1, 0xbf00_0000, "-0.5"),
    (0xf2, 0x3f80_0000, "1.0"),
    (0xf3, 0xbf80_0000, "-1.0"),
    (0xf4, 0x4000_0000, "2.0"),
    (0xf5, 0xc000_0000, "-2.0"),
    (0xf6, 0x4080_0000, "4.0"),
    (0xf7, 0xc080_0000, "-4.0"),
    (0xf8, 0x3e22_f983, "0.15915494"),
];

/// The named scalar sources of codes 0xeb..=0xfe that GFX9 decodes, with LLVM's printed name and
/// the other spellings its assembler accepts.
const NAMED_SOURCES: [(u8, &str, &str); 9] = [
    (0xeb, "src_shared_base", "shared_base"),
    (0xec, "src_shared_limit", "shared_limit"),
    (0xed, "src_private_base", "private_base"),
    (0xee, "src_private_limit", "private_limit"),
    (0xef, "src_pops_exiting_wave_id", "pops_exiting_wave_id"),
    (0xfb, "src_vccz", "vccz"),
    (0xfc, "src_execz", "execz"),
    (0xfd, "src_scc", "scc"),
    (0xfe, "src_lds_direct", "lds_direct"),
];

/// The named 32-bit registers below the inline constants (codes 102..=127 except ttmp).
const NAMED_REGS: [(u8, &str); 10] = [
    (102, "flat_scratch_lo"),
    (103, "flat_scratch_hi"),
    (104, "xnack_mask_lo"),
    (105, "xnack_mask_hi"),
    (106, "vcc_lo"),
    (107, "vcc_hi"),
    (124, "m0"),
    (125, "null"),
    (126, "exec_lo"),
    (127, "exec_hi"),
];

/// LLVM's name for the 32-bit scalar source `code` (SOFFSET), or `None` for a code GFX9 does not
/// decode there (0xd1..=0xea, 0xf9, 0xfa, and 0xff, the literal constant, which MUBUF/MTBUF cannot
/// carry).
pub fn scalar_source_name(code: u8) -> Option<String> {
    match code {
        0..SGPR_COUNT => Some(format!("s{code}")),
        TTMP0..M0 => Some(format!("ttmp{}", code - TTMP0)),
        0x80..=0xc0 => Some(format!("{}", code - 0x80)),
        0xc1..=0xd0 => Some(format!("-{}", code - 0xc0)),
        _ => {
            if let Some((_, n)) = NAMED_REGS.iter().find(|(c, _)| *c == code) {
                return Some((*n).to_string());
            }
            if let Some((_, _, n)) = INLINE_FLOATS.iter().find(|(c, _, _)| *c == code) {
                return Some((*n).to_string());
            }
            NAMED_SOURCES.iter().find(|(c, _, _)| *c == code).map(|(_, n, _)| (*n).to_string())
        }
    }
}

/// The code of a named scalar source (any spelling LLVM prints or accepts), or of an SGPR / ttmp
/// written as `sN`, `s[N]`, `s[N:N]`, `[sN]`, `ttmpN`.
pub fn scalar_source_code(text: &str) -> Option<u8> {
    if let Some((c, _)) = NAMED_REGS.iter().find(|(_, n)| *n == text) {
        return Some(*c);
    }
    if let Some((c, _, _)) = NAMED_SOURCES.iter().find(|(_, n, alt)| *n == text || *alt == text) {
        return Some(*c);
    }
    match parse_reg_tuple(text)? {
        (RegFile::Sgpr, first, 1) if first < u32::from(SGPR_COUNT) => Some(first as u8),
        (RegFile::Ttmp, first, 1) if first < 16 => Some(TTMP0 + first as u8),
        _ => None,
    }
}

/// The code of an inline constant: an integer −16..=64, an f32 bit pattern of an inline float,
/// or one of the inline floats written as a decimal (1/(2π) to f32 precision).
pub fn inline_constant_code(text: &str) -> Option<u8> {
    if let Some(v) = parse_int(text) {
        if (0..=64).contains(&v) {
            return Some(0x80 + v as u8);
        }
        if (-16..0).contains(&v) {
            return Some((0xc0 - v) as u8);
        }
        let bits = if (i64::from(i32::MIN)..0).contains(&v) { v as i32 as u32 } else { u32::try_from(v).ok()? };
        return INLINE_FLOATS.iter().find(|(_, b, _)| *b == bits).map(|(c, _, _)| *c);
    }
    if !text.contains(['.', 'e', 'E']) || text.starts_with("0x") || text.starts_with("-0x") {
        return None;
    }
    let v: f64 = text.parse().ok()?;
    let bits = (v as f32).to_bits();
    INLINE_FLOATS.iter().find(|(_, b, _)| *b == bits).map(|(c, _, _)| *c)
}

/// A decimal or `0x` hexadecimal integer, optionally negative.
pub fn parse_int(text: &str) -> Option<i64> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text),
    };
    let magnitude = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        i64::from_str_radix(hex, 16).ok()?
    } else {
        if body.is_empty() || !body.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        body.parse::<i64>().ok()?
    };
    Some(if neg { -magnitude } else { magnitude })
}

/// A register file of a tuple written in assembly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegFile {
    Vgpr,
    Sgpr,
    Ttmp,
}

/// Parses `v5`, `v[5:8]`, `v[5]`, `s[8:11]`, `ttmp[4:7]`, `ttmp3` and register lists `[v5,v6]`,
/// `[s8, s9, s10, s11]` (consecutive registers of one file) into (file, first, count).
pub fn parse_reg_tuple(text: &str) -> Option<(RegFile, u32, u32)> {
    let text = text.trim();
    if let Some(list) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let mut regs = list.split(',').map(|r| parse_reg_tuple(r.trim()));
        let (file, first, count) = regs.next()??;
        let mut next = first + count;
        for r in regs {
            let (f, n, c) = r?;
            if f != file || n != next {
                return None;
            }
            next += c;
        }
        return Some((file, first, next - first));
    }
    let (file, rest) = if let Some(r) = text.strip_prefix("ttmp") {
        (RegFile::Ttmp, r)
    } else if let Some(r) = text.strip_prefix('v') {
        (RegFile::Vgpr, r)
    } else if let Some(r) = text.strip_prefix('s') {
        (RegFile::Sgpr, r)
    } else {
        return None;
    };
    if let Some(range) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (lo, hi) = match range.split_once(':') {
            Some((lo, hi)) => (lo.trim(), hi.trim()),
            None => (range.trim(), range.trim()),
        };
        let lo: u32 = decimal(lo)?;
        let hi: u32 = decimal(hi)?;
        if hi < lo {
            return None;
        }
        Some((file, lo, hi - lo + 1))
    } else {
        Some((file, decimal(rest)?, 1))
    }
}

fn decimal(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 6 || !text.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `v5` or `v[5:8]`.
pub fn vgpr_tuple(first: u8, count: u32) -> String {
    if count <= 1 {
        format!("v{first}")
    } else {
        format!("v[{first}:{}]", u32::from(first) + count - 1)
    }
}

/// LLVM's name of the 4-SGPR tuple at field value `field` (SRSRC of a buffer, SSAMP), or `None`
/// where GFX9 has no such tuple (field 31: `s[124:127]` crosses m0).
pub fn sgpr_tuple4_name(field: u8) -> Option<String> {
    let first = u32::from(field) * 4;
    match field {
        0..=25 => Some(format!("s[{first}:{}]", first + 3)),
        26 => Some("xnack_mask".to_string()),
        27..=30 => {
            let t = first - u32::from(TTMP0);
            Some(format!("ttmp[{t}:{}]", t + 3))
        }
        _ => None,
    }
}

/// LLVM's name of the 8-SGPR tuple at field value `field` (SRSRC of an image: the T#), or `None`
/// where GFX9 has none (25, 26: it would cross into the special registers; 30, 31).
pub fn sgpr_tuple8_name(field: u8) -> Option<String> {
    let first = u32::from(field) * 4;
    match field {
        0..=24 => Some(format!("s[{first}:{}]", first + 7)),
        27..=29 => {
            let t = first - u32::from(TTMP0);
            Some(format!("ttmp[{t}:{}]", t + 7))
        }
        _ => None,
    }
}

/// The field value (SGPR number / 4) of a 4- or 8-register scalar tuple written in assembly.
/// Errors describe what is wrong.
pub fn sgpr_tuple_field(text: &str, count: u32) -> Result<u8, String> {
    if count == 4 && text == "xnack_mask" {
        return Ok(26);
    }
    let (file, first, n) = parse_reg_tuple(text).ok_or_else(|| format!("`{text}` is not a scalar register tuple"))?;
    if n != count {
        return Err(format!("`{text}` is {n} register(s); {count} consecutive SGPRs are needed"));
    }
    let sgpr = match file {
        RegFile::Sgpr => first,
        RegFile::Ttmp => first + u32::from(TTMP0),
        RegFile::Vgpr => return Err(format!("`{text}` is a VGPR tuple; an SGPR tuple is needed")),
    };
    if sgpr % 4 != 0 {
        return Err(format!("`{text}` does not start at a multiple of 4"));
    }
    let field = sgpr / 4;
    let named = if count == 4 { sgpr_tuple4_name(field as u8) } else { sgpr_tuple8_name(field as u8) };
    match (field < 32, named) {
        (true, Some(_)) => Ok(field as u8),
        _ => Err(format!("`{text}` is not a tuple GFX9 can encode here")),
    }
}

/// `0x…` for a list of dwords, space-separated (the CLI's form).
pub fn hex_words(words: &[u32]) -> String {
    let mut s = String::new();
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{w:#010x}");
    }
    s
}
