// TEST ONLY: the switch of vmem_pipe's break-asserts corruptions. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_mode) at compilation-unit scope in rtl/vmem_prim_pkg.sv, in the
// unit's one test build (builds=one; never in the design): a module of its own, bound into
// vmem_pipe, that reads +TestBreakAsserts once, at time 0, for the hooks of the sub-blocks
// (rtl/test/vmem_pipe_brk_*.svh), which read it as vmem_pipe.u_brk_switch.test_break_asserts (a
// plusarg test in their always_comb would run every evaluation).
/* verilator lint_off DECLFILENAME */  // a test-only module in its hook's file
module vmem_pipe_brk_switch;
  bit test_break_asserts;
  initial test_break_asserts = $test$plusargs("TestBreakAsserts") != 0;
endmodule
/* verilator lint_on DECLFILENAME */
bind vmem_pipe vmem_pipe_brk_switch u_brk_switch();
