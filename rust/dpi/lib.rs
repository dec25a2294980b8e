//! gcn-vmem-dpi: a C ABI over the gcn-vmem models, for DPI-C scoreboards in any SystemVerilog
//! simulator (and for C or C++ programs).
//!
//! Per unit of cosim/units.txt, four functions around a cycle-accurate model handle (the
//! contract of rust/unit.rs's `Unit`: one `step` is one rising clock edge):
//!
//! ```c
//! void *gcn_vmem_<unit>_new(void);                      // a model just out of reset; NULL on failure
//! void  gcn_vmem_<unit>_free(void *handle);             // NULL is a no-op
//! int   gcn_vmem_<unit>_reset(void *handle, int asserted, uint32_t *outputs);  // drives rst_ni
//! int   gcn_vmem_<unit>_step(void *handle, const uint32_t *inputs, uint32_t *outputs);
//! ```
//!
//! Ports travel as packed 32-bit words (SystemVerilog's `svBitVecVal`): the unit's ports in RTL
//! port order, the first port (`valid`) at bit 0, each next port at the bits above the one
//! before; word k holds bits 32k+31..32k. That is the layout of a SystemVerilog packed struct that
//! lists the ports in reverse order, which the generated package declares per unit
//! (`<unit>_in_t`, `<unit>_out_t`), so a bench passes `bit` structs straight to the imports.
//!
//! The C header (gcn_vmem_dpi.h) and the SystemVerilog package (gcn_vmem_dpi_pkg.sv) are
//! generated from [`UNITS`], the one table below, and the function types next to it ([`header`]):
//! `make dpi` writes them into target/dpi/include with the crate's binary
//! `gcn-vmem-dpi-generate DIR` (generate.rs); they are not kept in git.
//!
//! Nothing unwinds across the ABI: every function catches a model panic and returns
//! [`GCN_VMEM_EPANIC`] (the handle is then unusable until freed); a null handle or word pointer
//! returns [`GCN_VMEM_ENULL`]; a handle of another unit returns [`GCN_VMEM_EHANDLE`].
//!
//! Documentation: docs/integrations/dpi.md.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use gcn_vmem_model::unit::{Ports, Signal, Unit};
use gcn_vmem_model::{
    buffer_addr::BufferAddr, coalescer::Coalescer, d16::D16, format_pack::FormatPack, format_unpack::FormatUnpack,
    image_addr::ImageAddr, inline_const::InlineConst, multi_texel::MultiTexel, swizzle::Swizzle, vmem_pipe::VmemPipe,
};

pub mod header;

/// Bumped on any change of a function's signature or of the word layout.
pub const ABI_VERSION: c_int = 1;

/// Success.
pub const GCN_VMEM_OK: c_int = 0;
/// A null handle or a null word pointer.
pub const GCN_VMEM_ENULL: c_int = -1;
/// The handle is not a live handle of this unit: another unit's (a freed one is caught only
/// while its memory still holds the cleared magic; using it is undefined behaviour).
pub const GCN_VMEM_EHANDLE: c_int = -2;
/// The model panicked: a bug in the model. The handle is unusable until freed.
pub const GCN_VMEM_EPANIC: c_int = -3;

/// The return codes: value, C name, message (`gcn_vmem_dpi_strerror`).
pub const ERRORS: &[(c_int, &str, &CStr)] = &[
    (GCN_VMEM_OK, "GCN_VMEM_OK", c"success"),
    (GCN_VMEM_ENULL, "GCN_VMEM_ENULL", c"null handle or null word pointer"),
    (GCN_VMEM_EHANDLE, "GCN_VMEM_EHANDLE", c"not a live handle of this unit"),
    (GCN_VMEM_EPANIC, "GCN_VMEM_EPANIC", c"the model panicked (a model bug); free the handle"),
];

/// Width in bits of a port bundle packed as words.
pub fn bits<P: Ports>() -> u32 {
    P::SIGNALS.iter().map(|s| s.width).sum()
}

/// 32-bit words of a port bundle.
pub fn words<P: Ports>() -> usize {
    bits::<P>().div_ceil(32) as usize
}

/// Writes `width` bits of `value` at bit `lsb` of `words` (whose bits there are 0).
fn put(words: &mut [u32], lsb: u32, width: u32, mut value: u128) {
    let (mut at, mut left) = (lsb, width);
    while left > 0 {
        let (w, b) = ((at / 32) as usize, at % 32);
        let n = left.min(32 - b);
        let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        // Truncation to the low word is the point: the loop walks the value 32 bits at a time.
        words[w] |= (value as u32 & mask) << b;
        value >>= n;
        at += n;
        left -= n;
    }
}

/// Reads `width` bits at bit `lsb` of `words`.
fn take(words: &[u32], lsb: u32, width: u32) -> u128 {
    let (mut at, mut got, mut value) = (lsb, 0u32, 0u128);
    while got < width {
        let (w, b) = ((at / 32) as usize, at % 32);
        let n = (width - got).min(32 - b);
        let mask = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        value |= u128::from((words[w] >> b) & mask) << got;
        at += n;
        got += n;
    }
    value
}

/// A bundle as words: port 0 at bit 0, bits above the last port 0.
pub fn pack<P: Ports>(ports: &P, words: &mut [u32]) {
    words.fill(0);
    let mut lsb = 0;
    for (i, s) in P::SIGNALS.iter().enumerate() {
        put(words, lsb, s.width, ports.get(i) & s.mask());
        lsb += s.width;
    }
}

/// Words as a bundle (bits above the last port are ignored).
pub fn unpack<P: Ports>(words: &[u32]) -> P {
    let mut ports = P::default();
    let mut lsb = 0;
    for (i, s) in P::SIGNALS.iter().enumerate() {
        ports.set(i, take(words, lsb, s.width));
        lsb += s.width;
    }
    ports
}

/// What every handle starts with, whatever its unit: read before the handle's type is trusted.
#[repr(C)]
struct Prefix {
    magic: u32,
    unit: u32,
    poisoned: bool,
}

/// A live handle: [`Prefix`] then the model.
#[repr(C)]
struct Handle<U> {
    prefix: Prefix,
    model: U,
}

const MAGIC: u32 = 0x4756_4d44; // "GVMD"

fn new_handle<U: Unit>(unit: u32, new: fn() -> U) -> *mut c_void {
    catch_unwind(|| {
        Box::into_raw(Box::new(Handle { prefix: Prefix { magic: MAGIC, unit, poisoned: false }, model: new() }))
            .cast::<c_void>()
    })
    .unwrap_or(std::ptr::null_mut())
}

/// The handle behind `ptr` if it is a live handle of `unit`.
///
/// # Safety
/// `ptr` is null or points at least at a [`Prefix`] (a handle from this library).
unsafe fn handle<'a, U>(ptr: *mut c_void, unit: u32) -> Result<&'a mut Handle<U>, c_int> {
    if ptr.is_null() {
        return Err(GCN_VMEM_ENULL);
    }
    // SAFETY: the caller passes a handle of this library; every handle starts with a Prefix.
    let prefix = unsafe { &*ptr.cast::<Prefix>() };
    if prefix.magic != MAGIC || prefix.unit != unit {
        return Err(GCN_VMEM_EHANDLE);
    }
    if prefix.poisoned {
        return Err(GCN_VMEM_EPANIC);
    }
    // SAFETY: magic and unit say it is a live Handle<U>.
    Ok(unsafe { &mut *ptr.cast::<Handle<U>>() })
}

/// # Safety
/// `ptr` is null or a handle from this library not yet freed.
unsafe fn free_handle<U>(unit: u32, ptr: *mut c_void) {
    if ptr.is_null() {
        return;
    }
    // SAFETY: as the caller promises; the prefix is checked before the type is trusted.
    let prefix = unsafe { &mut *ptr.cast::<Prefix>() };
    if prefix.magic != MAGIC || prefix.unit != unit {
        return; // another unit's or a freed handle: leave it rather than free the wrong type
    }
    prefix.magic = 0;
    // SAFETY: a live Handle<U> made by Box::into_raw in new_handle. A panicking Drop is caught.
    let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(ptr.cast::<Handle<U>>()) })));
}

/// # Safety
/// `ptr` as for [`handle`]; `outputs`, when not null, points at `words::<U::Out>()` words.
unsafe fn reset_handle<U: Unit>(unit: u32, ptr: *mut c_void, asserted: c_int, outputs: *mut u32) -> c_int {
    // SAFETY: as the caller promises.
    let h = match unsafe { handle::<U>(ptr, unit) } {
        Ok(h) => h,
        Err(e) => return e,
    };
    if outputs.is_null() {
        return GCN_VMEM_ENULL;
    }
    // SAFETY: as the caller promises.
    let out = unsafe { std::slice::from_raw_parts_mut(outputs, words::<U::Out>()) };
    let model = &mut h.model;
    match catch_unwind(AssertUnwindSafe(|| pack(&model.set_reset(asserted != 0), out))) {
        Ok(()) => GCN_VMEM_OK,
        Err(_) => {
            h.prefix.poisoned = true;
            GCN_VMEM_EPANIC
        }
    }
}

/// # Safety
/// `ptr` as for [`handle`]; `inputs` and `outputs`, when not null, point at `words::<U::In>()`
/// and `words::<U::Out>()` words that do not overlap.
unsafe fn step_handle<U: Unit>(unit: u32, ptr: *mut c_void, inputs: *const u32, outputs: *mut u32) -> c_int {
    // SAFETY: as the caller promises.
    let h = match unsafe { handle::<U>(ptr, unit) } {
        Ok(h) => h,
        Err(e) => return e,
    };
    if inputs.is_null() || outputs.is_null() {
        return GCN_VMEM_ENULL;
    }
    // SAFETY: as the caller promises.
    let (inp, out) = unsafe {
        (
            std::slice::from_raw_parts(inputs, words::<U::In>()),
            std::slice::from_raw_parts_mut(outputs, words::<U::Out>()),
        )
    };
    let model = &mut h.model;
    match catch_unwind(AssertUnwindSafe(|| pack(&model.step(&unpack::<U::In>(inp)), out))) {
        Ok(()) => GCN_VMEM_OK,
        Err(_) => {
            h.prefix.poisoned = true;
            GCN_VMEM_EPANIC
        }
    }
}

/// `gcn_vmem_<unit>_new`: see [`header::NEW`].
pub type NewFn = extern "C" fn() -> *mut c_void;
/// `gcn_vmem_<unit>_free`: see [`header::FREE`].
pub type FreeFn = unsafe extern "C" fn(*mut c_void);
/// `gcn_vmem_<unit>_reset`: see [`header::RESET`].
pub type ResetFn = unsafe extern "C" fn(*mut c_void, c_int, *mut u32) -> c_int;
/// `gcn_vmem_<unit>_step`: see [`header::STEP`].
pub type StepFn = unsafe extern "C" fn(*mut c_void, *const u32, *mut u32) -> c_int;

/// One unit as the ABI exports it.
pub struct UnitAbi {
    /// The unit's one name (cosim/units.txt).
    pub name: &'static str,
    /// The tag its handles carry (unique, non-zero).
    pub tag: u32,
    pub latency: usize,
    pub inputs: &'static [Signal],
    pub outputs: &'static [Signal],
    /// The exported functions, by name and typed.
    pub new: (&'static str, NewFn),
    pub free: (&'static str, FreeFn),
    pub reset: (&'static str, ResetFn),
    pub step: (&'static str, StepFn),
}

impl UnitAbi {
    pub fn in_bits(&self) -> u32 {
        self.inputs.iter().map(|s| s.width).sum()
    }
    pub fn out_bits(&self) -> u32 {
        self.outputs.iter().map(|s| s.width).sum()
    }
}

/// The table: per unit its tag, model type and exported names. It defines the functions and
/// [`UNITS`], from which the header and the package are generated.
macro_rules! units {
    ($( $tag:literal $name:ident: $model:ty { $new:ident, $free:ident, $reset:ident, $step:ident } )*) => {
        $(
            #[doc = concat!("`", stringify!($new), "`: a `", stringify!($name), "` model just out of reset (NULL if it could not be made).")]
            #[no_mangle]
            pub extern "C" fn $new() -> *mut c_void {
                new_handle::<$model>($tag, <$model>::new)
            }

            #[doc = concat!("`", stringify!($free), "`: frees a handle (NULL, or another unit's handle: nothing happens).")]
            ///
            /// # Safety
            /// `handle` is NULL or a handle from this library, not yet freed.
            #[no_mangle]
            pub unsafe extern "C" fn $free(handle: *mut c_void) {
                // SAFETY: as the caller promises.
                unsafe { free_handle::<$model>($tag, handle) }
            }

            #[doc = concat!("`", stringify!($reset), "`: drives rst_ni (asserted != 0: low) and writes the outputs right after.")]
            ///
            /// # Safety
            /// `handle` as for free; `outputs` NULL or the unit's output words.
            #[no_mangle]
            pub unsafe extern "C" fn $reset(handle: *mut c_void, asserted: c_int, outputs: *mut u32) -> c_int {
                // SAFETY: as the caller promises.
                unsafe { reset_handle::<$model>($tag, handle, asserted, outputs) }
            }

            #[doc = concat!("`", stringify!($step), "`: applies the inputs, one rising edge, writes the outputs after it.")]
            ///
            /// # Safety
            /// `handle` as for free; `inputs` and `outputs` NULL or the unit's input and output
            /// words, not overlapping.
            #[no_mangle]
            pub unsafe extern "C" fn $step(handle: *mut c_void, inputs: *const u32, outputs: *mut u32) -> c_int {
                // SAFETY: as the caller promises.
                unsafe { step_handle::<$model>($tag, handle, inputs, outputs) }
            }
        )*

        /// The exported units, in cosim/units.txt order.
        pub static UNITS: &[UnitAbi] = &[
            $(
                UnitAbi {
                    name: stringify!($name),
                    tag: $tag,
                    latency: <$model as Unit>::LATENCY,
                    inputs: <<$model as Unit>::In as Ports>::SIGNALS,
                    outputs: <<$model as Unit>::Out as Ports>::SIGNALS,
                    new: (stringify!($new), $new),
                    free: (stringify!($free), $free),
                    reset: (stringify!($reset), $reset),
                    step: (stringify!($step), $step),
                },
            )*
        ];
    };
}

units! {
    1 buffer_addr: BufferAddr {
        gcn_vmem_buffer_addr_new, gcn_vmem_buffer_addr_free, gcn_vmem_buffer_addr_reset, gcn_vmem_buffer_addr_step
    }
    2 swizzle: Swizzle { gcn_vmem_swizzle_new, gcn_vmem_swizzle_free, gcn_vmem_swizzle_reset, gcn_vmem_swizzle_step }
    3 format_unpack: FormatUnpack {
        gcn_vmem_format_unpack_new, gcn_vmem_format_unpack_free, gcn_vmem_format_unpack_reset, gcn_vmem_format_unpack_step
    }
    4 format_pack: FormatPack {
        gcn_vmem_format_pack_new, gcn_vmem_format_pack_free, gcn_vmem_format_pack_reset, gcn_vmem_format_pack_step
    }
    5 d16: D16 { gcn_vmem_d16_new, gcn_vmem_d16_free, gcn_vmem_d16_reset, gcn_vmem_d16_step }
    6 image_addr: ImageAddr {
        gcn_vmem_image_addr_new, gcn_vmem_image_addr_free, gcn_vmem_image_addr_reset, gcn_vmem_image_addr_step
    }
    7 multi_texel: MultiTexel {
        gcn_vmem_multi_texel_new, gcn_vmem_multi_texel_free, gcn_vmem_multi_texel_reset, gcn_vmem_multi_texel_step
    }
    8 coalescer: Coalescer {
        gcn_vmem_coalescer_new, gcn_vmem_coalescer_free, gcn_vmem_coalescer_reset, gcn_vmem_coalescer_step
    }
    9 inline_const: InlineConst {
        gcn_vmem_inline_const_new, gcn_vmem_inline_const_free, gcn_vmem_inline_const_reset, gcn_vmem_inline_const_step
    }
    10 vmem_pipe: VmemPipe {
        gcn_vmem_vmem_pipe_new, gcn_vmem_vmem_pipe_free, gcn_vmem_vmem_pipe_reset, gcn_vmem_vmem_pipe_step
    }
}

/// `gcn_vmem_dpi_abi_version`: [`ABI_VERSION`], for a bench to check the library it loaded.
#[no_mangle]
pub extern "C" fn gcn_vmem_dpi_abi_version() -> c_int {
    ABI_VERSION
}

/// `gcn_vmem_dpi_strerror`: a static message for a return code (never NULL).
#[no_mangle]
pub extern "C" fn gcn_vmem_dpi_strerror(code: c_int) -> *const c_char {
    ERRORS.iter().find(|e| e.0 == code).map_or(c"unknown return code".as_ptr(), |e| e.2.as_ptr())
}

#[cfg(test)]
mod tests;
