//! `gcn-vmem-dpi-generate DIR`: writes the C header gcn_vmem_dpi.h and the SystemVerilog package
//! gcn_vmem_dpi_pkg.sv, generated from the unit table of lib.rs, into DIR (`make dpi`:
//! target/dpi/include). A file that already holds its text is left alone. Exit status 0, or 2
//! with the reason when DIR cannot be written.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let [dir] = args.as_slice() else {
        eprintln!("usage: gcn-vmem-dpi-generate DIR   (writes gcn_vmem_dpi.h and gcn_vmem_dpi_pkg.sv into DIR)");
        return ExitCode::from(2);
    };
    let dir = Path::new(dir);
    match gcn_vmem_dpi::header::write(dir) {
        Ok(written) => {
            for path in written {
                println!("gcn-vmem-dpi-generate: wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: gcn-vmem-dpi-generate: cannot write into {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}
