// TEST ONLY: vmem_pipe's deliberate mutant (cosim/units.txt `vmem_pipe mutant=TestBreakLru`). The
// text of `VMEM_TEST_HOOK(vmem_pipe_mut_lru) at the end of rtl/vmem_pipe_tcp_bank.sv's next-state
// always_comb, in the unit's one test build (builds=one: build.rs compiles every hook; never in
// the design: rtl/vmem_prim_pkg.sv). With +TestBreakLru, a hit does not make its entry most
// recently used (its change of the age matrix is undone; misses, merges and store hits still
// touch). The data stays right; a later victim, and so the hits, misses, L2 traffic and timing, differ from the
// contract: a bug only a cycle-level comparison catches (tests/vmem_pipe.rs).
if (vmem_pipe.u_mut_switch.test_break_lru && lk_hit) begin
  ord_d = ord_q;
end
