// TEST ONLY: break-asserts corruptions of vmem_pipe's step stage (TA), its bundle. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_ta_bnd) at the end of rtl/vmem_pipe_ta.sv's bundle always_comb, in
// the unit's one test build (never in the design). Off unless +TestBreakAsserts; then with the
// program's key (its V#'s base address bits 11:6). The step's request count w_n counts 8
// candidates, so it never exceeds 8 (StepRequests_A is implied by the code above it); after this
// point only the assertions and st_step_done's test w_n == 0 read it, so a non-zero count changed
// to another non-zero count reaches nothing but the assertion:
//  20: a per-quad step of a non-atomic with requests counts 9 of them
//                                                               -> StepRequests_A (an atomic's
//      would also break AtomicStepRequests_A, key 39)
//  21: a merged step with requests counts 5 of them             -> MergedRequests_A
//  39: an atomic's step with requests counts 5 of them (at most 8: StepRequests_A holds)
//                                                               -> AtomicStepRequests_A
// wh.narrow is read above (the bundle's requests, w_last_bundle) and after this point only by
// the assertions, so a changed narrow bit reaches nothing but them:
//  40: a working step of a non-atomic whose bundle has at most two requests is narrow (the
//      bundle then fits two: NarrowBundle_A holds)             -> NarrowIsAtomic_A
//  41: an atomic's bundle of three or four requests (a buffer atomic's) is narrow
//                                                               -> NarrowBundle_A
// A GET_RESINFO's step has no request (w_n 0: it ends at once); a count of one keeps it working
// (it then waits for a bundle it does not present), and the assertion fails in that cycle:
//  46: a GET_RESINFO's working step counts one request         -> ResinfoNoRequest_A
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (ib_hdr_q[0].vsharp[11:6])
    6'd20: if (!w_merged && !w_atomic && (w_n != 4'd0)) w_n = 4'd9;
    6'd21: if (w_merged && (w_n != 4'd0)) w_n = 4'd5;
    6'd39: if (st_work && w_atomic && (w_n != 4'd0)) w_n = 4'd5;
    6'd40: if (st_work && !w_atomic && !bnd_o.req[2].valid) wh.narrow = 1'b1;
    6'd41: if (bnd_valid_o && w_atomic && bnd_o.req[2].valid) wh.narrow = 1'b1;
    6'd46: if (st_work && wh.resinfo) w_n = 4'd1;
    default: ;
  endcase
end
