// TEST ONLY: break-asserts corruptions of vmem_pipe's TD. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_td) at the end of rtl/vmem_pipe_td.sv's next-state always_comb,
// in the unit's one test build (never in the design). Off unless +TestBreakAsserts; then the
// program's key (its V#'s base address bits 11:6, as rtl/test/vmem_pipe_brk_bank.svh) picks one:
//   8: a write stalled by vgpr_ready_i moves to its next dword   -> VgprHold_A
//   9: an idle done has bit 0 of its conflicts set               -> DoneIdleZero_A
//  10: an instruction stays in flight (for the table) at its done -> TakeFree_A (when its id is
//      taken again)
if (vmem_pipe.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd8:  if (wr_v_q && !vgpr_ready_i) wr_i_d = wr_i_q + 3'd1;
    6'd9:  if (!done_d.valid) done_d.n.conflicts[0] = 1'b1;
    6'd10: if (h_fin) inf_d[ix(h)] = 1'b1;
    default: ;
  endcase
end
