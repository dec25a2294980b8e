// TEST ONLY: the switch of vmem_pipe's deliberate mutant (cosim/units.txt `mutant=TestBreakLru`).
// The text of `VMEM_TEST_HOOK(vmem_pipe_mut_mode) at compilation-unit scope in
// rtl/vmem_prim_pkg.sv, in the unit's one test build (never in the design): a module of its own,
// bound into vmem_pipe, that reads +TestBreakLru once, at time 0, for
// rtl/test/vmem_pipe_mut_lru.svh, which reads it as vmem_pipe.u_mut_switch.test_break_lru.
/* verilator lint_off DECLFILENAME */  // a test-only module in its hook's file
module vmem_pipe_mut_switch;
  bit test_break_lru;
  initial test_break_lru = $test$plusargs("TestBreakLru") != 0;
endmodule
/* verilator lint_on DECLFILENAME */
bind vmem_pipe vmem_pipe_mut_switch u_mut_switch();
