//! `gcn-vmem decode`: a GFX9 MUBUF/MTBUF/MIMG encoding printed as LLVM prints it; the error
//! (naming the field) on stderr.

use gcn_vmem_model::isa;

#[derive(clap::Args)]
pub struct Args {
    /// The instruction's dwords, first dword first (`0xe0505004 0x01010102`).
    #[arg(required = true, num_args = 1..)]
    words: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    let mut words = Vec::new();
    for token in args.words.iter().flat_map(|a| a.split([' ', ',', '\t'])).filter(|t| !t.is_empty()) {
        let hex = token.strip_prefix("0x").or_else(|| token.strip_prefix("0X")).unwrap_or(token);
        match u32::from_str_radix(hex, 16) {
            Ok(w) if !hex.is_empty() && hex.len() <= 8 => words.push(w),
            _ => {
                eprintln!("error: `{token}` is not a 32-bit hexadecimal dword");
                return Ok(false);
            }
        }
    }
    Ok(match isa::decode(&words) {
        Ok((inst, used)) if used == words.len() => {
            println!("{}", isa::disassemble(&inst));
            true
        }
        Ok((inst, used)) => {
            eprintln!(
                "error: {} is {used} dwords; {} given (decode one instruction at a time)",
                inst.mnemonic(),
                words.len()
            );
            false
        }
        Err(e) => {
            eprintln!("error: {e}");
            false
        }
    })
}
