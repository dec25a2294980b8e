//! Who computes the per-lane work: the [`Backend`] trait (one batch of lanes per unit and call),
//! [`pipeline`] (a batch through any clocked [`Unit`]) and [`Models`] (the Rust models as the
//! backend; the harness crate plugs in the Verilated RTL, or both in lockstep); and the D16
//! format conversions through the d16 unit that the buffer and image paths share.

use super::state::dwords;
use crate::d16::{OP_LOAD_FORMAT, OP_STORE_FORMAT};
use crate::unit::Unit;
use crate::{buffer_addr, d16, format_pack, format_unpack, image_addr, multi_texel, swizzle};

/// Who computes the per-lane work: one batch of lanes per unit and call, outputs in input order.
pub trait Backend {
    fn buffer_addr(&mut self, inputs: &[buffer_addr::In]) -> Vec<buffer_addr::Out>;
    fn format_unpack(&mut self, inputs: &[format_unpack::In]) -> Vec<format_unpack::Out>;
    fn format_pack(&mut self, inputs: &[format_pack::In]) -> Vec<format_pack::Out>;
    fn swizzle(&mut self, inputs: &[swizzle::In]) -> Vec<swizzle::Out>;
    fn d16(&mut self, inputs: &[d16::In]) -> Vec<d16::Out>;
    fn image_addr(&mut self, inputs: &[image_addr::In]) -> Vec<image_addr::Out>;
    fn multi_texel(&mut self, inputs: &[multi_texel::In]) -> Vec<multi_texel::Out>;
}

/// Implements [`Backend`] for a struct with one field per unit, named like the unit: each unit's
/// method runs its batch as the closure-like body says, with `unit` the unit's field (`&mut`)
/// and `inputs` the batch; the second form also hands it the struct's field `log` (`&mut`).
///
/// ```ignore
/// impl_backend_per_unit!(Models, |unit, inputs| pipeline(unit, inputs));
/// impl_backend_per_unit!(RtlBackend, |log, unit, inputs| log.rtl(unit, inputs));
/// ```
#[macro_export]
macro_rules! impl_backend_per_unit {
    (@methods $ty:ty, $log:tt, |$unit:ident, $inputs:ident| $body:expr, [$($name:ident)*]) => {
        impl $crate::exec::Backend for $ty {
            $(
                fn $name(&mut self, $inputs: &[$crate::$name::In]) -> Vec<$crate::$name::Out> {
                    $crate::impl_backend_per_unit!(@log self $log);
                    let $unit = &mut self.$name;
                    $body
                }
            )*
        }
    };
    (@log $self:ident []) => {};
    (@log $self:ident [$log:ident]) => {
        let $log = &mut $self.log;
    };
    (@units $ty:ty, $log:tt, |$unit:ident, $inputs:ident| $body:expr) => {
        $crate::impl_backend_per_unit!(
            @methods $ty, $log, |$unit, $inputs| $body,
            [buffer_addr format_unpack format_pack swizzle d16 image_addr multi_texel]
        );
    };
    ($ty:ty, |$unit:ident, $inputs:ident| $body:expr) => {
        $crate::impl_backend_per_unit!(@units $ty, [], |$unit, $inputs| $body);
    };
    ($ty:ty, |$log:ident, $unit:ident, $inputs:ident| $body:expr) => {
        $crate::impl_backend_per_unit!(@units $ty, [$log], |$unit, $inputs| $body);
    };
}

/// Drives `inputs` back to back through a clocked unit (any [`Unit`]: a model or an RTL) and
/// returns each one's output, draining the pipeline with idle cycles.
pub fn pipeline<U: Unit>(unit: &mut U, inputs: &[U::In]) -> Vec<U::Out> {
    let lag = U::LATENCY - 1;
    let idle = U::In::default();
    let mut outputs = Vec::with_capacity(inputs.len());
    for (n, input) in inputs.iter().chain(std::iter::repeat_n(&idle, lag)).enumerate() {
        let out = unit.step(input);
        if n >= lag {
            outputs.push(out);
        }
    }
    outputs
}

/// The Rust models as the backend.
#[derive(Default)]
pub struct Models {
    pub buffer_addr: buffer_addr::BufferAddr,
    pub format_unpack: format_unpack::FormatUnpack,
    pub format_pack: format_pack::FormatPack,
    pub swizzle: swizzle::Swizzle,
    pub d16: d16::D16,
    pub image_addr: image_addr::ImageAddr,
    pub multi_texel: multi_texel::MultiTexel,
}

impl_backend_per_unit!(Models, |unit, inputs| pipeline(unit, inputs));

/// SPEC §6, D16 format loads: the d16 unit narrows each lane's swizzled components (`swizzled`,
/// under `nfmt`) to halves, two to a VGPR; returns each lane's data dwords.
pub(super) fn d16_narrow(backend: &mut impl Backend, nfmt: u8, swizzled: &[swizzle::Out]) -> Vec<Vec<u32>> {
    let inputs: Vec<d16::In> = swizzled
        .iter()
        .map(|s| d16::In {
            valid: true,
            op: OP_LOAD_FORMAT,
            hi: false,
            nfmt,
            count: s.result_count,
            data: s.result,
            old: 0,
        })
        .collect();
    backend.d16(&inputs).iter().map(|o| dwords(o.result, o.result_count)).collect()
}

/// SPEC §6, D16 format stores: the d16 unit widens each lane's `count` halves (from its first two
/// data VGPRs, of `data`) to the components, under `nfmt`, that format_pack takes.
pub(super) fn d16_widen(
    backend: &mut impl Backend,
    nfmt: u8,
    count: u8,
    data: impl Iterator<Item = [u32; 4]>,
) -> Vec<u128> {
    let inputs: Vec<d16::In> = data
        .map(|d| d16::In {
            valid: true,
            op: OP_STORE_FORMAT,
            hi: false,
            nfmt,
            count,
            data: u128::from(d[0]) | u128::from(d[1]) << 32,
            old: 0,
        })
        .collect();
    backend.d16(&inputs).iter().map(|o| o.result).collect()
}
