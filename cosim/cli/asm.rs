//! `gcn-vmem asm`: one instruction (LLVM gfx900 syntax) assembled, its dwords printed; the error
//! (naming the operand or field) on stderr.

use gcn_vmem_model::isa;

#[derive(clap::Args)]
pub struct Args {
    /// The instruction (quoted, or as separate words).
    #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
    text: Vec<String>,
}

pub fn run(args: Args) -> anyhow::Result<bool> {
    Ok(match isa::assemble(&args.text.join(" ")) {
        Ok(inst) => {
            println!("{}", isa::operand::hex_words(&isa::encode(&inst)));
            true
        }
        Err(e) => {
            eprintln!("error: {e}");
            false
        }
    })
}
