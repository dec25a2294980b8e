// TEST ONLY: break-asserts corruptions of vmem_pipe's TA step stage. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_ta) at the end of rtl/vmem_pipe_ta.sv's step-stage next-state
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6):
//  13: a one-cycle step that starts an instruction moves on to group 2, one group past the one
//      available in the next cycle                               -> StepGroupAvail_A
//  22: a bundle presented and not taken moves to the step's other bundle
//                                                               -> BundleStable_A (next cycle)
//  23: the last step of a non-GLC load, the other lane table free (no take waits for this one),
//      is done again: its step stage does not end but repeats
//      the last bundle (its table kept held, rtl/test/vmem_pipe_brk_ta_lt.svh), then ends a
//      second time                                              -> StepEndInFlight_A (the TD
//      has seen that instruction's step end). A non-GLC load, so the repeated accesses hit or
//      merge and nothing reaches the L2 port before.
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (ib_hdr_q[0].vsharp[11:6])
    6'd13: if (st_start && st_step_done && !st_inst_done) st_g_d = 2'd2;
    6'd22: if (bnd_valid_o && !bnd_ready_i) st_b_d = ~wb;
    6'd23: if (st_inst_done && (wh.kind == PipeLoad) && !wh.glc && !lt_held_q[~st_tab_q] &&
               !vmem_pipe.u_td.stepped_q[wh.id]) begin
      st_act_d = 1'b1;
      st_tab_d = st_tab_q;
      st_g_d   = wg;
      st_qd_d  = wq;
      st_b_d   = wb;
    end
    default: ;
  endcase
end
