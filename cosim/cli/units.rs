//! `gcn-vmem units`: the units, one a line.

use gcn_vmem::bindings::UNITS;

pub fn run() -> anyhow::Result<bool> {
    for u in UNITS {
        println!("{u}");
    }
    Ok(true)
}
