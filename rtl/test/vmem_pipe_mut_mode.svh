// TEST ONLY: the switch of vmem_pipe's deliberate mutant (cosim/units.txt `mutant=TestBreakLru`).
// The text of `VMEM_TEST_HOOK(vmem_pipe_mut_mode) at module level in rtl/vmem_pipe.sv, in the
// unit's one test build (never in the design): +TestBreakLru read once, at time 0, for
// rtl/test/vmem_pipe_mut_lru.svh, which reads it as vmem_pipe.test_break_lru.
bit test_break_lru;
initial test_break_lru = $test$plusargs("TestBreakLru") != 0;
