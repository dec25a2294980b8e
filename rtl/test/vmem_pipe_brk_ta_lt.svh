// TEST ONLY: break-asserts corruptions of vmem_pipe's lane tables (TA). The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_ta_lt) at the end of rtl/vmem_pipe_ta.sv's lane-table
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6):
//  19: a take while the other table is free keeps writing the table it took
//                                                               -> HeldTables_A (next cycle: one
//      table held, and it is the one to write next)
//  37: the step stage's next lane row, when it stays on a group past 0, is read from the
//      group before                                             -> LaneRowRead_A (next cycle)
// Key 23 (StepEndInFlight_A, rtl/test/vmem_pipe_brk_ta.svh) keeps the table of the load whose
// step stage it repeats held here.
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (ib_hdr_q[0].vsharp[11:6])
    6'd19: if (take && !lt_held_q[~lt_w_q]) lt_w_d = lt_w_q;
    6'd23: if (st_inst_done && (wh.kind == PipeLoad) && !wh.glc && !lt_held_q[~st_tab_q] &&
               !vmem_pipe.u_td.stepped_q[wh.id]) begin
      lt_held_d[st_tab_q] = 1'b1;
    end
    6'd37: if (st_act_d && (lt_raddr[1:0] != 2'd0)) lt_raddr[1:0] = lt_raddr[1:0] - 2'd1;
    default: ;
  endcase
end
