//! The interface every unit implements twice: once as a Rust model (this crate's `rust/`) and
//! once as Verilated RTL (`cosim/`). The lockstep driver is generic over [`Unit`], so it cannot
//! tell the two apart.
//!
//! Contract of one [`Unit::step`] call: the inputs are applied, exactly one rising clock edge
//! happens, and the outputs sampled after that edge are returned. A unit with `LATENCY = n`
//! register stages returns the result of the inputs given to call `j` from call `j + n - 1`
//! (valid_o is valid_i delayed by n edges). Data registers load only when the valid that travels
//! with them is 1 and hold otherwise; reset clears every register to 0 (SPEC "Clocking of units",
//! docs/decisions.md).

use std::fmt::Debug;

#[cfg(test)]
pub(crate) mod testing;

/// `if cond { a } else { b }`, SPEC's `cond ? a : b`, with both sides already computed and taken
/// by a conditional move instead of a branch. The models branch as the spec reads everywhere
/// else; this is for the few choices on an input bit that the harness's random stimulus makes a
/// coin toss, where a mispredicted branch costs more than computing both sides, each one
/// measured (docs/perf.md, "Branch hints in the models"). At most ten lines of the models use it.
#[inline(always)]
pub(crate) fn pick<T>(cond: bool, a: T, b: T) -> T {
    std::hint::select_unpredictable(cond, a, b)
}

/// How a port is written in vector files and `eval` (SPEC §13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `true`/`false` (0/1 accepted on input).
    Bool,
    /// A JSON integer (a `"0x…"` string is accepted on input).
    Int,
    /// A `"0x…"` string (an integer is accepted on input when it fits).
    Hex,
    /// A string naming one of the listed codes; the code is its index.
    Enum(&'static [&'static str]),
    /// A JSON integer restricted to the listed values (e.g. `bytes`).
    OneOf(&'static [u32]),
    /// A JSON array of `len` integers of `width` bits each; element i sits at bits
    /// `width*i ..` of the port (e.g. four 32-bit components, four 3-bit dst_sel codes).
    List { width: u32, len: u32 },
}

/// One port of a unit, named like the RTL port without its `_i`/`_o` suffix.
#[derive(Clone, Copy, Debug)]
pub struct Signal {
    pub name: &'static str,
    pub width: u32,
    pub kind: Kind,
}

impl Signal {
    /// All-ones mask of the port's width.
    #[inline]
    pub const fn mask(&self) -> u128 {
        if self.width >= 128 {
            u128::MAX
        } else {
            (1u128 << self.width) - 1
        }
    }

    /// `0`/`1` for one-bit ports, else [`Signal::hex`].
    pub fn text(&self, value: u128) -> String {
        if self.width == 1 {
            (value & 1).to_string()
        } else {
            self.hex(value)
        }
    }

    /// Lowercase hex with exactly as many digits as the port needs, `0x` first.
    pub fn hex(&self, value: u128) -> String {
        let digits = self.width.div_ceil(4).max(1) as usize;
        format!("0x{value:0digits$x}")
    }
}

/// Reads a port value's `"0x…"` text (SPEC §13: case-insensitive, zero-extended) no wider than
/// `width` bits; the inverse of [`Signal::hex`]. The error quotes the text, for the harness's
/// vector files and `eval` objects and the Python module alike.
pub fn parse_hex(text: &str, width: u32) -> Result<u128, String> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .ok_or_else(|| format!("\"{text}\" is not a hex string (expected \"0x…\")"))?;
    if digits.is_empty() {
        return Err(format!("\"{text}\" has no hex digits"));
    }
    let mut value: u128 = 0;
    for ch in digits.chars() {
        let d = ch.to_digit(16).ok_or_else(|| format!("\"{text}\" has a non-hex character '{ch}'"))?;
        if value >> 124 != 0 {
            return Err(format!("\"{text}\" is wider than the field's {width} bits"));
        }
        value = value << 4 | u128::from(d);
    }
    check_width(value, width).map_err(|_| format!("\"{text}\" is wider than the field's {width} bits"))
}

/// The four 32-bit words of a 128-bit port, word 0 = bits 31:0.
pub fn words(v: u128) -> [u32; 4] {
    std::array::from_fn(|i| (v >> (32 * i)) as u32)
}

/// The inverse of [`words`]: word i at bits 32i+31:32i.
pub fn from_words(w: [u32; 4]) -> u128 {
    w.iter().enumerate().fold(0, |acc, (i, &x)| acc | u128::from(x) << (32 * i))
}

/// `value` if it fits `width` bits; else an error naming it and the field's maximum.
pub fn check_width(value: u128, width: u32) -> Result<u128, String> {
    if width < 128 && value >> width != 0 {
        Err(format!("{value} does not fit the field's {width} bits (max {})", (1u128 << width) - 1))
    } else {
        Ok(value)
    }
}

/// A unit's input or output bundle, addressable port by port.
pub trait Ports: Copy + Default + PartialEq + Debug + Send + 'static {
    /// The ports in RTL port-list order; `valid` is always first.
    const SIGNALS: &'static [Signal];
    fn get(&self, index: usize) -> u128;
    /// Sets a port; bits above its width are dropped.
    fn set(&mut self, index: usize, value: u128);

    /// `name=value` for every port, in order (see [`Signal::text`]): the form used in traces
    /// and mismatch lines.
    fn render(&self) -> String {
        let mut text = String::new();
        for (i, s) in Self::SIGNALS.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(s.name);
            text.push('=');
            text.push_str(&s.text(self.get(i)));
        }
        text
    }
}

/// Conversion of a port field to and from raw bits, and the port a field of the type is when
/// [`ports!`](crate::ports) names no width or kind for it.
pub trait Bits: Copy {
    /// The type's bits: the port's width unless one is given.
    const WIDTH: u32;
    /// [`Kind::Bool`] for `bool`, [`Kind::Int`] for the integers, unless a kind is given.
    const KIND: Kind;
    fn to_bits(self) -> u128;
    fn from_bits(bits: u128) -> Self;
}

impl Bits for bool {
    const WIDTH: u32 = 1;
    const KIND: Kind = Kind::Bool;
    #[inline]
    fn to_bits(self) -> u128 {
        u128::from(self)
    }
    #[inline]
    fn from_bits(bits: u128) -> Self {
        bits & 1 != 0
    }
}

macro_rules! bits_for_uint {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            const WIDTH: u32 = <$t>::BITS;
            const KIND: Kind = Kind::Int;
            #[inline]
            fn to_bits(self) -> u128 {
                self as u128
            }
            #[inline]
            fn from_bits(bits: u128) -> Self {
                // Truncation to the field is the point: callers mask to the port width first.
                bits as $t
            }
        }
    )*};
}
bits_for_uint!(u8, u16, u32, u64, u128);

/// Declares a port bundle: a plain struct plus its [`Ports`] table.
///
/// A port is `name: type`, then its width (`= width`) where it is narrower than the type, then
/// its kind (`, kind`) where it is not the type's: a `bool` is a 1-bit [`Kind::Bool`] port, an
/// integer an [`Kind::Int`] one as wide as the type ([`Bits::WIDTH`], [`Bits::KIND`]).
///
/// ```ignore
/// ports! {
///     /// Inputs of `foo`.
///     pub struct In {
///         valid: bool;                    // 1 bit, Kind::Bool
///         op: u8 = 2, Kind::Enum(OPS);
///         count: u8 = 3;                  // Kind::Int
///         data: u32, Kind::Hex;           // 32 bits
///     }
/// }
/// ```
#[macro_export]
macro_rules! ports {
    (@width $ty:ty) => { <$ty as $crate::unit::Bits>::WIDTH };
    (@width $ty:ty, $width:expr) => { $width };
    (@kind $ty:ty) => { <$ty as $crate::unit::Bits>::KIND };
    (@kind $ty:ty, $kind:expr) => { $kind };
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty $(= $width:expr)? $(, $kind:expr)?; )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $crate::unit::Ports for $name {
            const SIGNALS: &'static [$crate::unit::Signal] = &[
                $(
                    $crate::unit::Signal {
                        name: stringify!($field),
                        width: $crate::ports!(@width $ty $(, $width)?),
                        kind: $crate::ports!(@kind $ty $(, $kind)?),
                    },
                )*
            ];

            #[inline]
            fn get(&self, index: usize) -> u128 {
                let mut i = 0usize;
                $(
                    if index == i {
                        return $crate::unit::Bits::to_bits(self.$field);
                    }
                    i += 1;
                )*
                let _ = i;
                0
            }

            #[inline]
            fn set(&mut self, index: usize, value: u128) {
                let mut i = 0usize;
                $(
                    if index == i {
                        let masked = value & Self::SIGNALS[i].mask();
                        self.$field = $crate::unit::Bits::from_bits(masked);
                        return;
                    }
                    i += 1;
                )*
                let _ = i;
            }
        }
    };
}

/// One clocked unit. Implemented by the Rust model and by the Verilated RTL alike.
pub trait Unit {
    /// The unit's one name (rust/NAME.rs, rtl/NAME.sv, cosim/NAME.*, tests/NAME.rs).
    const NAME: &'static str;
    /// Register stages between inputs and outputs.
    const LATENCY: usize;
    type In: Ports;
    type Out: Ports;

    /// Drives the active-low asynchronous reset `rst_ni` between clock edges and returns the
    /// outputs right after, before any edge. Asserting it clears every register, outputs
    /// included, at once; they stay clear across edges (inputs are ignored) until it is
    /// released, which changes nothing by itself.
    fn set_reset(&mut self, asserted: bool) -> Self::Out;
    /// Applies `input`, raises the clock once, returns the outputs after the edge.
    fn step(&mut self, input: &Self::In) -> Self::Out;

    /// For a unit of fixed latency (a pipeline that shifts on every edge, [`Pipeline`]): the
    /// first register stage after the last edge, the result of that edge's input, which reaches
    /// the outputs `LATENCY − 1` edges later unless a reset clears it first. `None` for a unit
    /// without one (its results wait on a handshake). A harness pairs a result with its input
    /// through it, without remembering inputs in flight.
    #[inline]
    fn computed(&self) -> Option<&Self::Out> {
        None
    }

    /// Asserts reset, holds it across one edge (with all-zero inputs), releases it: every
    /// register, outputs included, is 0 afterwards.
    fn reset(&mut self) {
        self.set_reset(true);
        self.step(&Self::In::default());
        self.set_reset(false);
    }
}

/// The valid bit of a port bundle (always port 0).
pub fn valid_of<P: Ports>(ports: &P) -> bool {
    ports.get(0) & 1 != 0
}

/// The register stages of a unit model that computes its whole function before the first stage:
/// `STAGES` registers of the output bundle. On each edge the valid bits shift by one stage; a
/// stage's data load only when the valid entering it is 1 and hold otherwise; reset clears all
/// (rust/unit.rs's contract, docs/decisions.md "All units").
#[derive(Clone, Copy, Debug)]
pub struct Pipeline<O: Ports, const STAGES: usize> {
    stages: [O; STAGES],
    /// rst_ni is low: every stage stays clear.
    in_reset: bool,
}

impl<O: Ports, const STAGES: usize> Default for Pipeline<O, STAGES> {
    fn default() -> Self {
        Pipeline { stages: [O::default(); STAGES], in_reset: false }
    }
}

impl<O: Ports, const STAGES: usize> Pipeline<O, STAGES> {
    /// [`Unit::set_reset`]: asserting clears every stage, valid and data, and keeps them clear
    /// until released. Returns the last stage.
    #[inline]
    pub fn set_reset(&mut self, asserted: bool) -> O {
        if asserted {
            self.stages = [O::default(); STAGES];
        }
        self.in_reset = asserted;
        self.stages[STAGES - 1]
    }

    /// The first stage: the result the last edge computed (or the stage as that edge left it).
    #[inline]
    pub fn first(&self) -> &O {
        &self.stages[0]
    }

    /// One rising edge. `compute` gives the result of a valid input (it is not called for an
    /// invalid one, nor while reset is asserted); returns the last stage after the edge.
    #[inline]
    pub fn step(&mut self, valid: bool, compute: impl FnOnce() -> O) -> O {
        // While reset is asserted every stage is already clear, and an invalid input keeps it so.
        let valid = valid && !self.in_reset;
        // Later stages first, so each samples the stage before it as it was before the edge.
        for i in (1..STAGES).rev() {
            if valid_of(&self.stages[i - 1]) {
                self.stages[i] = self.stages[i - 1];
            } else {
                self.stages[i].set(0, 0);
            }
        }
        if valid {
            self.stages[0] = compute();
            self.stages[0].set(0, 1);
        } else {
            self.stages[0].set(0, 0);
        }
        self.stages[STAGES - 1]
    }
}

/// Declares the clocked model of a unit whose whole function is its combinational `compute`,
/// ahead of `LATENCY` register stages of the output bundle (a [`Pipeline`]): a public struct
/// with `Clone`, `Debug` and `Default` (the model just out of reset), its `new()`, its [`Unit`]
/// implementation and its [`Covered`](crate::cover::Covered) one.
///
/// It is invoked in the unit's module, which must hold what every pipelined unit's module
/// holds: the port bundles `In` and `Out` (with `valid` their first port), `fn compute(&In) ->
/// Out`, and the coverage bins in `pub mod cover` (`rust/<unit>/cover.rs`, see
/// [`impl_covered!`](crate::cover::impl_covered)). `step` gives `compute` the inputs only when
/// `valid` is 1 and reset is released ([`Pipeline::step`]); `set_reset` is
/// [`Pipeline::set_reset`]. Attributes (doc comments, further derives) go on the struct.
///
/// ```ignore
/// pipelined_unit! {
///     /// The cycle-accurate model: two register stages, compute before stage 1.
///     pub struct Swizzle { NAME: "swizzle", LATENCY: 2 }
/// }
/// ```
macro_rules! pipelined_unit {
    (
        $(#[$meta:meta])*
        pub struct $model:ident { NAME: $name:literal, LATENCY: $latency:literal }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default)]
        pub struct $model {
            /// The register stages, the last one the outputs, each holding the last valid
            /// result to reach it.
            pipe: $crate::unit::Pipeline<Out, $latency>,
        }

        impl $model {
            /// A model just out of reset.
            pub fn new() -> Self {
                Self::default()
            }
        }

        impl $crate::unit::Unit for $model {
            const NAME: &'static str = $name;
            const LATENCY: usize = $latency;
            type In = In;
            type Out = Out;

            #[inline]
            fn set_reset(&mut self, asserted: bool) -> Out {
                self.pipe.set_reset(asserted)
            }

            // Inlined into the harness's lockstep loop (another crate), with `compute`.
            #[inline]
            fn step(&mut self, input: &In) -> Out {
                self.pipe.step(input.valid, || compute(input))
            }

            #[inline]
            fn computed(&self) -> Option<&Out> {
                Some(self.pipe.first())
            }
        }

        $crate::cover::impl_covered!($model);
    };
}
pub(crate) use pipelined_unit;

/// A fixed-latency unit's `eval` object (SPEC §13; [`crate::eval::EvalObject`], behind the
/// `json` feature): its input object is its input ports, its result `compute`'s, and the block
/// renders `$out` (the output bundle holding the result of `$input`) as the output object, with
/// serde_json's `Value` and the module `eval` at hand. In the unit's module, after its
/// `pipelined_unit!`:
///
/// ```ignore
/// eval_object!(InlineConst, |_input, out| eval::object([("bits", Value::from(out.bits))]));
/// ```
macro_rules! eval_object {
    ($model:ident, |$input:pat_param, $out:ident| $body:expr) => {
        #[cfg(feature = "json")]
        const _: () = {
            use serde_json::{Map, Value};

            use $crate::eval::{self, EvalObject};

            impl EvalObject for $model {
                fn result(input: &In) -> Vec<Out> {
                    vec![compute(input)]
                }

                fn object($input: &In, outs: &[Out]) -> Map<String, Value> {
                    let $out = eval::last(outs);
                    $body
                }
            }
        };
    };
}
pub(crate) use eval_object;
