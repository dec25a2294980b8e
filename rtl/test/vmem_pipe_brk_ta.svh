// TEST ONLY: break-asserts corruption of vmem_pipe's TA. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_ta) at the end of rtl/vmem_pipe_ta.sv's step-stage next-state
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6):
//  13: a one-cycle step that starts an instruction moves on to group 2, one group past the one
//      available in the next cycle                               -> StepGroupAvail_A
if (vmem_pipe.test_break_asserts && (ib_hdr_q[0].vsharp[11:6] == 6'd13) && st_start &&
    st_step_done && !st_inst_done) begin
  st_g_d = 2'd2;
end
