//! The ABI's tests: the generated files declare every function and port, the table matches cosim/units.txt, the words
//! carry every port, a handle steps exactly as the model does, and no bad call unwinds.

use std::ffi::CStr;
use std::path::Path;

use gcn_vmem_model::unit::{Ports, Unit};

use super::*;

/// xorshift64*: reproducible stimulus without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn wide(&mut self) -> u128 {
        (u128::from(self.next()) << 64) | u128::from(self.next())
    }
}

/// The lines of `text` equal to `line`.
fn count_lines(text: &str, line: &str) -> usize {
    text.lines().filter(|l| l.trim() == line).count()
}

#[test]
fn generated_files_declare_every_function_and_port_once() {
    let (h, sv) = (header::c_header(), header::sv_package());
    for u in UNITS {
        for (shape, name) in header::functions(u) {
            assert_eq!(count_lines(&h, &header::fill(shape.c, name, u.name)), 1, "the header's prototype of {name}");
            assert_eq!(count_lines(&sv, &header::fill(shape.sv, name, u.name)), 1, "the package's import of {name}");
        }
        let up = u.name.to_uppercase();
        for (dir, suffix, signals) in [("IN", "i", u.inputs), ("OUT", "o", u.outputs)] {
            let mut lsb = 0;
            for s in signals {
                let port = s.name.to_uppercase();
                assert_eq!(count_lines(&h, &format!("#define GCN_VMEM_{up}_{dir}_{port}_LSB {lsb}")), 1);
                assert_eq!(count_lines(&h, &format!("#define GCN_VMEM_{up}_{dir}_{port}_WIDTH {}", s.width)), 1);
                let ty = if s.width == 1 { "bit".to_string() } else { format!("bit [{}:0]", s.width - 1) };
                assert!(count_lines(&sv, &format!("{ty} {}_{suffix};", s.name)) >= 1, "{}.{}", u.name, s.name);
                lsb += s.width;
            }
        }
    }
    for (code, name, _) in ERRORS {
        assert!(h.contains(&format!("#define {name} ({code})")), "{name}");
    }
}

#[test]
fn write_puts_both_files_in_the_directory_and_leaves_current_ones_alone() {
    let dir = std::env::temp_dir().join(format!("gcn-vmem-dpi-write-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let written = header::write(&dir).expect("write");
    assert_eq!(written.len(), 2);
    for (name, text) in header::files() {
        assert_eq!(std::fs::read_to_string(dir.join(name)).expect(name), text);
    }
    assert!(header::write(&dir).expect("rewrite").is_empty(), "current files are not rewritten");
    std::fs::write(dir.join("gcn_vmem_dpi.h"), "stale").unwrap();
    assert_eq!(header::write(&dir).expect("rewrite"), vec![dir.join("gcn_vmem_dpi.h")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn table_lists_the_units_of_units_txt_in_order() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cosim/units.txt");
    let text = std::fs::read_to_string(&path).expect("cosim/units.txt");
    let listed: Vec<&str> =
        text.lines().filter_map(|l| l.split('#').next()).filter_map(|l| l.split_whitespace().next()).collect();
    let exported: Vec<&str> = UNITS.iter().map(|u| u.name).collect();
    assert_eq!(exported, listed, "rust/dpi/lib.rs's units! table must list cosim/units.txt's units");
}

#[test]
fn names_and_tags_follow_the_convention() {
    let mut tags: Vec<u32> = UNITS.iter().map(|u| u.tag).collect();
    tags.sort_unstable();
    tags.dedup();
    assert_eq!(tags.len(), UNITS.len(), "tags must be unique");
    assert!(tags[0] != 0);
    for u in UNITS {
        for (name, suffix) in [(u.new.0, "new"), (u.free.0, "free"), (u.reset.0, "reset"), (u.step.0, "step")] {
            assert_eq!(name, format!("gcn_vmem_{}_{suffix}", u.name));
        }
        for s in u.inputs.iter().chain(u.outputs) {
            assert!((1..=128).contains(&s.width), "{}.{}: width {}", u.name, s.name, s.width);
        }
    }
}

#[test]
fn put_and_take_cross_word_boundaries() {
    let mut words = [0u32; 5];
    put(&mut words, 1, 128, u128::MAX);
    assert_eq!(words, [0xffff_fffe, u32::MAX, u32::MAX, u32::MAX, 1]);
    assert_eq!(take(&words, 1, 128), u128::MAX);
    assert_eq!(take(&words, 0, 1), 0);
    let mut words = [0u32; 3];
    put(&mut words, 30, 5, 0b10110);
    assert_eq!(words, [0b10 << 30, 0b101, 0]);
    assert_eq!(take(&words, 30, 5), 0b10110);
}

/// Every port survives pack and unpack, in its place: a bundle with one port set to all ones
/// packs to exactly that port's bits.
fn roundtrip<P: Ports>(rng: &mut Rng) {
    let n = words::<P>();
    let mut lsb = 0;
    for (i, s) in P::SIGNALS.iter().enumerate() {
        let mut one = P::default();
        one.set(i, u128::MAX);
        let mut w = vec![0u32; n];
        pack(&one, &mut w);
        let mut expect = vec![0u32; n];
        put(&mut expect, lsb, s.width, s.mask());
        assert_eq!(w, expect, "port {} at bit {lsb}", s.name);
        lsb += s.width;
    }
    assert_eq!(lsb, bits::<P>());
    for _ in 0..100 {
        let mut p = P::default();
        for i in 0..P::SIGNALS.len() {
            p.set(i, rng.wide());
        }
        let mut w = vec![0u32; n];
        pack(&p, &mut w);
        assert_eq!(unpack::<P>(&w), p);
        if !bits::<P>().is_multiple_of(32) {
            assert_eq!(w[n - 1] >> (bits::<P>() % 32), 0, "bits above the last port are 0");
        }
    }
}

/// A handle stepped through the ABI gives the model's outputs, cycle by cycle, reset included.
fn steps_like_the_model<U: Unit>(abi: &UnitAbi, mut model: U, rng: &mut Rng) {
    let (ni, no) = (words::<U::In>(), words::<U::Out>());
    assert_eq!(ni, abi.in_bits().div_ceil(32) as usize);
    let h = (abi.new.1)();
    assert!(!h.is_null());
    let mut out = vec![0u32; no];
    let mut expect = vec![0u32; no];
    for cycle in 0..2_000 {
        if cycle % 500 == 0 {
            for asserted in [1, 0] {
                // SAFETY: a live handle of this unit and its output words.
                assert_eq!(unsafe { (abi.reset.1)(h, asserted, out.as_mut_ptr()) }, GCN_VMEM_OK);
                pack(&model.set_reset(asserted != 0), &mut expect);
                assert_eq!(out, expect, "{} reset({asserted})", abi.name);
            }
        }
        let mut inp: Vec<u32> = (0..ni).map(|_| rng.next() as u32).collect();
        if rng.next().is_multiple_of(8) {
            inp[0] &= !1; // valid (port 0) low now and then
        }
        // SAFETY: as above, and the input words.
        assert_eq!(unsafe { (abi.step.1)(h, inp.as_ptr(), out.as_mut_ptr()) }, GCN_VMEM_OK);
        pack(&model.step(&unpack::<U::In>(&inp)), &mut expect);
        assert_eq!(out, expect, "{} cycle {cycle}", abi.name);
    }
    // SAFETY: the live handle, freed once.
    unsafe { (abi.free.1)(h) };
}

fn abi(name: &str) -> &'static UnitAbi {
    UNITS.iter().find(|u| u.name == name).expect("unit in the table")
}

#[test]
fn every_unit_roundtrips_and_steps_like_its_model() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    macro_rules! each {
        ($($tag:literal $name:ident: $model:ty { $($function:ident),* })*) => {$(
            roundtrip::<<$model as Unit>::In>(&mut rng);
            roundtrip::<<$model as Unit>::Out>(&mut rng);
            steps_like_the_model(abi(stringify!($name)), <$model>::new(), &mut rng);
        )*};
    }
    with_units!(each);
}

#[test]
fn null_and_foreign_handles_give_codes() {
    let mut words = [0u32; 64];
    let out = words.as_mut_ptr();
    let inp = [0u32; 16];
    // SAFETY: every pointer is null or valid; the handles are this library's.
    unsafe {
        assert_eq!(gcn_vmem_buffer_addr_step(std::ptr::null_mut(), inp.as_ptr(), out), GCN_VMEM_ENULL);
        assert_eq!(gcn_vmem_buffer_addr_reset(std::ptr::null_mut(), 1, out), GCN_VMEM_ENULL);
        gcn_vmem_buffer_addr_free(std::ptr::null_mut());

        let h = gcn_vmem_buffer_addr_new();
        assert_eq!(gcn_vmem_buffer_addr_step(h, std::ptr::null(), out), GCN_VMEM_ENULL);
        assert_eq!(gcn_vmem_buffer_addr_step(h, inp.as_ptr(), std::ptr::null_mut()), GCN_VMEM_ENULL);
        assert_eq!(gcn_vmem_buffer_addr_reset(h, 0, std::ptr::null_mut()), GCN_VMEM_ENULL);

        let s = gcn_vmem_swizzle_new();
        assert_eq!(gcn_vmem_buffer_addr_step(s, inp.as_ptr(), out), GCN_VMEM_EHANDLE);
        assert_eq!(gcn_vmem_swizzle_reset(h, 1, out), GCN_VMEM_EHANDLE);
        gcn_vmem_buffer_addr_free(s); // another unit's: nothing happens
        assert_eq!(gcn_vmem_swizzle_step(s, inp.as_ptr(), out), GCN_VMEM_OK);
        gcn_vmem_swizzle_free(s);
        gcn_vmem_buffer_addr_free(h);
    }
}

#[test]
fn strerror_names_every_code() {
    for (code, _, message) in ERRORS {
        // SAFETY: the function returns a static NUL-terminated string.
        assert_eq!(unsafe { CStr::from_ptr(gcn_vmem_dpi_strerror(*code)) }, *message);
    }
    // SAFETY: as above.
    assert_eq!(unsafe { CStr::from_ptr(gcn_vmem_dpi_strerror(42)) }, c"unknown return code");
    assert_eq!(gcn_vmem_dpi_abi_version(), ABI_VERSION);
}

gcn_vmem_model::ports! {
    /// A test unit's inputs.
    pub struct BoomIn {
        valid: bool;
        x: u8;
    }
}

/// A unit whose step panics on x = 0xff: the panic must come back as a code.
#[derive(Default)]
struct Boom;

impl Unit for Boom {
    const NAME: &'static str = "boom";
    const LATENCY: usize = 1;
    type In = BoomIn;
    type Out = BoomIn;
    fn set_reset(&mut self, _: bool) -> BoomIn {
        BoomIn::default()
    }
    fn step(&mut self, input: &BoomIn) -> BoomIn {
        assert!(input.x != 0xff, "boom");
        *input
    }
}

#[test]
fn a_model_panic_is_a_code_and_poisons_the_handle() {
    const TAG: u32 = 99;
    let h = new_handle::<Boom>(TAG, Boom::default);
    let mut out = [0u32; 1];
    // SAFETY: a live handle of TAG and one-word bundles.
    unsafe {
        assert_eq!(step_handle::<Boom>(TAG, h, [0x2a << 1 | 1].as_ptr(), out.as_mut_ptr()), GCN_VMEM_OK);
        assert_eq!(out[0], 0x2a << 1 | 1);
        assert_eq!(step_handle::<Boom>(TAG, h, [0xff << 1].as_ptr(), out.as_mut_ptr()), GCN_VMEM_EPANIC);
        assert_eq!(step_handle::<Boom>(TAG, h, [0].as_ptr(), out.as_mut_ptr()), GCN_VMEM_EPANIC);
        assert_eq!(reset_handle::<Boom>(TAG, h, 1, out.as_mut_ptr()), GCN_VMEM_EPANIC);
        free_handle::<Boom>(TAG, h);
    }
}
