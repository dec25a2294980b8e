//! The opcode tables of GFX9's MUBUF, MTBUF and MIMG formats: one row per opcode with its
//! number, its LLVM mnemonic and what the executor needs to know about it.
//!
//! Numbers and mnemonics are those LLVM's AMDGPU back end uses for gfx900 (checked against
//! `llvm-mc-14`: every row here decodes, every number missing from a table is rejected as an
//! invalid encoding), plus `image_gather4h` (AMD's Vega ISA and later LLVM releases; llvm-mc-14
//! does not know it) and the project's own multi-texel loads ([`OWN_MIMG_OPCODES`]).

/// A buffer or image atomic operation: SPEC §10.1's, which the executor runs
/// (rust/exec/atomics.rs). GFX9 has no RSUB, FCMPSWAP, FMIN or FMAX opcode in these
/// formats, so no row of the tables below names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Swap,
    /// data = {src, cmp}: src in the first VGPR(s), cmp in the next.
    Cmpswap,
    Add,
    /// tmp − data.
    Sub,
    /// data − tmp.
    Rsub,
    Smin,
    Umin,
    Smax,
    Umax,
    And,
    Or,
    Xor,
    /// tmp >= data ? 0 : tmp + 1.
    Inc,
    /// (tmp == 0 || tmp > data) ? data : tmp − 1.
    Dec,
    Fcmpswap,
    Fmin,
    Fmax,
}

impl AtomicOp {
    /// Every operation, in declaration order: `ALL[op as usize] == op` (the pipeline's L2 port
    /// carries the index).
    pub const ALL: [AtomicOp; 17] = [
        AtomicOp::Swap,
        AtomicOp::Cmpswap,
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Rsub,
        AtomicOp::Smin,
        AtomicOp::Umin,
        AtomicOp::Smax,
        AtomicOp::Umax,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Inc,
        AtomicOp::Dec,
        AtomicOp::Fcmpswap,
        AtomicOp::Fmin,
        AtomicOp::Fmax,
    ];

    /// The compare-swaps, which take a second operand.
    pub fn compares(self) -> bool {
        matches!(self, AtomicOp::Cmpswap | AtomicOp::Fcmpswap)
    }
}

/// What a MUBUF opcode does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufKind {
    /// Memory → VGPRs (or LDS with `lds` = 1 where [`MubufInfo::lds`] allows it).
    Load,
    /// VGPRs → memory.
    Store,
    /// Read-modify-write; the pre-op value returns into VDATA when GLC = 1.
    Atomic,
    /// BUFFER_STORE_LDS_DWORD: LDS → memory (no VGPR operand; `lds` = 1 required).
    StoreLds,
    /// BUFFER_WBINVL1 / _VOL: a cache invalidation with no operand.
    Invalidate,
}

/// Which half of a VGPR a 16-bit (D16) access uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum D16 {
    /// Full 32-bit VGPR data.
    No,
    /// D16: packed halves (format forms) or the low half (byte/short forms, the high half kept).
    Lo,
    /// D16_HI: the high half (the low half kept).
    Hi,
}

/// What a MIMG opcode does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageKind {
    /// IMAGE_LOAD, _MIP, _PCK, _PCK_SGN, _MIP_PCK, _MIP_PCK_SGN.
    Load,
    /// IMAGE_STORE, _MIP, _PCK, _MIP_PCK.
    Store,
    /// IMAGE_ATOMIC_*.
    Atomic,
    /// IMAGE_GET_RESINFO.
    Resinfo,
    /// IMAGE_SAMPLE_* (uses the S#; semantics outside SPEC.md).
    Sample,
    /// IMAGE_GATHER4* (uses the S#; four texels of one component; semantics outside SPEC.md).
    Gather,
    /// IMAGE_GET_LOD (uses the S#; semantics outside SPEC.md).
    GetLod,
    /// The project's multi-texel loads (SPEC §4.3): BY2, BY4, PCK2, PCK4 and their _MIP forms.
    MultiTexel,
}

/// One MUBUF opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MubufInfo {
    pub op: MubufOp,
    /// OP, bits 24:18 of the first dword.
    pub code: u8,
    pub mnemonic: &'static str,
    pub kind: BufKind,
    /// A FORMAT form: the element's format comes from the V# (dfmt/nfmt), with dst_sel.
    pub format: bool,
    /// Bytes one lane moves for a non-format access (1, 2, 4, 8, 12, 16; atomics 4 or 8);
    /// `None` for FORMAT forms (the V#'s data format decides) and for the operand-less opcodes.
    pub bytes: Option<u8>,
    /// Components: x..xyzw for FORMAT forms, dwords for DWORD forms, 1 for byte, short and
    /// atomics (an _X2 atomic is one 64-bit value); 0 for the operand-less opcodes.
    pub components: u8,
    /// VDATA registers as written in assembly (without TFE's status dword; cmpswap carries
    /// src and cmp).
    pub vgprs: u8,
    pub d16: D16,
    /// Byte and short loads that sign-extend (SBYTE, SSHORT and their D16 forms).
    pub signed: bool,
    /// May load into LDS (`lds` = 1). Seed 000 §8.1.9 lists ubyte, sbyte, ushort, sshort,
    /// dword and format_x; LLVM also accepts dwordx2..x4 (the executor decides).
    pub lds: bool,
    pub atomic: Option<AtomicOp>,
    /// The atomic works on 64-bit values (_X2).
    pub x2: bool,
}

impl MubufInfo {
    pub fn is_load(&self) -> bool {
        self.kind == BufKind::Load
    }
    pub fn is_store(&self) -> bool {
        self.kind == BufKind::Store
    }
    pub fn is_atomic(&self) -> bool {
        self.kind == BufKind::Atomic
    }
    /// Whether the instruction writes VDATA: loads into VGPRs (not LDS), atomics with GLC = 1.
    pub fn returns(&self, glc: bool, lds: bool) -> bool {
        match self.kind {
            BufKind::Load => !lds,
            BufKind::Atomic => glc,
            _ => false,
        }
    }
}

/// One MTBUF opcode (the format comes from the instruction's DFMT and NFMT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MtbufInfo {
    pub op: MtbufOp,
    /// OP, bits 18:15 of the first dword.
    pub code: u8,
    pub mnemonic: &'static str,
    pub store: bool,
    /// x..xyzw.
    pub components: u8,
    /// VDATA registers (D16: two components per register).
    pub vgprs: u8,
    /// D16 forms: packed 16-bit components.
    pub d16: bool,
}

/// One MIMG opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimgInfo {
    pub op: MimgOp,
    /// OP, bits 24:18 of the first dword.
    pub code: u8,
    pub mnemonic: &'static str,
    pub kind: ImageKind,
    /// Takes mipid from the address after the coordinates (_MIP forms).
    pub mip: bool,
    /// Raw component bits without format conversion (_PCK forms, and PCK2/PCK4).
    pub pck: bool,
    /// _PCK_SGN: sign-extended raw bits.
    pub sgn: bool,
    pub atomic: Option<AtomicOp>,
    /// Reads a sampler (S#) from SSAMP; SSAMP must be 0 otherwise.
    pub sampler: bool,
    /// Accepts the D16 bit.
    pub d16: bool,
    /// Address VGPRs LLVM prints for this opcode (GFX9 encodes only the first; assembly may
    /// name any range).
    pub vaddr_print: u8,
    /// Multi-texel group size n (2 or 4) of the project's own loads; 0 for the others.
    pub group: u8,
    /// A project-own opcode (no LLVM encoding; [`OWN_MIMG_OPCODES`]).
    pub own: bool,
}

impl MimgInfo {
    pub fn is_load(&self) -> bool {
        matches!(self.kind, ImageKind::Load | ImageKind::MultiTexel)
    }
    pub fn is_store(&self) -> bool {
        self.kind == ImageKind::Store
    }
    pub fn is_atomic(&self) -> bool {
        self.kind == ImageKind::Atomic
    }
}

/// Defines an opcode enum whose discriminant is its number, the table of its rows (in opcode
/// order, built by `$info(op, code, mnemonic, row)`) and the lookups, from one list of rows.
macro_rules! opcode_table {
    (
        $(#[$meta:meta])*
        pub enum $Op:ident: $Info:ident, $TABLE:ident = $info:ident;
        $( $Var:ident = $code:literal, $mn:literal, $row:expr; )*
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $Op {
            $( $Var = $code, )*
        }

        #[doc = concat!("Every [`", stringify!($Op), "`], in opcode order.")]
        pub const $TABLE: &[$Info] = &[ $( $info($Op::$Var, $code, $mn, $row), )* ];

        impl $Op {
            /// Every opcode, in opcode order.
            pub const ALL: &'static [$Op] = &[$($Op::$Var),*];

            /// The opcode with this number; `None` where the format has none.
            pub fn from_code(code: u8) -> Option<$Op> {
                match code {
                    $( $code => Some($Op::$Var), )*
                    _ => None,
                }
            }

            /// The opcode with this mnemonic (lowercase).
            pub fn from_mnemonic(mnemonic: &str) -> Option<$Op> {
                match mnemonic {
                    $( $mn => Some($Op::$Var), )*
                    _ => None,
                }
            }

            /// The opcode's row of the table.
            pub fn info(self) -> &'static $Info {
                match self {
                    $( $Op::$Var => {
                        const ROW: $Info = $info($Op::$Var, $code, $mn, $row);
                        &ROW
                    } )*
                }
            }

            pub fn code(self) -> u8 {
                self as u8
            }

            pub fn mnemonic(self) -> &'static str {
                self.info().mnemonic
            }
        }

        impl std::fmt::Display for $Op {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.mnemonic())
            }
        }
    };
}

// Row shorthands. Buffer rows: kind, format, bytes, components, vgprs, d16, signed, lds, atomic, x2.
macro_rules! buf {
    (load_fmt $n:literal, $v:literal, $d16:ident, $lds:literal) => {
        buf!(@ BufKind::Load, true, None, $n, $v, D16::$d16, false, $lds, None, false)
    };
    (store_fmt $n:literal, $v:literal, $d16:ident) => {
        buf!(@ BufKind::Store, true, None, $n, $v, D16::$d16, false, false, None, false)
    };
    (load $bytes:literal, $n:literal, $v:literal, $d16:ident, $signed:literal, $lds:literal) => {
        buf!(@ BufKind::Load, false, Some($bytes), $n, $v, D16::$d16, $signed, $lds, None, false)
    };
    (store $bytes:literal, $n:literal, $v:literal, $d16:ident) => {
        buf!(@ BufKind::Store, false, Some($bytes), $n, $v, D16::$d16, false, false, None, false)
    };
    (atomic $a:ident, $v:literal) => {
        buf!(@ BufKind::Atomic, false, Some(4), 1, $v, D16::No, false, false, Some(AtomicOp::$a), false)
    };
    (atomic_x2 $a:ident, $v:literal) => {
        buf!(@ BufKind::Atomic, false, Some(8), 1, $v, D16::No, false, false, Some(AtomicOp::$a), true)
    };
    (@ $kind:expr, $format:expr, $bytes:expr, $n:expr, $v:expr, $d16:expr, $signed:expr, $lds:expr, $atomic:expr, $x2:expr) => {
        MubufRow {
            kind: $kind,
            format: $format,
            bytes: $bytes,
            components: $n,
            vgprs: $v,
            d16: $d16,
            signed: $signed,
            lds: $lds,
            atomic: $atomic,
            x2: $x2,
        }
    };
}

/// The columns of a [`MubufInfo`] row after op, code and mnemonic (the table's shorthand).
#[derive(Clone, Copy)]
struct MubufRow {
    kind: BufKind,
    format: bool,
    bytes: Option<u8>,
    components: u8,
    vgprs: u8,
    d16: D16,
    signed: bool,
    lds: bool,
    atomic: Option<AtomicOp>,
    x2: bool,
}

const fn mubuf_info(op: MubufOp, code: u8, mnemonic: &'static str, r: MubufRow) -> MubufInfo {
    MubufInfo {
        op,
        code,
        mnemonic,
        kind: r.kind,
        format: r.format,
        bytes: r.bytes,
        components: r.components,
        vgprs: r.vgprs,
        d16: r.d16,
        signed: r.signed,
        lds: r.lds,
        atomic: r.atomic,
        x2: r.x2,
    }
}

/// The operand-less rows (cache invalidation, store from LDS).
const NO_DATA: MubufRow = buf!(@ BufKind::Invalidate, false, None, 0, 0, D16::No, false, false, None, false);
const STORE_LDS: MubufRow = buf!(@ BufKind::StoreLds, false, Some(4), 1, 0, D16::No, false, false, None, false);

opcode_table! {
    /// A GFX9 MUBUF opcode (OP, 7 bits); the discriminant is its number.
    pub enum MubufOp: MubufInfo, MUBUF_OPCODES = mubuf_info;
    //                                                      comps vgprs d16  (signed lds)
    LoadFormatX = 0x00, "buffer_load_format_x", buf!(load_fmt 1, 1, No, true);
    LoadFormatXy = 0x01, "buffer_load_format_xy", buf!(load_fmt 2, 2, No, false);
    LoadFormatXyz = 0x02, "buffer_load_format_xyz", buf!(load_fmt 3, 3, No, false);
    LoadFormatXyzw = 0x03, "buffer_load_format_xyzw", buf!(load_fmt 4, 4, No, false);
    StoreFormatX = 0x04, "buffer_store_format_x", buf!(store_fmt 1, 1, No);
    StoreFormatXy = 0x05, "buffer_store_format_xy", buf!(store_fmt 2, 2, No);
    StoreFormatXyz = 0x06, "buffer_store_format_xyz", buf!(store_fmt 3, 3, No);
    StoreFormatXyzw = 0x07, "buffer_store_format_xyzw", buf!(store_fmt 4, 4, No);
    LoadFormatD16X = 0x08, "buffer_load_format_d16_x", buf!(load_fmt 1, 1, Lo, false);
    LoadFormatD16Xy = 0x09, "buffer_load_format_d16_xy", buf!(load_fmt 2, 1, Lo, false);
    LoadFormatD16Xyz = 0x0a, "buffer_load_format_d16_xyz", buf!(load_fmt 3, 2, Lo, false);
    LoadFormatD16Xyzw = 0x0b, "buffer_load_format_d16_xyzw", buf!(load_fmt 4, 2, Lo, false);
    StoreFormatD16X = 0x0c, "buffer_store_format_d16_x", buf!(store_fmt 1, 1, Lo);
    StoreFormatD16Xy = 0x0d, "buffer_store_format_d16_xy", buf!(store_fmt 2, 1, Lo);
    StoreFormatD16Xyz = 0x0e, "buffer_store_format_d16_xyz", buf!(store_fmt 3, 2, Lo);
    StoreFormatD16Xyzw = 0x0f, "buffer_store_format_d16_xyzw", buf!(store_fmt 4, 2, Lo);
    //                                              bytes comps vgprs d16 signed lds
    LoadUbyte = 0x10, "buffer_load_ubyte", buf!(load 1, 1, 1, No, false, true);
    LoadSbyte = 0x11, "buffer_load_sbyte", buf!(load 1, 1, 1, No, true, true);
    LoadUshort = 0x12, "buffer_load_ushort", buf!(load 2, 1, 1, No, false, true);
    LoadSshort = 0x13, "buffer_load_sshort", buf!(load 2, 1, 1, No, true, true);
    LoadDword = 0x14, "buffer_load_dword", buf!(load 4, 1, 1, No, false, true);
    LoadDwordx2 = 0x15, "buffer_load_dwordx2", buf!(load 8, 2, 2, No, false, true);
    LoadDwordx3 = 0x16, "buffer_load_dwordx3", buf!(load 12, 3, 3, No, false, true);
    LoadDwordx4 = 0x17, "buffer_load_dwordx4", buf!(load 16, 4, 4, No, false, true);
    StoreByte = 0x18, "buffer_store_byte", buf!(store 1, 1, 1, No);
    StoreByteD16Hi = 0x19, "buffer_store_byte_d16_hi", buf!(store 1, 1, 1, Hi);
    StoreShort = 0x1a, "buffer_store_short", buf!(store 2, 1, 1, No);
    StoreShortD16Hi = 0x1b, "buffer_store_short_d16_hi", buf!(store 2, 1, 1, Hi);
    StoreDword = 0x1c, "buffer_store_dword", buf!(store 4, 1, 1, No);
    StoreDwordx2 = 0x1d, "buffer_store_dwordx2", buf!(store 8, 2, 2, No);
    StoreDwordx3 = 0x1e, "buffer_store_dwordx3", buf!(store 12, 3, 3, No);
    StoreDwordx4 = 0x1f, "buffer_store_dwordx4", buf!(store 16, 4, 4, No);
    LoadUbyteD16 = 0x20, "buffer_load_ubyte_d16", buf!(load 1, 1, 1, Lo, false, false);
    LoadUbyteD16Hi = 0x21, "buffer_load_ubyte_d16_hi", buf!(load 1, 1, 1, Hi, false, false);
    LoadSbyteD16 = 0x22, "buffer_load_sbyte_d16", buf!(load 1, 1, 1, Lo, true, false);
    LoadSbyteD16Hi = 0x23, "buffer_load_sbyte_d16_hi", buf!(load 1, 1, 1, Hi, true, false);
    LoadShortD16 = 0x24, "buffer_load_short_d16", buf!(load 2, 1, 1, Lo, false, false);
    LoadShortD16Hi = 0x25, "buffer_load_short_d16_hi", buf!(load 2, 1, 1, Hi, false, false);
    LoadFormatD16HiX = 0x26, "buffer_load_format_d16_hi_x", buf!(load_fmt 1, 1, Hi, false);
    StoreFormatD16HiX = 0x27, "buffer_store_format_d16_hi_x", buf!(store_fmt 1, 1, Hi);
    StoreLdsDword = 0x3d, "buffer_store_lds_dword", STORE_LDS;
    Wbinvl1 = 0x3e, "buffer_wbinvl1", NO_DATA;
    Wbinvl1Vol = 0x3f, "buffer_wbinvl1_vol", NO_DATA;
    //                                                  vgprs (cmpswap: src and cmp)
    AtomicSwap = 0x40, "buffer_atomic_swap", buf!(atomic Swap, 1);
    AtomicCmpswap = 0x41, "buffer_atomic_cmpswap", buf!(atomic Cmpswap, 2);
    AtomicAdd = 0x42, "buffer_atomic_add", buf!(atomic Add, 1);
    AtomicSub = 0x43, "buffer_atomic_sub", buf!(atomic Sub, 1);
    AtomicSmin = 0x44, "buffer_atomic_smin", buf!(atomic Smin, 1);
    AtomicUmin = 0x45, "buffer_atomic_umin", buf!(atomic Umin, 1);
    AtomicSmax = 0x46, "buffer_atomic_smax", buf!(atomic Smax, 1);
    AtomicUmax = 0x47, "buffer_atomic_umax", buf!(atomic Umax, 1);
    AtomicAnd = 0x48, "buffer_atomic_and", buf!(atomic And, 1);
    AtomicOr = 0x49, "buffer_atomic_or", buf!(atomic Or, 1);
    AtomicXor = 0x4a, "buffer_atomic_xor", buf!(atomic Xor, 1);
    AtomicInc = 0x4b, "buffer_atomic_inc", buf!(atomic Inc, 1);
    AtomicDec = 0x4c, "buffer_atomic_dec", buf!(atomic Dec, 1);
    AtomicSwapX2 = 0x60, "buffer_atomic_swap_x2", buf!(atomic_x2 Swap, 2);
    AtomicCmpswapX2 = 0x61, "buffer_atomic_cmpswap_x2", buf!(atomic_x2 Cmpswap, 4);
    AtomicAddX2 = 0x62, "buffer_atomic_add_x2", buf!(atomic_x2 Add, 2);
    AtomicSubX2 = 0x63, "buffer_atomic_sub_x2", buf!(atomic_x2 Sub, 2);
    AtomicSminX2 = 0x64, "buffer_atomic_smin_x2", buf!(atomic_x2 Smin, 2);
    AtomicUminX2 = 0x65, "buffer_atomic_umin_x2", buf!(atomic_x2 Umin, 2);
    AtomicSmaxX2 = 0x66, "buffer_atomic_smax_x2", buf!(atomic_x2 Smax, 2);
    AtomicUmaxX2 = 0x67, "buffer_atomic_umax_x2", buf!(atomic_x2 Umax, 2);
    AtomicAndX2 = 0x68, "buffer_atomic_and_x2", buf!(atomic_x2 And, 2);
    AtomicOrX2 = 0x69, "buffer_atomic_or_x2", buf!(atomic_x2 Or, 2);
    AtomicXorX2 = 0x6a, "buffer_atomic_xor_x2", buf!(atomic_x2 Xor, 2);
    AtomicIncX2 = 0x6b, "buffer_atomic_inc_x2", buf!(atomic_x2 Inc, 2);
    AtomicDecX2 = 0x6c, "buffer_atomic_dec_x2", buf!(atomic_x2 Dec, 2);
}

/// The columns of a [`MtbufInfo`] row after op, code and mnemonic (the table's shorthand).
#[derive(Clone, Copy)]
struct MtbufRow {
    store: bool,
    components: u8,
    vgprs: u8,
    d16: bool,
}

const fn mtbuf_info(op: MtbufOp, code: u8, mnemonic: &'static str, r: MtbufRow) -> MtbufInfo {
    MtbufInfo { op, code, mnemonic, store: r.store, components: r.components, vgprs: r.vgprs, d16: r.d16 }
}

// MTBUF row shorthand: load/store, components, VDATA registers, D16.
macro_rules! tbuf {
    ($store:literal, $n:literal, $v:literal, $d16:literal) => {
        MtbufRow { store: $store, components: $n, vgprs: $v, d16: $d16 }
    };
}

opcode_table! {
    /// A GFX9 MTBUF opcode (OP, 4 bits: all sixteen are assigned); the discriminant is its number.
    pub enum MtbufOp: MtbufInfo, MTBUF_OPCODES = mtbuf_info;
    //                                                  store  comps vgprs d16
    LoadFormatX = 0x0, "tbuffer_load_format_x", tbuf!(false, 1, 1, false);
    LoadFormatXy = 0x1, "tbuffer_load_format_xy", tbuf!(false, 2, 2, false);
    LoadFormatXyz = 0x2, "tbuffer_load_format_xyz", tbuf!(false, 3, 3, false);
    LoadFormatXyzw = 0x3, "tbuffer_load_format_xyzw", tbuf!(false, 4, 4, false);
    StoreFormatX = 0x4, "tbuffer_store_format_x", tbuf!(true, 1, 1, false);
    StoreFormatXy = 0x5, "tbuffer_store_format_xy", tbuf!(true, 2, 2, false);
    StoreFormatXyz = 0x6, "tbuffer_store_format_xyz", tbuf!(true, 3, 3, false);
    StoreFormatXyzw = 0x7, "tbuffer_store_format_xyzw", tbuf!(true, 4, 4, false);
    LoadFormatD16X = 0x8, "tbuffer_load_format_d16_x", tbuf!(false, 1, 1, true);
    LoadFormatD16Xy = 0x9, "tbuffer_load_format_d16_xy", tbuf!(false, 2, 1, true);
    LoadFormatD16Xyz = 0xa, "tbuffer_load_format_d16_xyz", tbuf!(false, 3, 2, true);
    LoadFormatD16Xyzw = 0xb, "tbuffer_load_format_d16_xyzw", tbuf!(false, 4, 2, true);
    StoreFormatD16X = 0xc, "tbuffer_store_format_d16_x", tbuf!(true, 1, 1, true);
    StoreFormatD16Xy = 0xd, "tbuffer_store_format_d16_xy", tbuf!(true, 2, 1, true);
    StoreFormatD16Xyz = 0xe, "tbuffer_store_format_d16_xyz", tbuf!(true, 3, 2, true);
    StoreFormatD16Xyzw = 0xf, "tbuffer_store_format_d16_xyzw", tbuf!(true, 4, 2, true);
}

// MIMG row shorthands: kind, mip, pck, sgn, atomic, sampler, d16, vaddr_print, group, own.
macro_rules! img {
    (load $mip:literal, $pck:literal, $sgn:literal, $d16:literal) => {
        img!(@ Load, $mip, $pck, $sgn, None, false, $d16, 1, 0, false)
    };
    (store $mip:literal, $pck:literal, $d16:literal) => {
        img!(@ Store, $mip, $pck, false, None, false, $d16, 1, 0, false)
    };
    (atomic $a:ident) => {
        img!(@ Atomic, false, false, false, Some(AtomicOp::$a), false, false, 1, 0, false)
    };
    (sample $vaddr:literal) => {
        img!(@ Sample, false, false, false, None, true, true, $vaddr, 0, false)
    };
    (gather $vaddr:literal) => {
        img!(@ Gather, false, false, false, None, true, true, $vaddr, 0, false)
    };
    (own $mip:literal, $pck:literal, $n:literal) => {
        img!(@ MultiTexel, $mip, $pck, false, None, false, true, 1, $n, true)
    };
    (@ $kind:ident, $mip:expr, $pck:expr, $sgn:expr, $atomic:expr, $sampler:expr, $d16:expr, $vaddr:expr, $group:expr, $own:expr) => {
        MimgRow {
            kind: ImageKind::$kind,
            mip: $mip,
            pck: $pck,
            sgn: $sgn,
            atomic: $atomic,
            sampler: $sampler,
            d16: $d16,
            vaddr_print: $vaddr,
            group: $group,
            own: $own,
        }
    };
}

/// The columns of a [`MimgInfo`] row after op, code and mnemonic (the table's shorthand).
#[derive(Clone, Copy)]
struct MimgRow {
    kind: ImageKind,
    mip: bool,
    pck: bool,
    sgn: bool,
    atomic: Option<AtomicOp>,
    sampler: bool,
    d16: bool,
    vaddr_print: u8,
    group: u8,
    own: bool,
}

const fn mimg_info(op: MimgOp, code: u8, mnemonic: &'static str, r: MimgRow) -> MimgInfo {
    MimgInfo {
        op,
        code,
        mnemonic,
        kind: r.kind,
        mip: r.mip,
        pck: r.pck,
        sgn: r.sgn,
        atomic: r.atomic,
        sampler: r.sampler,
        d16: r.d16,
        vaddr_print: r.vaddr_print,
        group: r.group,
        own: r.own,
    }
}

const RESINFO: MimgRow = img!(@ Resinfo, false, false, false, None, false, false, 1, 0, false);
const GET_LOD: MimgRow = img!(@ GetLod, false, false, false, None, true, false, 1, 0, false);

opcode_table! {
    /// A GFX9 MIMG opcode (OP, 7 bits), or one of the project's own ([`OWN_MIMG_OPCODES`]); the
    /// discriminant is its number.
    pub enum MimgOp: MimgInfo, MIMG_OPCODES = mimg_info;
    //                                               mip    pck    sgn    d16
    Load = 0x00, "image_load", img!(load false, false, false, true);
    LoadMip = 0x01, "image_load_mip", img!(load true, false, false, true);
    LoadPck = 0x02, "image_load_pck", img!(load false, true, false, false);
    LoadPckSgn = 0x03, "image_load_pck_sgn", img!(load false, true, true, false);
    LoadMipPck = 0x04, "image_load_mip_pck", img!(load true, true, false, false);
    LoadMipPckSgn = 0x05, "image_load_mip_pck_sgn", img!(load true, true, true, false);
    Store = 0x08, "image_store", img!(store false, false, true);
    StoreMip = 0x09, "image_store_mip", img!(store true, false, true);
    StorePck = 0x0a, "image_store_pck", img!(store false, true, false);
    StoreMipPck = 0x0b, "image_store_mip_pck", img!(store true, true, false);
    GetResinfo = 0x0e, "image_get_resinfo", RESINFO;
    AtomicSwap = 0x10, "image_atomic_swap", img!(atomic Swap);
    AtomicCmpswap = 0x11, "image_atomic_cmpswap", img!(atomic Cmpswap);
    AtomicAdd = 0x12, "image_atomic_add", img!(atomic Add);
    AtomicSub = 0x13, "image_atomic_sub", img!(atomic Sub);
    AtomicSmin = 0x14, "image_atomic_smin", img!(atomic Smin);
    AtomicUmin = 0x15, "image_atomic_umin", img!(atomic Umin);
    AtomicSmax = 0x16, "image_atomic_smax", img!(atomic Smax);
    AtomicUmax = 0x17, "image_atomic_umax", img!(atomic Umax);
    AtomicAnd = 0x18, "image_atomic_and", img!(atomic And);
    AtomicOr = 0x19, "image_atomic_or", img!(atomic Or);
    AtomicXor = 0x1a, "image_atomic_xor", img!(atomic Xor);
    AtomicInc = 0x1b, "image_atomic_inc", img!(atomic Inc);
    AtomicDec = 0x1c, "image_atomic_dec", img!(atomic Dec);
    //                                        address VGPRs LLVM prints
    Sample = 0x20, "image_sample", img!(sample 1);
    SampleCl = 0x21, "image_sample_cl", img!(sample 1);
    SampleD = 0x22, "image_sample_d", img!(sample 2);
    SampleDCl = 0x23, "image_sample_d_cl", img!(sample 2);
    SampleL = 0x24, "image_sample_l", img!(sample 1);
    SampleB = 0x25, "image_sample_b", img!(sample 2);
    SampleBCl = 0x26, "image_sample_b_cl", img!(sample 2);
    SampleLz = 0x27, "image_sample_lz", img!(sample 1);
    SampleC = 0x28, "image_sample_c", img!(sample 2);
    SampleCCl = 0x29, "image_sample_c_cl", img!(sample 2);
    SampleCD = 0x2a, "image_sample_c_d", img!(sample 3);
    SampleCDCl = 0x2b, "image_sample_c_d_cl", img!(sample 3);
    SampleCL = 0x2c, "image_sample_c_l", img!(sample 2);
    SampleCB = 0x2d, "image_sample_c_b", img!(sample 3);
    SampleCBCl = 0x2e, "image_sample_c_b_cl", img!(sample 3);
    SampleCLz = 0x2f, "image_sample_c_lz", img!(sample 2);
    SampleO = 0x30, "image_sample_o", img!(sample 2);
    SampleClO = 0x31, "image_sample_cl_o", img!(sample 2);
    SampleDO = 0x32, "image_sample_d_o", img!(sample 3);
    SampleDClO = 0x33, "image_sample_d_cl_o", img!(sample 3);
    SampleLO = 0x34, "image_sample_l_o", img!(sample 2);
    SampleBO = 0x35, "image_sample_b_o", img!(sample 3);
    SampleBClO = 0x36, "image_sample_b_cl_o", img!(sample 3);
    SampleLzO = 0x37, "image_sample_lz_o", img!(sample 2);
    SampleCO = 0x38, "image_sample_c_o", img!(sample 3);
    SampleCClO = 0x39, "image_sample_c_cl_o", img!(sample 3);
    SampleCDO = 0x3a, "image_sample_c_d_o", img!(sample 4);
    SampleCDClO = 0x3b, "image_sample_c_d_cl_o", img!(sample 4);
    SampleCLO = 0x3c, "image_sample_c_l_o", img!(sample 3);
    SampleCBO = 0x3d, "image_sample_c_b_o", img!(sample 4);
    SampleCBClO = 0x3e, "image_sample_c_b_cl_o", img!(sample 4);
    SampleCLzO = 0x3f, "image_sample_c_lz_o", img!(sample 3);
    Gather4 = 0x40, "image_gather4", img!(gather 1);
    Gather4Cl = 0x41, "image_gather4_cl", img!(gather 1);
    Gather4h = 0x42, "image_gather4h", img!(gather 1);
    Gather4L = 0x44, "image_gather4_l", img!(gather 1);
    Gather4B = 0x45, "image_gather4_b", img!(gather 2);
    Gather4BCl = 0x46, "image_gather4_b_cl", img!(gather 2);
    Gather4Lz = 0x47, "image_gather4_lz", img!(gather 1);
    Gather4C = 0x48, "image_gather4_c", img!(gather 2);
    Gather4CCl = 0x49, "image_gather4_c_cl", img!(gather 2);
    Gather4CL = 0x4c, "image_gather4_c_l", img!(gather 2);
    Gather4CB = 0x4d, "image_gather4_c_b", img!(gather 3);
    Gather4CBCl = 0x4e, "image_gather4_c_b_cl", img!(gather 3);
    Gather4CLz = 0x4f, "image_gather4_c_lz", img!(gather 2);
    Gather4O = 0x50, "image_gather4_o", img!(gather 2);
    Gather4ClO = 0x51, "image_gather4_cl_o", img!(gather 2);
    Gather4LO = 0x54, "image_gather4_l_o", img!(gather 2);
    Gather4BO = 0x55, "image_gather4_b_o", img!(gather 3);
    Gather4BClO = 0x56, "image_gather4_b_cl_o", img!(gather 3);
    Gather4LzO = 0x57, "image_gather4_lz_o", img!(gather 2);
    Gather4CO = 0x58, "image_gather4_c_o", img!(gather 3);
    Gather4CClO = 0x59, "image_gather4_c_cl_o", img!(gather 3);
    Gather4CLO = 0x5c, "image_gather4_c_l_o", img!(gather 3);
    Gather4CBO = 0x5d, "image_gather4_c_b_o", img!(gather 4);
    Gather4CBClO = 0x5e, "image_gather4_c_b_cl_o", img!(gather 4);
    Gather4CLzO = 0x5f, "image_gather4_c_lz_o", img!(gather 3);
    GetLod = 0x60, "image_get_lod", GET_LOD;
    SampleCd = 0x68, "image_sample_cd", img!(sample 2);
    SampleCdCl = 0x69, "image_sample_cd_cl", img!(sample 2);
    SampleCCd = 0x6a, "image_sample_c_cd", img!(sample 3);
    SampleCCdCl = 0x6b, "image_sample_c_cd_cl", img!(sample 3);
    SampleCdO = 0x6c, "image_sample_cd_o", img!(sample 3);
    SampleCdClO = 0x6d, "image_sample_cd_cl_o", img!(sample 3);
    SampleCCdO = 0x6e, "image_sample_c_cd_o", img!(sample 4);
    SampleCCdClO = 0x6f, "image_sample_c_cd_cl_o", img!(sample 4);
    //                                                      mip    pck    n
    LoadBy2 = 0x70, "image_load_by2", img!(own false, false, 2);
    LoadBy4 = 0x71, "image_load_by4", img!(own false, false, 4);
    LoadPck2 = 0x72, "image_load_pck2", img!(own false, true, 2);
    LoadPck4 = 0x73, "image_load_pck4", img!(own false, true, 4);
    LoadMipBy2 = 0x74, "image_load_mip_by2", img!(own true, false, 2);
    LoadMipBy4 = 0x75, "image_load_mip_by4", img!(own true, false, 4);
    LoadMipPck2 = 0x76, "image_load_mip_pck2", img!(own true, true, 2);
    LoadMipPck4 = 0x77, "image_load_mip_pck4", img!(own true, true, 4);
}

/// The project's own MIMG opcodes: the multi-texel loads of SPEC §4.3 (seed 002) have no GFX9 or
/// LLVM encoding, so they take the slots 0x70–0x77, which GFX9 leaves unassigned: llvm-mc-14
/// (`-mcpu=gfx900 --disassemble`) rejects every one of them as an invalid instruction encoding
/// (tests/isa_llvm.rs checks it), AMD's Vega ISA lists no MIMG opcode above 0x6f, and later
/// LLVM releases assign none there for GFX9. Non-MIP forms first, each group BY2, BY4, PCK2,
/// PCK4 (the MIP form of code c is c + 4). Their assembly follows image_load's: vdata is DMASK's
/// count of dwords, one address VGPR printed, no sampler.
pub const OWN_MIMG_OPCODES: &[(MimgOp, u8, &str)] = &[
    (MimgOp::LoadBy2, 0x70, "image_load_by2"),
    (MimgOp::LoadBy4, 0x71, "image_load_by4"),
    (MimgOp::LoadPck2, 0x72, "image_load_pck2"),
    (MimgOp::LoadPck4, 0x73, "image_load_pck4"),
    (MimgOp::LoadMipBy2, 0x74, "image_load_mip_by2"),
    (MimgOp::LoadMipBy4, 0x75, "image_load_mip_by4"),
    (MimgOp::LoadMipPck2, 0x76, "image_load_mip_pck2"),
    (MimgOp::LoadMipPck4, 0x77, "image_load_mip_pck4"),
];

#[cfg(test)]
mod tests {
    use super::AtomicOp;

    #[test]
    fn all_is_in_declaration_order() {
        for (i, op) in AtomicOp::ALL.iter().enumerate() {
            assert_eq!(*op as usize, i, "{op:?}");
        }
    }
}
