// TEST ONLY: break-asserts corruptions of vmem_pipe's issue receiver (TA). The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_ta_ib) at the end of rtl/vmem_pipe_ta.sv's receiver always_comb,
// in the unit's one test build (never in the design). Off unless +TestBreakAsserts; then the
// program's key (its V#'s base address bits 11:6, as rtl/test/vmem_pipe_brk_bank.svh) picks one.
// IssueBeats_A, IssueHeaderHeld_A and IssueIntoFull_A are properties of the SQ (an input): the
// corruptions change the receiver's registers they compare the SQ's beats against.
//  14: an instruction's second beat counts as its 16th          -> IssueBeats_A (its third beat
//      is beat 16: one past the 16 of the largest instruction)
//  15: an instruction's second beat flips bit 0 of the SOFFSET held in its buffer
//                                                               -> IssueHeaderHeld_A (the SQ's
//      next beat holds the header it sent first)
//  16: an instruction's second beat marks its buffer complete, and a beat the SQ offers into a
//      complete buffer is taken                                 -> IssueIntoFull_A (the next
//      beat; iss_ready_o drops in that cycle, reported after the assertion). The property is
//      implied by the definition beat = iss_valid & iss_ready_o, iss_ready_o =
//      alive & !ib_full_q[ib_w_q]: no register alone can break it, so `beat` itself is forced
//  17: a format store's last beat (group 3) tags its pack for group 0
//                                                               -> PackBeforeRead_A (the next
//      cycle, when the address stage takes the store at once and reads group 0)
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (ib_hdr_q[0].vsharp[11:6])
    6'd14: if (beat && (bk == 5'd1)) ib_beats_d[ib_w_q] = 5'd16;
    6'd15: if (beat && (bk == 5'd1)) ib_hdr_d[ib_w_q].soffset[0] = ~ib_hdr_q[ib_w_q].soffset[0];
    6'd16: begin
      if (beat && (bk == 5'd1)) ib_full_d[ib_w_q] = 1'b1;
      if (iss_i.valid && alive_q && ib_full_q[ib_w_q]) beat = 1'b1;
    end
    6'd17: if (pk_store && iss_i.last) pk0_d.group = 2'd0;
    default: ;
  endcase
end
