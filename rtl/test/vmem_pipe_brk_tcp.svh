// TEST ONLY: break-asserts corruption of vmem_pipe's TCP. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_tcp) in rtl/vmem_pipe_tcp.sv's PostedAcks_A check, per id after
// its count of this cycle's acknowledgements (acks), in the unit's one test build (never in the
// design). Off unless +TestBreakAsserts; then with the program's key (its V#'s base address bits
// 11:6). PostedAcks_A is a property of the L2 (an input: it never acknowledges more than was
// posted); acks is the check's own copy of the acknowledgements, read by nothing else. (An
// undercount of the posted count post_q itself would show at the ports first: its zero is the
// TD's posted_zero, which shows the instruction's done before its last acknowledgement.)
//  24: the acknowledgement that empties an instruction's posted count is counted twice
//                                                               -> PostedAcks_A (one past it)
if (vmem_pipe.u_brk_switch.test_break_asserts && (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6] == 6'd24) &&
    (acks != 3'd0) &&
    ({1'b0, PostW'(acks)} == {1'b0, post_q[i]} + ((accept && (bnd_i.id == PipeIdW'(i)))
                                                   ? (PostW + 1)'(n_post) : '0))) begin
  acks = acks + 3'd1;
end
