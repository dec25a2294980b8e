// TEST ONLY: break-asserts corruptions of vmem_pipe's TD. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_td) at the end of rtl/vmem_pipe_td.sv's next-state always_comb,
// in the unit's one test build (never in the design). Off unless +TestBreakAsserts; then the
// program's key (its V#'s base address bits 11:6, as rtl/test/vmem_pipe_brk_bank.svh) picks one:
//   9: an idle done has bit 0 of its conflicts set               -> DoneIdleZero_A
// (Key 10, TakeFree_A, is in rtl/test/vmem_pipe_brk_ta_adr.svh: an id is taken again only after
// 16 takes, which programs of 3 instructions never reach.)
//  29: a writing instruction leaves the in-flight set at its step end while returning accesses
//      of it are still to be taken                               -> ReturnTakenInFlight_A (the
//      next of them taken)
//  30: a take counts InFlight + 1 instructions in flight         -> InflightMax_A (next cycle)
//  31: a VGPR write presented anew clears its group's EXEC bits in the instruction's
//      information                                               -> VgprMask_A (the write shows
//      mask 0; at the port in that cycle, reported after the assertion)
//  36: u_lane reads the row the address stage writes in this cycle -> LaneRowNotWritten_A
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd9:  if (!done_d.valid) done_d.n.conflicts[0] = 1'b1;
    6'd29: if (step_end_i.valid && wrt_q[ix(step_end_i.id)] && (rpend_d[ix(step_end_i.id)] != '0)) begin
      inf_d[ix(step_end_i.id)] = 1'b0;
    end
    6'd30: if (take_i.valid) cnt_d = CntW'(InFlight + 1);
    6'd31: if (wr_v_d && !(wr_v_q && !wr_acc)) begin
      info_d[ix(wq_q[wcnt_d[3:0]])].exec[GroupLanes*wr_g_d +: GroupLanes] = '0;
    end
    6'd36: if (res_i.valid) begin
      lane_re  = 1'b1;
      n_fid    = res_i.id;
      n_fgroup = res_i.group;
    end
    default: ;
  endcase
end
