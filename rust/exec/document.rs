//! `gcn-vmem exec` documents (SPEC §13.1) as JSON: a wave's initial state and a program as one
//! document in ([`parse`]) and written ([`write`]), the state the program changed as one object
//! out ([`output`]); the program's entries decoded ([`decode`]). Pure model work: the harness's `gcn-vmem exec`
//! (cosim/exec/program.rs) and the Python module (rust/python) run what this parses, on the RTL
//! or on the models. Behind the crate's `json` feature (serde_json), so the default build stays
//! bitvec only.
//!
//! Parsing is strict: an unknown key, a value outside its field or a malformed register name is
//! an error naming the key. The instructions themselves are kept as given (assembly text or
//! dwords) until [`decode`].

use serde_json::{json, Map, Value};

use super::{Wave, LANES, VGPRS};

/// One program entry as the file gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// LLVM assembly text (gfx900 syntax).
    Asm(String),
    /// The instruction's dwords, first dword first.
    Encoding(Vec<u32>),
}

impl Source {
    /// How an error message names the instruction.
    pub fn text(&self) -> String {
        match self {
            Source::Asm(t) => t.clone(),
            Source::Encoding(words) => words.iter().map(|w| format!("{w:#010x}")).collect::<Vec<_>>().join(" "),
        }
    }
}

/// A parsed exec file.
#[derive(Clone, Debug)]
pub struct Program {
    pub wave: Wave,
    pub instructions: Vec<Source>,
}

const KEYS: &[&str] = &["sgprs", "vgprs", "exec", "m0", "lds", "memory", "program"];

fn number(value: &Value, what: &str, bits: u32) -> Result<u128, String> {
    let v = match value {
        Value::Number(n) => {
            n.as_u64().map(u128::from).ok_or_else(|| format!("{what}: {n} is not a non-negative integer"))?
        }
        Value::String(s) => {
            let digits = s
                .strip_prefix("0x")
                .or_else(|| s.strip_prefix("0X"))
                .ok_or_else(|| format!("{what}: \"{s}\" is not a hex string (\"0x…\")"))?;
            if !digits.is_empty()
                && digits.chars().all(|c| c.is_ascii_hexdigit())
                && digits.trim_start_matches('0').len() > 32
            {
                return Err(format!("{what}: \"{s}\" does not fit {bits} bits"));
            }
            u128::from_str_radix(digits, 16).map_err(|_| format!("{what}: \"{s}\" is not a hex number"))?
        }
        other => return Err(format!("{what}: expected an integer or a \"0x…\" string, got {other}")),
    };
    if bits < 128 && v >> bits != 0 {
        return Err(format!("{what}: {v:#x} does not fit {bits} bits"));
    }
    Ok(v)
}

/// `count` dwords from an integer or a `"0x…"` string of up to `8 * count` digits, dword 0 from
/// the least significant bits.
fn dwords(value: &Value, what: &str, count: usize) -> Result<Vec<u32>, String> {
    if let Value::String(s) = value {
        let digits = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .ok_or_else(|| format!("{what}: \"{s}\" is not a hex string (\"0x…\")"))?;
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("{what}: \"{s}\" is not a hex number"));
        }
        let digits = digits.trim_start_matches('0');
        if digits.len() > 8 * count {
            return Err(format!("{what}: \"{s}\" does not fit {} bits", 32 * count));
        }
        let padded = format!("{digits:0>width$}", width = 8 * count);
        return Ok((0..count)
            .map(|i| {
                let end = padded.len() - 8 * i;
                u32::from_str_radix(&padded[end - 8..end], 16).unwrap_or(0)
            })
            .collect());
    }
    let v = number(value, what, 32 * count.min(4) as u32)?;
    Ok((0..count).map(|i| if i < 4 { (v >> (32 * i)) as u32 } else { 0 }).collect())
}

/// Bytes from hex without `0x`, two digits per byte, first byte first.
fn bytes(value: &Value, what: &str) -> Result<Vec<u8>, String> {
    let Value::String(s) = value else {
        return Err(format!("{what}: expected a hex string of bytes, got {value}"));
    };
    // Two digits a byte: a character of more than one byte is no hex digit, and slicing the
    // string inside it would panic.
    if !s.is_ascii() {
        return Err(format!("{what}: \"{s}\" is not hex"));
    }
    if s.len() % 2 != 0 {
        return Err(format!("{what}: \"{s}\" has an odd number of hex digits"));
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| format!("{what}: \"{s}\" is not hex")))
        .collect()
}

fn object<'a>(value: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    value.as_object().ok_or_else(|| format!("{what}: expected a JSON object"))
}

/// `sN` or `s[a:b]` (or `vN`): the first register and the count.
fn register(name: &str, prefix: char) -> Option<(usize, usize)> {
    let rest = name.strip_prefix(prefix)?;
    if let Some(range) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = range.split_once(':')?;
        let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
        (b >= a).then_some((a, b - a + 1))
    } else {
        Some((rest.parse().ok()?, 1))
    }
}

/// Parses an exec document (SPEC §13.1).
pub fn parse(text: &str) -> Result<Program, String> {
    let doc: Value = serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
    let doc = object(&doc, "the document")?;
    if let Some(key) = doc.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!("unknown key `{key}`; the keys are: {}", KEYS.join(", ")));
    }
    let mut wave = Wave::default();
    if let Some(sgprs) = doc.get("sgprs") {
        for (name, value) in object(sgprs, "sgprs")? {
            let (first, count) = register(name, 's')
                .filter(|(f, c)| f + c <= 102)
                .ok_or_else(|| format!("sgprs: `{name}` is not s0..s101 or s[a:b] within them"))?;
            let what = format!("sgprs.{name}");
            let v = dwords(value, &what, count)?;
            wave.sgprs[first..first + count].copy_from_slice(&v);
        }
    }
    if let Some(vgprs) = doc.get("vgprs") {
        for (name, value) in object(vgprs, "vgprs")? {
            let (v, _) = register(name, 'v')
                .filter(|&(v, c)| c == 1 && v < VGPRS)
                .ok_or_else(|| format!("vgprs: `{name}` is not v0..v255"))?;
            wave.vgprs[v] = match value {
                Value::Array(items) if items.len() == LANES => {
                    let mut lanes = [0u32; LANES];
                    for (l, item) in items.iter().enumerate() {
                        lanes[l] = number(item, &format!("vgprs.{name}[{l}]"), 32)? as u32;
                    }
                    lanes
                }
                Value::Array(items) => return Err(format!("vgprs.{name}: expected 64 values, got {}", items.len())),
                other => [number(other, &format!("vgprs.{name}"), 32)? as u32; LANES],
            };
        }
    }
    if let Some(exec) = doc.get("exec") {
        wave.exec = number(exec, "exec", 64)? as u64;
    }
    if let Some(m0) = doc.get("m0") {
        wave.m0 = number(m0, "m0", 32)? as u32;
    }
    if let Some(lds) = doc.get("lds") {
        let lds = object(lds, "lds")?;
        if let Some(key) = lds.keys().find(|k| !["base", "size", "bytes"].contains(&k.as_str())) {
            return Err(format!("lds: unknown key `{key}`; the keys are: base, size, bytes"));
        }
        wave.lds.base = lds.get("base").map_or(Ok(0), |v| number(v, "lds.base", 9))? as u16;
        wave.lds.size = lds.get("size").map_or(Ok(0), |v| number(v, "lds.size", 9))? as u16;
        for (address, data) in runs(lds.get("bytes"), "lds.bytes", 16)? {
            for (i, b) in data.into_iter().enumerate() {
                let at = address as usize + i;
                *wave
                    .lds
                    .bytes
                    .get_mut(at)
                    .ok_or_else(|| format!("lds.bytes: byte {at:#x} is past the 64 KiB LDS"))? = b;
            }
        }
    }
    for (address, data) in runs(doc.get("memory"), "memory", 48)? {
        for (i, b) in data.into_iter().enumerate() {
            wave.memory.write_byte(address.wrapping_add(i as u64), b);
        }
    }
    let program = doc.get("program").ok_or("missing key `program`")?;
    let Value::Array(items) = program else {
        return Err("program: expected a list of instructions".into());
    };
    let mut instructions = Vec::with_capacity(items.len());
    for (n, item) in items.iter().enumerate() {
        instructions.push(match item {
            Value::String(text) => Source::Asm(text.clone()),
            Value::Object(o) if o.len() == 1 && o.contains_key("encoding") => {
                let Some(Value::String(words)) = o.get("encoding") else {
                    return Err(format!("program[{n}].encoding: expected \"0x… 0x…\""));
                };
                let words = words
                    .split_whitespace()
                    .map(|w| {
                        number(&Value::String(w.to_string()), &format!("program[{n}].encoding"), 32).map(|v| v as u32)
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Source::Encoding(words)
            }
            other => return Err(format!("program[{n}]: expected assembly text or {{\"encoding\": …}}, got {other}")),
        });
    }
    // The state before the program: nothing written yet.
    wave.written = vec![false; VGPRS];
    Ok(Program { wave, instructions })
}

/// `[{"address": A, "data": "0a0b…"}]` runs.
fn runs(value: Option<&Value>, what: &str, address_bits: u32) -> Result<Vec<(u64, Vec<u8>)>, String> {
    let Some(value) = value else { return Ok(Vec::new()) };
    let Value::Array(items) = value else {
        return Err(format!("{what}: expected a list of {{\"address\", \"data\"}}"));
    };
    items
        .iter()
        .enumerate()
        .map(|(n, item)| {
            let o = object(item, &format!("{what}[{n}]"))?;
            if let Some(key) = o.keys().find(|k| !["address", "data"].contains(&k.as_str())) {
                return Err(format!("{what}[{n}]: unknown key `{key}`; the keys are: address, data"));
            }
            let address = number(
                o.get("address").ok_or(format!("{what}[{n}]: missing `address`"))?,
                &format!("{what}[{n}].address"),
                address_bits,
            )?;
            let data =
                bytes(o.get("data").ok_or(format!("{what}[{n}]: missing `data`"))?, &format!("{what}[{n}].data"))?;
            Ok((address as u64, data))
        })
        .collect()
}

fn hex_bytes(data: &[u8]) -> String {
    data.iter().map(|b| format!("{b:02x}")).collect()
}

/// The output object (SPEC §13.1): every VGPR written (all 64 lanes), and every changed run of
/// memory and LDS bytes, sorted by address.
pub fn output(before: &Wave, after: &Wave) -> Value {
    let mut vgprs = Map::new();
    for (v, _) in after.written.iter().enumerate().filter(|(_, w)| **w) {
        vgprs.insert(format!("v{v}"), Value::Array(after.vgprs[v].iter().map(|&x| json!(x)).collect()));
    }
    let memory: Vec<Value> = after
        .memory
        .changes_since(&before.memory)
        .into_iter()
        .map(|(address, data)| json!({"address": address, "data": hex_bytes(&data)}))
        .collect();
    let mut lds_runs: Vec<(usize, Vec<u8>)> = Vec::new();
    for (a, (&now, &was)) in after.lds.bytes.iter().zip(&before.lds.bytes).enumerate() {
        if now != was {
            match lds_runs.last_mut() {
                Some((start, run)) if *start + run.len() == a => run.push(now),
                _ => lds_runs.push((a, vec![now])),
            }
        }
    }
    let lds: Vec<Value> =
        lds_runs.into_iter().map(|(address, data)| json!({"address": address, "data": hex_bytes(&data)})).collect();
    json!({"vgprs": vgprs, "memory": memory, "lds": lds})
}

/// A document that [`parse`] reads back as `wave` and `program`: the SGPRs `sgprs` (each
/// `(first, count)`, named `s<first>` or `s[<first>:<last>]`, its value one hex string), the
/// VGPRs `vgprs` (every lane), EXEC, M0, the LDS allocation, the memory the wave changed from
/// empty, and the program as encodings; pretty-printed, with a newline at the end. The random
/// program suites save their failing programs with it.
pub fn write(wave: &Wave, program: &[crate::isa::Instruction], sgprs: &[(usize, usize)], vgprs: &[u8]) -> String {
    let mut sgpr_map = Map::new();
    for &(first, count) in sgprs {
        let name = if count == 1 { format!("s{first}") } else { format!("s[{first}:{}]", first + count - 1) };
        let v = (0..count).rev().fold(String::new(), |acc, i| acc + &format!("{:08x}", wave.sgprs[first + i]));
        sgpr_map.insert(name, json!(format!("0x{v}")));
    }
    let mut vgpr_map = Map::new();
    for &v in vgprs {
        vgpr_map.insert(format!("v{v}"), Value::Array(wave.vgprs[usize::from(v)].iter().map(|&x| json!(x)).collect()));
    }
    let memory: Vec<Value> = wave
        .memory
        .changes_since(&super::Memory::default())
        .into_iter()
        .map(|(a, d)| json!({"address": a, "data": d.iter().map(|b| format!("{b:02x}")).collect::<String>()}))
        .collect();
    let program: Vec<Value> = program
        .iter()
        .map(|i| {
            json!({"encoding": crate::isa::encode(i).iter().map(|w| format!("{w:#010x}")).collect::<Vec<_>>().join(" ")})
        })
        .collect();
    let text = serde_json::to_string_pretty(&json!({
        "sgprs": sgpr_map,
        "vgprs": vgpr_map,
        "exec": format!("{:#018x}", wave.exec),
        "m0": wave.m0,
        "lds": {"base": wave.lds.base, "size": wave.lds.size},
        "memory": memory,
        "program": program,
    }))
    .unwrap_or_default();
    format!("{text}\n")
}

/// Decodes one program entry.
pub fn decode(source: &Source) -> Result<crate::isa::Instruction, String> {
    match source {
        Source::Asm(text) => crate::isa::assemble(text).map_err(|e| e.to_string()),
        Source::Encoding(words) => {
            let (inst, used) = crate::isa::decode(words).map_err(|e| e.to_string())?;
            if used != words.len() {
                return Err(format!("the encoding has {} dword(s), the instruction {used}", words.len()));
            }
            Ok(inst)
        }
    }
}

/// Runs a parsed program on `backend`, instruction by instruction, and gives the output object
/// ([`output`]). After each instruction, `check(backend, exec)` (`exec` the EXEC mask it ran
/// under) may refuse it, as the harness does where model and RTL parted. An error names the
/// failing instruction's index and text and the rule; nothing of that instruction is applied,
/// the instructions before it were.
pub fn run<B: super::Backend>(
    program: &Program,
    backend: &mut B,
    mut check: impl FnMut(&mut B, u64) -> Result<(), String>,
) -> Result<Value, String> {
    let mut wave = program.wave.clone();
    for (n, source) in program.instructions.iter().enumerate() {
        let name = || format!("instruction {n} (`{}`)", source.text());
        let inst = decode(source).map_err(|e| format!("{}: {e}", name()))?;
        let exec = wave.exec;
        super::run(&mut wave, &inst, backend).map_err(|e| format!("{}: {e}", name()))?;
        check(backend, exec).map_err(|e| format!("{}: {e}", name()))?;
    }
    Ok(output(&program.wave, &wave))
}
