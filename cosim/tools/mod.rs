//! Drivers of other tools: Yosys ([`yosys`]) for synthesis ([`synth`]), flattened
//! register-to-register paths ([`paths`]), formal equivalence ([`equiv`]), property proofs
//! ([`formal`]) and gate-level netlists ([`gls`]), mutation testing of the RTL ([`mutants`]), and
//! LLVM's assembler as the instruction codec's differential peer ([`llvm`]); what they share around
//! their tool (the scratch folder, the child process) is [`scratch`].

pub mod equiv;
pub mod formal;
pub mod gls;
pub mod llvm;
pub mod mutants;
pub mod paths;
pub mod scratch;
pub mod synth;
pub mod yosys;
