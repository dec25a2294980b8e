//! Descriptor fields as constant bit ranges over a bitvec `BitArray` of 64-bit words.
//!
//! Used by: rust/vsharp.rs, rust/tsharp.rs, rust/inline_const.rs, rust/coalescer.rs
//!
//! A descriptor is held as `BitArray<[u64; N], Lsb0>` (array index k is descriptor bit k) and
//! each of its fields is declared once, in the spec table's order, as a [`Field`]: a constant
//! half-open range (`hi:lo` in the spec is `Field::new(lo..hi + 1)`) that lies inside one 64-bit
//! word. [`Field::load_le`] reads it as bitvec's `bits[range].load_le()` does, but from the
//! field's one word with one shift and one mask, so that with the constant range inlined a load
//! compiles to those two instructions. (Through bitvec's generic path, a slice's `load_le` goes
//! through `Domain::minor`/`partial_tail`, which the compiler does not inline: a third of the
//! address models' time in the lockstep loop; docs/perf-history.md.) The tests below prove both
//! reads equal for every field of the V# and the T#; [`Field::store_le`] writes through bitvec.
//!
//! `descriptor!` declares a descriptor from its table, one row per field (its constant, its bit
//! range, the decoded field and its type), and derives the decoded struct and both directions of
//! the conversion from those rows.

use std::ops::Range;

use bitvec::field::BitField as _;
use bitvec::prelude::{BitArray, Lsb0};

/// Bits `lo..hi` of a descriptor, inside one 64-bit word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    lo: u16,
    hi: u16,
}

/// The integer (or `bool`) a field is read into: the field's bits, zero-extended. A field is
/// never wider than its type (each descriptor's decode names the type of each field).
pub trait FieldValue: Copy {
    fn from_field(bits: u64) -> Self;
    fn into_field(self) -> u64;
}

macro_rules! field_value {
    ($($t:ty),*) => {$(
        impl FieldValue for $t {
            #[inline(always)]
            fn from_field(bits: u64) -> Self {
                // The field is no wider than the type: the truncation drops zeros only.
                bits as $t
            }
            #[inline(always)]
            fn into_field(self) -> u64 {
                self as u64
            }
        }
    )*};
}
field_value!(u8, u16, u32, u64);

impl FieldValue for bool {
    #[inline(always)]
    fn from_field(bits: u64) -> Self {
        bits != 0
    }
    #[inline(always)]
    fn into_field(self) -> u64 {
        u64::from(self)
    }
}

impl Field {
    /// The field at bits `range` (half-open). Panics at compile time (fields are constants) when
    /// the range is empty or crosses a 64-bit word.
    pub const fn new(range: Range<usize>) -> Field {
        assert!(range.start < range.end, "a field has at least one bit");
        assert!(range.start / 64 == (range.end - 1) / 64, "a field lies inside one 64-bit word");
        Field { lo: range.start as u16, hi: range.end as u16 }
    }

    /// The one-bit field at bit `k`.
    pub const fn bit(k: usize) -> Field {
        Field::new(k..k + 1)
    }

    /// The field's bits as a range, to index the descriptor's `BitArray` with.
    pub const fn range(self) -> Range<usize> {
        self.lo as usize..self.hi as usize
    }

    /// The field's width in bits.
    pub const fn width(self) -> u32 {
        (self.hi - self.lo) as u32
    }

    /// The field's value, zero-extended: `bits[self.range()].load_le()`, from one word.
    #[inline(always)]
    pub fn load_le<T: FieldValue, const N: usize>(self, bits: &BitArray<[u64; N], Lsb0>) -> T {
        let word = bits.data[usize::from(self.lo / 64)];
        let mask = u64::MAX >> (64 - self.width());
        T::from_field((word >> (self.lo % 64)) & mask)
    }

    /// Writes `value`'s low bits into the field: `bits[self.range()].store_le(value)`.
    pub fn store_le<T: FieldValue, const N: usize>(self, bits: &mut BitArray<[u64; N], Lsb0>, value: T) {
        let v = value.into_field() & (u64::MAX >> (64 - self.width()));
        bits[self.range()].store_le(v);
    }
}

/// One row of a descriptor: a [`Field`] read into a [`FieldValue`], or an array of fields
/// (dst_sel's four) read into an array of values.
pub trait Row<T> {
    fn load<const N: usize>(&self, bits: &BitArray<[u64; N], Lsb0>) -> T;
    fn store<const N: usize>(&self, bits: &mut BitArray<[u64; N], Lsb0>, value: T);
}

impl<T: FieldValue> Row<T> for Field {
    #[inline(always)]
    fn load<const N: usize>(&self, bits: &BitArray<[u64; N], Lsb0>) -> T {
        self.load_le(bits)
    }
    fn store<const N: usize>(&self, bits: &mut BitArray<[u64; N], Lsb0>, value: T) {
        self.store_le(bits, value);
    }
}

impl<T: FieldValue + Default, const K: usize> Row<[T; K]> for [Field; K] {
    #[inline(always)]
    fn load<const N: usize>(&self, bits: &BitArray<[u64; N], Lsb0>) -> [T; K] {
        let mut values = [T::default(); K];
        for (value, field) in values.iter_mut().zip(self) {
            *value = field.load_le(bits);
        }
        values
    }
    fn store<const N: usize>(&self, bits: &mut BitArray<[u64; N], Lsb0>, values: [T; K]) {
        for (field, value) in self.iter().zip(values) {
            field.store_le(bits, value);
        }
    }
}

/// A descriptor as its spec table: each row declares a field's constant (a [`Field`], or an array
/// of them) with its bit range, in the table's order, and the struct field it decodes into. It
/// defines the constants, the struct (every field holding exactly its descriptor bits) and
/// `decode_bits`/`encode_bits` between the struct and the descriptor's `BitArray` (`encode_bits`
/// writes 0 into the bits no row names).
///
/// ```ignore
/// descriptor! {
///     /// A decoded V#.
///     pub struct VSharp(VSharpBits) {
///         /// 47:0, byte address.
///         const BASE: Field = Field::new(0..48) => base: u64;
///     }
/// }
/// ```
macro_rules! descriptor {
    (
        $(#[$meta:meta])*
        pub struct $name:ident($bits:ty) {
            $( $(#[$doc:meta])* const $konst:ident: $kty:ty = $range:expr => $field:ident: $ty:ty; )*
        }
    ) => {
        $( $(#[$doc])* pub const $konst: $kty = $range; )*

        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name {
            $( $(#[$doc])* pub $field: $ty, )*
        }

        impl $name {
            /// Every field, read from the descriptor's bits.
            #[inline]
            pub fn decode_bits(bits: &$bits) -> $name {
                $name { $( $field: $crate::bits::Row::load(&$konst, bits), )* }
            }

            /// The descriptor's bits: every field truncated to its width, the bits no row names 0.
            pub fn encode_bits(&self) -> $bits {
                let mut bits = <$bits>::ZERO;
                $( $crate::bits::Row::store(&$konst, &mut bits, self.$field); )*
                bits
            }
        }
    };
}
pub(crate) use descriptor;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// `f.load_le` equals bitvec's `load_le` of the field's slice, on `bits`.
    pub(crate) fn loads_like_bitvec<const N: usize>(f: Field, bits: &BitArray<[u64; N], Lsb0>) {
        let ours: u64 = f.load_le(bits);
        let bitvec: u64 = bits[f.range()].load_le();
        assert_eq!(ours, bitvec, "field {:?} of {:x?}", f.range(), bits.data);
    }

    #[test]
    fn a_field_reads_its_bits() {
        // 0x...dead_beef in word 0, 0x1234 at bits 64..80 (word 1).
        let b: BitArray<[u64; 2], Lsb0> = BitArray::new([0xdead_beef, 0x1234]);
        assert_eq!(Field::new(0..16).load_le::<u16, 2>(&b), 0xbeef);
        assert_eq!(Field::new(4..12).load_le::<u8, 2>(&b), 0xee);
        assert_eq!(Field::new(64..80).load_le::<u16, 2>(&b), 0x1234);
        assert!(Field::bit(0).load_le::<bool, 2>(&b));
        assert!(!Field::bit(4).load_le::<bool, 2>(&b));
        assert_eq!(Field::new(0..64).load_le::<u64, 2>(&b), 0xdead_beef);
        for (lo, hi) in [(0, 1), (0, 64), (3, 17), (63, 64), (64, 128), (100, 111), (127, 128)] {
            loads_like_bitvec(Field::new(lo..hi), &b);
        }
    }

    #[test]
    fn store_writes_only_the_field() {
        let mut b: BitArray<[u64; 2], Lsb0> = BitArray::ZERO;
        Field::new(60..64).store_le(&mut b, 0xffu8);
        Field::new(64..66).store_le(&mut b, 1u8);
        assert_eq!(b.data, [0xf000_0000_0000_0000, 1]);
    }
}
