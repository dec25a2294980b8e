// TEST ONLY: break-asserts corruptions of vmem_pipe's TD VGPR writes. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_td_wr) at the end of rtl/vmem_pipe_td.sv's writes always_comb,
// in the unit's one test build (never in the design). Off unless +TestBreakAsserts; then with the
// program's key (its V#'s base address bits 11:6). The port's payload is 0 by construction while
// its valid is 0 (VgprIdleZero_A restates the code); it is an output, so the corruption shows at
// the port in the cycle the assertion fails (reported first):
//   8: a VGPR write stalled by vgpr_ready_i shows the next VGPR in the cycle after
//                                                               -> VgprHold_A
//  35: an idle VGPR port presents the address, group and mask of the write it would present
//                                                               -> VgprIdleZero_A
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd8:  if (vg_stall_q && vgpr_o.valid) vgpr_o.addr = vgpr_o.addr + 8'd1;
    6'd35: if (!wr_v_q) begin
      vgpr_o.addr  = w_info.vdata + {5'd0, wr_i_q};
      vgpr_o.group = wr_g_q;
      vgpr_o.mask  = w_info.exec[GroupLanes*wr_g_q +: GroupLanes];
    end
    default: ;
  endcase
end
