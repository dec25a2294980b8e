// TEST ONLY: the switch of vmem_pipe's break-asserts corruptions. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_mode) at module level in rtl/vmem_pipe.sv, in the unit's one test
// build (builds=one; never in the design: rtl/vmem_prim_pkg.sv): +TestBreakAsserts read once, at
// time 0, for the hooks of the sub-blocks (rtl/test/vmem_pipe_brk_*.svh), which read it as
// vmem_pipe.test_break_asserts (a plusarg test in their always_comb would run every evaluation).
bit test_break_asserts;
initial test_break_asserts = $test$plusargs("TestBreakAsserts") != 0;
