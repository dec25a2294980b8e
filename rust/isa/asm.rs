//! LLVM assembly (gfx900 syntax) → [`Instruction`].
//!
//! Accepts what llvm-mc accepts for these formats, and the forms its disassembler prints:
//! register ranges (`v[5:8]`, `s[8:11]`, `ttmp[4:7]`, `s[3]`, `[s8,s9,s10,s11]`), named
//! scalar registers and their aliases, inline constants for SOFFSET (−16..64, the inline floats
//! as decimals or f32 bit patterns), `off`, modifiers in any order, `offset:N`,
//! `format:[BUF_DATA_FORMAT_x,BUF_NUM_FORMAT_y]` (either order, either alone), `format:N`
//! (dfmt + 16·nfmt), `dfmt:N nfmt:N`, `dmask:N`, and the flags. The forms of later LLVM releases
//! (LLVM's own MC tests use them) are accepted too: a TFE load's VDATA with the status dword
//! (`buffer_load_dword v[1:2], … tfe`), and a load into LDS without VDATA
//! (`buffer_load_dword off, s[8:11], s3 lds`). A trailing `;` or `//` comment is ignored.
//!
//! `s_waitcnt` takes LLVM's counters, `vmcnt(N)`, `expcnt(N)`, `lgkmcnt(N)` (and their `_sat`
//! forms, which clamp to the maximum), separated by spaces, `&` or `,`, the counters not named at
//! their maximum (a later one wins over an earlier one of the same name), or a bare 16-bit
//! immediate (SIMM16; −32768..65535).
//!
//! Stricter than llvm-mc-14 where it silently truncates: `offset:` above 4095 and `dmask:` above
//! 0xf are errors. `r128` is an error (GFX9 has no R128 bit; bit 15 is A16).

use std::fmt;

use super::disasm::{mimg_vdata_print, DFMT_NAMES, NFMT_NAMES};
use super::operand::{inline_constant_code, parse_int, parse_reg_tuple, scalar_source_code, sgpr_tuple_field, RegFile};
use super::{BufKind, Instruction, Mimg, MimgOp, Mtbuf, MtbufOp, Mubuf, MubufOp, Waitcnt};

/// Why a line of assembly is not a valid instruction: the operand or field at fault (e.g.
/// "mnemonic", "vdata", "vaddr", "srsrc", "ssamp", "soffset", "offset", "format", "dmask", a
/// modifier's name, or a field of seed 000's tables) and a message naming it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub field: String,
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AsmError {}

fn err(field: &str, message: String) -> AsmError {
    AsmError { field: field.to_string(), message }
}

/// Parses one instruction.
pub fn assemble(text: &str) -> Result<Instruction, AsmError> {
    let text = strip_comment(text).trim();
    let (mnemonic, rest) = match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    if mnemonic.is_empty() {
        return Err(err("mnemonic", "empty instruction".to_string()));
    }
    let mnemonic = mnemonic.to_ascii_lowercase();
    if mnemonic == "s_waitcnt" {
        return waitcnt(&rest.to_ascii_lowercase());
    }
    let tokens = split_tokens(&rest.to_ascii_lowercase())?;
    let mut positional = Vec::new();
    let mut modifiers = Vec::new();
    for t in tokens {
        if is_modifier(&t) {
            modifiers.push(t);
        } else if modifiers.is_empty() {
            positional.push(t);
        } else {
            return Err(err("operands", format!("`{t}` after the modifiers is not a modifier of {mnemonic}")));
        }
    }
    let inst = if let Some(op) = MubufOp::from_mnemonic(&mnemonic) {
        mubuf(op, &positional, &modifiers)?
    } else if let Some(op) = MtbufOp::from_mnemonic(&mnemonic) {
        mtbuf(op, &positional, &modifiers)?
    } else if let Some(op) = MimgOp::from_mnemonic(&mnemonic) {
        mimg(op, &positional, &modifiers)?
    } else {
        return Err(err(
            "mnemonic",
            format!("unknown mnemonic `{mnemonic}`: not a GFX9 MUBUF, MTBUF or MIMG instruction, nor s_waitcnt"),
        ));
    };
    inst.validate().map_err(|e| err(&e.field.to_ascii_lowercase(), e.message))?;
    Ok(inst)
}

fn strip_comment(text: &str) -> &str {
    let end = [text.find(';'), text.find("//")].into_iter().flatten().min().unwrap_or(text.len());
    &text[..end]
}

/// Splits at commas and whitespace outside brackets.
fn split_tokens(text: &str) -> Result<Vec<String>, AsmError> {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' => {
                depth += 1;
                current.push(c);
            }
            ']' => {
                if depth == 0 {
                    return Err(err("operands", format!("unbalanced `]` in `{}`", text.trim())));
                }
                depth -= 1;
                current.push(c);
            }
            ',' | ' ' | '\t' if depth == 0 => {
                if !current.is_empty() {
                    tokens.push(std::mem::take(&mut current));
                }
            }
            ' ' | '\t' => {}
            _ => current.push(c),
        }
    }
    if depth != 0 {
        return Err(err("operands", format!("unbalanced `[` in `{}`", text.trim())));
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    Ok(tokens)
}

const FLAGS: [&str; 12] = ["offen", "idxen", "glc", "slc", "lds", "tfe", "unorm", "da", "a16", "r128", "lwe", "d16"];
const VALUED: [&str; 5] = ["offset:", "format:", "dfmt:", "nfmt:", "dmask:"];

fn is_modifier(token: &str) -> bool {
    FLAGS.contains(&token) || VALUED.iter().any(|p| token.starts_with(p))
}

/// The modifiers of one instruction, each at most once.
#[derive(Default)]
struct Modifiers {
    seen: Vec<String>,
    flags: Vec<&'static str>,
    offset: Option<u16>,
    dfmt: Option<u8>,
    nfmt: Option<u8>,
    dmask: Option<u8>,
}

impl Modifiers {
    fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }
}

/// Parses `modifiers`, allowing only the names in `allowed` (flags by name, valued ones by their
/// prefix without the colon).
fn parse_modifiers(mnemonic: &str, modifiers: &[String], allowed: &[&str]) -> Result<Modifiers, AsmError> {
    let mut m = Modifiers::default();
    for token in modifiers {
        let name = token.split(':').next().unwrap_or(token);
        if name == "r128" {
            return Err(err(
                "r128",
                "r128: GFX9 has no R128 bit (its MIMG bit 15 is A16, written `a16`; the T# is eight SGPRs)".to_string(),
            ));
        }
        if !allowed.contains(&name) {
            return Err(err(name, format!("`{token}` is not a modifier of {mnemonic}")));
        }
        if m.seen.iter().any(|s| s == name) {
            return Err(err(name, format!("duplicate modifier `{name}` in {mnemonic}")));
        }
        let mixed = if name == "format" { ["dfmt", "nfmt"].as_slice() } else { ["format"].as_slice() };
        if matches!(name, "format" | "dfmt" | "nfmt") && m.seen.iter().any(|s| mixed.contains(&s.as_str())) {
            return Err(err(name, format!("`format:` and `dfmt:`/`nfmt:` together in {mnemonic}")));
        }
        m.seen.push(name.to_string());
        let value = token.split_once(':').map(|(_, v)| v);
        match (name, value) {
            ("offset", Some(v)) => {
                let n = parse_int(v).ok_or_else(|| err("offset", format!("offset: `{v}` is not an integer")))?;
                if !(0..=4095).contains(&n) {
                    return Err(err("offset", format!("offset:{v} does not fit OFFSET's 12 bits (0..4095)")));
                }
                m.offset = Some(n as u16);
            }
            ("dmask", Some(v)) => {
                let n = parse_int(v).ok_or_else(|| err("dmask", format!("dmask: `{v}` is not an integer")))?;
                if !(0..=15).contains(&n) {
                    return Err(err("dmask", format!("dmask:{v} does not fit DMASK's 4 bits (0..0xf)")));
                }
                m.dmask = Some(n as u8);
            }
            ("dfmt", Some(v)) => {
                let n = parse_int(v).filter(|n| (0..=15).contains(n));
                m.dfmt = Some(n.ok_or_else(|| err("dfmt", format!("dfmt:{v} is not a DFMT (0..15)")))? as u8);
            }
            ("nfmt", Some(v)) => {
                let n = parse_int(v).filter(|n| (0..=7).contains(n));
                m.nfmt = Some(n.ok_or_else(|| err("nfmt", format!("nfmt:{v} is not an NFMT (0..7)")))? as u8);
            }
            ("format", Some(v)) => {
                let (dfmt, nfmt) = parse_format(v)?;
                m.dfmt = dfmt;
                m.nfmt = nfmt;
            }
            (flag, None) => {
                m.flags.push(FLAGS.iter().copied().find(|f| *f == flag).unwrap_or("?"));
            }
            (_, Some(_)) => return Err(err(name, format!("`{token}` is not a modifier of {mnemonic}"))),
        }
    }
    Ok(m)
}

/// `[BUF_DATA_FORMAT_x,BUF_NUM_FORMAT_y]` (either, both, any order) or a number dfmt + 16·nfmt.
fn parse_format(v: &str) -> Result<(Option<u8>, Option<u8>), AsmError> {
    if let Some(list) = v.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
        let (mut dfmt, mut nfmt) = (None, None);
        for name in list.split(',').map(str::trim) {
            let upper = name.to_ascii_uppercase();
            if let Some(code) = DFMT_NAMES.iter().position(|n| *n == upper) {
                if dfmt.replace(code as u8).is_some() {
                    return Err(err("format", format!("format:{v} names two data formats")));
                }
            } else if let Some(code) = NFMT_NAMES.iter().position(|n| *n == upper) {
                if nfmt.replace(code as u8).is_some() {
                    return Err(err("format", format!("format:{v} names two numeric formats")));
                }
            } else {
                return Err(err(
                    "format",
                    format!("format: `{upper}` is not a BUF_DATA_FORMAT_* or BUF_NUM_FORMAT_* name of GFX9"),
                ));
            }
        }
        return Ok((dfmt, nfmt));
    }
    match parse_int(v) {
        Some(n) if (0..=127).contains(&n) => Ok((Some((n & 15) as u8), Some((n >> 4) as u8))),
        _ => Err(err("format", format!("format:{v} is neither [names] nor a number 0..127 (dfmt + 16*nfmt)"))),
    }
}

/// A VGPR tuple operand: (first, count).
fn vgprs(field: &str, token: &str) -> Result<(u8, u32), AsmError> {
    match parse_reg_tuple(token) {
        Some((RegFile::Vgpr, first, count)) if first + count <= 256 && count > 0 => Ok((first as u8, count)),
        Some((RegFile::Vgpr, _, _)) => Err(err(field, format!("{field}: `{token}` runs past v255"))),
        _ => Err(err(field, format!("{field}: `{token}` is not a VGPR or VGPR range"))),
    }
}

fn soffset(token: &str) -> Result<u8, AsmError> {
    scalar_source_code(token).or_else(|| inline_constant_code(token)).ok_or_else(|| {
        err(
            "soffset",
            format!("soffset: `{token}` is not an SGPR, ttmp, m0, special register or inline constant (-16..64, ±0.5, ±1.0, ±2.0, ±4.0, 0.15915494)"),
        )
    })
}

fn srsrc(field: &str, token: &str, count: u32) -> Result<u8, AsmError> {
    sgpr_tuple_field(token, count).map_err(|e| err(field, format!("{field}: {e}")))
}

fn count_error(mnemonic: &str, expected: &str, got: usize) -> AsmError {
    err("operands", format!("{mnemonic} takes {expected} before its modifiers; {got} given"))
}

/// VADDR of a buffer instruction: `off` without OFFEN and IDXEN, else their count of VGPRs.
fn buffer_vaddr(token: &str, offen: bool, idxen: bool) -> Result<u8, AsmError> {
    let need = u32::from(offen) + u32::from(idxen);
    if token == "off" {
        if need != 0 {
            return Err(err("vaddr", format!("vaddr is `off` but {need} address VGPR(s) are needed (idxen/offen)")));
        }
        return Ok(0);
    }
    let (first, count) = vgprs("vaddr", token)?;
    if need == 0 {
        return Err(err("vaddr", format!("vaddr `{token}` needs idxen or offen (write `off` without them)")));
    }
    if count != need {
        return Err(err(
            "vaddr",
            format!("vaddr `{token}` is {count} VGPR(s); idxen/offen need {need} (index first, then offset)"),
        ));
    }
    Ok(first)
}

fn vdata_count_error(mnemonic: &str, token: &str, got: u32, expected: u32) -> AsmError {
    err("vdata", format!("vdata `{token}` is {got} VGPR(s); {mnemonic} takes {expected} here"))
}

/// Sets the modifiers MUBUF and MTBUF share (OFFEN, IDXEN, GLC, SLC, TFE and OFFSET), fields of
/// the same names in both, on the instruction `$m` from the parsed `$mods`.
macro_rules! buffer_modifiers {
    ($m:ident, $mods:ident) => {
        $m.offen = $mods.flag("offen");
        $m.idxen = $mods.flag("idxen");
        $m.glc = $mods.flag("glc");
        $m.slc = $mods.flag("slc");
        $m.tfe = $mods.flag("tfe");
        $m.offset = $mods.offset.unwrap_or(0);
    };
}

fn mubuf(op: MubufOp, positional: &[String], modifiers: &[String]) -> Result<Instruction, AsmError> {
    let info = op.info();
    let mn = info.mnemonic;
    let mut m = Mubuf::new(op);
    match info.kind {
        BufKind::Invalidate => {
            if !positional.is_empty() {
                return Err(count_error(mn, "no operand", positional.len()));
            }
            parse_modifiers(mn, modifiers, &[])?;
            return Ok(Instruction::Mubuf(m));
        }
        BufKind::StoreLds => {
            let [rsrc, soff] = positional else {
                return Err(count_error(mn, "2 operands (srsrc, soffset)", positional.len()));
            };
            let mods = parse_modifiers(mn, modifiers, &["offset", "glc", "slc", "lds"])?;
            m.srsrc = srsrc("srsrc", rsrc, 4)?;
            m.soffset = soffset(soff)?;
            m.offset = mods.offset.unwrap_or(0);
            m.glc = mods.flag("glc");
            m.slc = mods.flag("slc");
            m.lds = true;
            return Ok(Instruction::Mubuf(m));
        }
        _ => {}
    }
    let mut allowed = vec!["offen", "idxen", "offset", "glc", "slc"];
    if info.lds {
        allowed.push("lds");
    }
    if info.kind != BufKind::Atomic {
        allowed.push("tfe");
    }
    let mods = parse_modifiers(mn, modifiers, &allowed)?;
    buffer_modifiers!(m, mods);
    m.lds = mods.flag("lds");
    if m.lds && m.tfe {
        return Err(err("tfe", format!("{mn}: tfe cannot go with lds (a load into LDS has no status dword)")));
    }
    let (vdata, rest) = match positional {
        [vdata, rest @ ..] if rest.len() == 3 => (Some(vdata), rest),
        // Later LLVM releases write a load into LDS without VDATA.
        rest if rest.len() == 3 && m.lds => (None, rest),
        _ => return Err(count_error(mn, "4 operands (vdata, vaddr, srsrc, soffset)", positional.len())),
    };
    if let Some(token) = vdata {
        let (first, count) = vgprs("vdata", token)?;
        let expected = u32::from(info.vgprs);
        // Later LLVM releases count TFE's status dword in a load's VDATA.
        let widened = m.tfe && info.kind == BufKind::Load && count == expected + 1;
        if count != expected && !widened {
            return Err(vdata_count_error(mn, token, count, expected));
        }
        m.vdata = first;
    }
    m.vaddr = buffer_vaddr(&rest[0], m.offen, m.idxen)?;
    m.srsrc = srsrc("srsrc", &rest[1], 4)?;
    m.soffset = soffset(&rest[2])?;
    Ok(Instruction::Mubuf(m))
}

fn mtbuf(op: MtbufOp, positional: &[String], modifiers: &[String]) -> Result<Instruction, AsmError> {
    let info = op.info();
    let mn = info.mnemonic;
    let [vdata, vaddr, rsrc, soff] = positional else {
        return Err(count_error(mn, "4 operands (vdata, vaddr, srsrc, soffset)", positional.len()));
    };
    let allowed = ["offen", "idxen", "offset", "glc", "slc", "tfe", "format", "dfmt", "nfmt"];
    let mods = parse_modifiers(mn, modifiers, &allowed)?;
    let mut m = Mtbuf::new(op);
    buffer_modifiers!(m, mods);
    m.dfmt = mods.dfmt.unwrap_or(super::disasm::DEFAULT_DFMT);
    m.nfmt = mods.nfmt.unwrap_or(super::disasm::DEFAULT_NFMT);
    let (first, count) = vgprs("vdata", vdata)?;
    let expected = u32::from(info.vgprs);
    if count != expected && !(m.tfe && !info.store && count == expected + 1) {
        return Err(vdata_count_error(mn, vdata, count, expected));
    }
    m.vdata = first;
    m.vaddr = buffer_vaddr(vaddr, m.offen, m.idxen)?;
    m.srsrc = srsrc("srsrc", rsrc, 4)?;
    m.soffset = soffset(soff)?;
    Ok(Instruction::Mtbuf(m))
}

fn mimg(op: MimgOp, positional: &[String], modifiers: &[String]) -> Result<Instruction, AsmError> {
    let info = op.info();
    let mn = info.mnemonic;
    let (vdata, vaddr, rsrc, samp) = match (positional, info.sampler) {
        ([vdata, vaddr, rsrc], false) => (vdata, vaddr, rsrc, None),
        ([vdata, vaddr, rsrc, samp], true) => (vdata, vaddr, rsrc, Some(samp)),
        (_, false) => return Err(count_error(mn, "3 operands (vdata, vaddr, srsrc)", positional.len())),
        (_, true) => return Err(count_error(mn, "4 operands (vdata, vaddr, srsrc, ssamp)", positional.len())),
    };
    let mut allowed = vec!["dmask", "unorm", "glc", "slc", "a16", "r128", "tfe", "lwe", "da"];
    if info.d16 {
        allowed.push("d16");
    }
    let mods = parse_modifiers(mn, modifiers, &allowed)?;
    let mut m = Mimg::new(op);
    m.dmask = mods.dmask.unwrap_or(0);
    m.unorm = mods.flag("unorm");
    m.glc = mods.flag("glc");
    m.slc = mods.flag("slc");
    m.a16 = mods.flag("a16");
    m.tfe = mods.flag("tfe");
    m.lwe = mods.flag("lwe");
    m.da = mods.flag("da");
    m.d16 = mods.flag("d16");
    let (first, count) = vgprs("vaddr", vaddr)?;
    if count > 16 {
        return Err(err("vaddr", format!("vaddr `{vaddr}` is {count} VGPRs; at most 16 address VGPRs")));
    }
    m.vaddr = first;
    m.srsrc = srsrc("srsrc", rsrc, 8)?;
    if let Some(samp) = samp {
        m.ssamp = srsrc("ssamp", samp, 4)?;
    }
    let (first, count) = vgprs("vdata", vdata)?;
    m.vdata = first;
    match mimg_vdata_print(&m) {
        Some(n) if n == count => {}
        Some(n) => {
            return Err(err(
                "vdata",
                format!(
                    "vdata `{vdata}` is {count} VGPR(s); {mn} with dmask:{:#x}{}{} takes {n}",
                    m.dmask,
                    if m.d16 { " d16" } else { "" },
                    if m.tfe { " tfe" } else { "" }
                ),
            ))
        }
        None => return Err(err("vdata", format!("vdata `{vdata}`: the data registers of {mn} run past v255"))),
    }
    Ok(Instruction::Mimg(m))
}

/// `s_waitcnt`'s operand: counters (`vmcnt(N) & lgkmcnt(N)`, …) or a bare SIMM16.
fn waitcnt(rest: &str) -> Result<Instruction, AsmError> {
    let text = rest.trim();
    if text.is_empty() {
        return Err(err(
            "operands",
            "s_waitcnt takes counters (vmcnt(N) expcnt(N) lgkmcnt(N)) or a 16-bit immediate; none given".to_string(),
        ));
    }
    if let Some(n) = parse_int(text) {
        if !(-0x8000..=0xffff).contains(&n) {
            return Err(err("simm16", format!("s_waitcnt {text} does not fit SIMM16's 16 bits (-32768..65535)")));
        }
        return Ok(Instruction::Waitcnt(Waitcnt::from_simm16(n as u16)));
    }
    let mut w = Waitcnt::new();
    let mut s = text;
    let mut first = true;
    while !s.is_empty() {
        if !first {
            if let Some(r) = s.strip_prefix(['&', ',']) {
                s = r.trim_start();
            }
        }
        first = false;
        let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
        let name = &s[..end];
        let open = s[end..].trim_start().strip_prefix('(');
        let Some((value, after)) = open.and_then(|o| o.split_once(')')) else {
            let what = s.split_whitespace().next().unwrap_or(s);
            return Err(err(
                "counter",
                format!(
                    "s_waitcnt: `{what}` is not a counter `name(N)` (vmcnt, expcnt, lgkmcnt) or a 16-bit immediate"
                ),
            ));
        };
        let (field, sat) = match name.strip_suffix("_sat") {
            Some(base) => (base, true),
            None => (name, false),
        };
        let max = match field {
            "vmcnt" => Waitcnt::VMCNT_MAX,
            "expcnt" => Waitcnt::EXPCNT_MAX,
            "lgkmcnt" => Waitcnt::LGKMCNT_MAX,
            _ => {
                return Err(err(
                    "counter",
                    format!("s_waitcnt: unknown counter `{name}` (vmcnt, expcnt, lgkmcnt, or their _sat forms)"),
                ))
            }
        };
        let value = value.trim();
        let n = parse_int(value).ok_or_else(|| err(field, format!("s_waitcnt: {name}({value}): not an integer")))?;
        let n = if sat && n > i64::from(max) { i64::from(max) } else { n };
        if !(0..=i64::from(max)).contains(&n) {
            return Err(err(field, format!("s_waitcnt: {name}({value}) is out of range: {field} is 0..{max}")));
        }
        match field {
            "vmcnt" => w.vmcnt = n as u8,
            "expcnt" => w.expcnt = n as u8,
            _ => w.lgkmcnt = n as u8,
        }
        s = after.trim_start();
    }
    Ok(Instruction::Waitcnt(w))
}
