//! The two generated files, from [`crate::UNITS`]: the C header gcn_vmem_dpi.h and the
//! SystemVerilog package gcn_vmem_dpi_pkg.sv. Each function's C prototype and SV import is
//! written once, here, beside the Rust type it declares ([`crate::NewFn`] …). They are build
//! outputs, not sources: `make dpi` writes them into target/dpi/include with the crate's
//! `gcn-vmem-dpi-generate` ([`write`]); nothing in git can go stale.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use gcn_vmem_model::unit::Signal;

use crate::{UnitAbi, ABI_VERSION, ERRORS, UNITS};

/// One exported function of a unit: its C prototype and SystemVerilog import, `{}` the name.
pub struct Shape {
    pub c: &'static str,
    pub sv: &'static str,
}

/// [`crate::NewFn`].
pub const NEW: Shape = Shape { c: "void *{}(void);", sv: "import \"DPI-C\" function chandle {}();" };
/// [`crate::FreeFn`].
pub const FREE: Shape =
    Shape { c: "void {}(void *handle);", sv: "import \"DPI-C\" function void {}(input chandle handle);" };
/// [`crate::ResetFn`]; `{unit}` the unit's name.
pub const RESET: Shape = Shape {
    c: "int {}(void *handle, int asserted, uint32_t *outputs);",
    sv: "import \"DPI-C\" function int {}(input chandle handle, input int asserted, output {unit}_out_t outputs);",
};
/// [`crate::StepFn`]; `{unit}` the unit's name.
pub const STEP: Shape = Shape {
    c: "int {}(void *handle, const uint32_t *inputs, uint32_t *outputs);",
    sv:
        "import \"DPI-C\" function int {}(input chandle handle, input {unit}_in_t inputs, output {unit}_out_t outputs);",
};

/// Where `make dpi` writes them, from the repository root.
pub const MAKE_DIR: &str = "target/dpi/include";

pub(crate) fn fill(template: &str, name: &str, unit: &str) -> String {
    template.replace("{unit}", unit).replace("{}", name)
}

/// `(lsb, signal)` of every port of a bundle, port 0 at bit 0.
fn layout(signals: &[Signal]) -> Vec<(u32, Signal)> {
    let mut lsb = 0;
    signals
        .iter()
        .map(|s| {
            let at = lsb;
            lsb += s.width;
            (at, *s)
        })
        .collect()
}

pub(crate) fn functions(u: &UnitAbi) -> [(&'static Shape, &'static str); 4] {
    [(&NEW, u.new.0), (&FREE, u.free.0), (&RESET, u.reset.0), (&STEP, u.step.0)]
}

/// gcn_vmem_dpi.h.
pub fn c_header() -> String {
    let mut h = String::new();
    let w = &mut h;
    let _ = write!(
        w,
        "\
/* gcn_vmem_dpi.h: the C ABI of the gcn-vmem models (rust/dpi), for DPI-C and for C/C++.
 *
 * GENERATED from the unit table of rust/dpi/lib.rs by `make dpi` (into {MAKE_DIR}); do not
 * edit.
 * Documentation: docs/integrations/dpi.md
 *
 * Per unit, a cycle-accurate model handle (rust/unit.rs's contract: one step is one rising
 * clock edge; outputs are those after it):
 *   void *gcn_vmem_<unit>_new(void)    a model just out of reset, NULL if it could not be made
 *   void  gcn_vmem_<unit>_free(h)      NULL or another unit's handle: nothing happens
 *   int   gcn_vmem_<unit>_reset(h, asserted, outputs)  drives rst_ni (asserted != 0: low) and
 *                                      writes the outputs right after, before any edge
 *   int   gcn_vmem_<unit>_step(h, inputs, outputs)     applies the inputs, one rising edge
 * reset and step return GCN_VMEM_OK or a negative code below; nothing unwinds or aborts.
 *
 * Words: the ports of a bundle in RTL port order, the first port (valid) at bit 0 of word 0,
 * each next port in the bits above; bit b is bit b%32 of word b/32 (SystemVerilog's svBitVecVal
 * layout of a packed vector). Bits above the last port are ignored on input, 0 on output.
 * <UNIT>_IN_<PORT>_LSB / _WIDTH below give each port's place.
 */
#ifndef GCN_VMEM_DPI_H
#define GCN_VMEM_DPI_H

#include <stdint.h>

#ifdef __cplusplus
extern \"C\" {{
#endif

#define GCN_VMEM_DPI_ABI_VERSION {ABI_VERSION}

/* Return codes of reset and step (gcn_vmem_dpi_strerror gives the message). */
"
    );
    for (code, name, message) in ERRORS {
        let _ = writeln!(w, "#define {name} ({code}) /* {} */", message.to_string_lossy());
    }
    let _ = write!(
        w,
        "
int gcn_vmem_dpi_abi_version(void);
const char *gcn_vmem_dpi_strerror(int code);

/* Reads width (<= 64) bits at bit lsb of a word array. */
static inline uint64_t gcn_vmem_dpi_get(const uint32_t *words, unsigned lsb, unsigned width) {{
  uint64_t value = 0;
  for (unsigned i = 0; i < width && i < 64; i++) {{
    unsigned bit = lsb + i;
    value |= (uint64_t)((words[bit / 32] >> (bit % 32)) & 1u) << i;
  }}
  return value;
}}

/* Writes width (<= 64) bits of value at bit lsb of a word array. */
static inline void gcn_vmem_dpi_set(uint32_t *words, unsigned lsb, unsigned width, uint64_t value) {{
  for (unsigned i = 0; i < width && i < 64; i++) {{
    unsigned bit = lsb + i;
    uint32_t mask = 1u << (bit % 32);
    if ((value >> i) & 1u) {{
      words[bit / 32] |= mask;
    }} else {{
      words[bit / 32] &= ~mask;
    }}
  }}
}}
"
    );
    for u in UNITS {
        let up = u.name.to_uppercase();
        let _ = write!(
            w,
            "\n/* ---- {name}: latency {lat}; inputs {ib} bits, outputs {ob} bits ---- */\n\
             #define GCN_VMEM_{up}_LATENCY {lat}\n\
             #define GCN_VMEM_{up}_IN_BITS {ib}\n\
             #define GCN_VMEM_{up}_IN_WORDS {iw}\n\
             #define GCN_VMEM_{up}_OUT_BITS {ob}\n\
             #define GCN_VMEM_{up}_OUT_WORDS {ow}\n",
            name = u.name,
            lat = u.latency,
            ib = u.in_bits(),
            iw = u.in_bits().div_ceil(32),
            ob = u.out_bits(),
            ow = u.out_bits().div_ceil(32),
        );
        for (dir, signals) in [("IN", u.inputs), ("OUT", u.outputs)] {
            for (lsb, s) in layout(signals) {
                let port = s.name.to_uppercase();
                let _ = writeln!(w, "#define GCN_VMEM_{up}_{dir}_{port}_LSB {lsb}");
                let _ = writeln!(w, "#define GCN_VMEM_{up}_{dir}_{port}_WIDTH {}", s.width);
            }
        }
        for (shape, name) in functions(u) {
            let _ = writeln!(w, "{}", fill(shape.c, name, u.name));
        }
    }
    let _ = write!(
        w,
        "
#ifdef __cplusplus
}} /* extern \"C\" */
#endif

#endif /* GCN_VMEM_DPI_H */
"
    );
    h
}

/// gcn_vmem_dpi_pkg.sv.
pub fn sv_package() -> String {
    let mut p = String::new();
    let w = &mut p;
    let _ = write!(
        w,
        "\
// gcn_vmem_dpi_pkg: the DPI-C imports of the gcn-vmem models (rust/dpi) and their port structs.
//
// GENERATED from the unit table of rust/dpi/lib.rs by `make dpi` (into {MAKE_DIR}); do not
// edit.
// Documentation: docs/integrations/dpi.md
//
// Per unit U: U_in_t and U_out_t, packed structs of its ports named like the RTL ports, the first
// port (valid) at bit 0 (so the struct lists them in reverse); and the imports gcn_vmem_U_new,
// _free, _reset (drives rst_ni: asserted != 0 is low) and _step (one rising edge), which return
// 0 or a negative code (gcn_vmem_dpi_strerror). Link the library libgcn_vmem_dpi.

package gcn_vmem_dpi_pkg;

  import \"DPI-C\" function int gcn_vmem_dpi_abi_version();
  import \"DPI-C\" function string gcn_vmem_dpi_strerror(input int code);
"
    );
    for u in UNITS {
        let _ = writeln!(
            w,
            "\n  // {}: latency {}; inputs {} bits, outputs {} bits.",
            u.name,
            u.latency,
            u.in_bits(),
            u.out_bits()
        );
        for (dir, suffix, signals) in [("in", "i", u.inputs), ("out", "o", u.outputs)] {
            let _ = writeln!(w, "  typedef struct packed {{");
            for s in signals.iter().rev() {
                let ty = if s.width == 1 { "bit".to_string() } else { format!("bit [{}:0]", s.width - 1) };
                let _ = writeln!(w, "    {ty} {}_{suffix};", s.name);
            }
            let _ = writeln!(w, "  }} {}_{dir}_t;", u.name);
        }
        for (shape, name) in functions(u) {
            let _ = writeln!(w, "  {}", fill(shape.sv, name, u.name));
        }
    }
    let _ = write!(w, "\nendpackage : gcn_vmem_dpi_pkg\n");
    p
}

/// The generated files: their names and texts.
pub fn files() -> [(&'static str, String); 2] {
    [("gcn_vmem_dpi.h", c_header()), ("gcn_vmem_dpi_pkg.sv", sv_package())]
}

/// Writes both files into `dir` (made if missing) and gives the paths written. A file that
/// already holds its text is left alone, so its time stamp tells make that nothing changed.
pub fn write(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for (name, text) in files() {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(&path, text)?;
            written.push(path);
        }
    }
    Ok(written)
}
