// FORMAL TEST ONLY: a planted bug for `make formal UNIT=vmem_pipe_tcp_bank` (tests/formal.rs), put
// at the hook point `VMEM_TEST_HOOK(vmem_pipe_brk_bank) of rtl/vmem_pipe_tcp_bank.sv (the end of
// its next-state always_comb) with HOOKS=vmem_pipe_brk_bank=formal/test/vmem_pipe_bank_brk_mshr.svh
// instead of the simulation's rtl/test/vmem_pipe_brk_bank.svh (which reads the whole pipe's
// hierarchy: its test switch and the TA's V#). Always on: a miss leaves its MSHR free, so the next
// miss takes the same MSHR while the first one's line read is still at the L2 -> MshrRealloc_A.
if (lk_miss) m_busy_d[free_m] = 1'b0;
