// TEST ONLY: break-asserts corruptions of vmem_pipe's TD gather. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_td_gather) at the end of rtl/vmem_pipe_td.sv's gather
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6). The element-buffer writes
// (eb_be, eb_wd) and gathered are computed above this point, so the block slots and g_blocks
// changed here reach only the assertions; g_ntaken also reaches G's count rpend_d. The take
// loop never takes past 4 blocks (TakeBlocks_A restates the code), and a slot is filled once
// per request (ElemWriteOnce_A):
//  26: a take that leaves slot 3 free names slot 0's lanes and block in slot 3 too
//                                                               -> ElemWriteOnce_A
//  27: a cycle that takes return registers counts 5 blocks       -> TakeBlocks_A
//  28: the take that takes G's last returning accesses counts one more
//                                                               -> ReturnPending_A
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd26: if (sl_v[0] && !sl_v[3]) begin
      sl_v[3]      = 1'b1;
      sl_quad[3]   = sl_quad[0];
      sl_lanes[3]  = sl_lanes[0];
      sl_second[3] = sl_second[0];
    end
    6'd27: if (rr_take_o != 4'd0) g_blocks = 4'd5;
    6'd28: if ((g_ntaken != 3'd0) && g_rp_zero) g_ntaken = g_ntaken + 3'd1;
    default: ;
  endcase
end
