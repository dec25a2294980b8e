// TEST ONLY: break-asserts corruptions of vmem_pipe's TD LDS write port. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_td_lds) at the end of rtl/vmem_pipe_td.sv's writes always_comb,
// after the VGPR port's hook, in the unit's one test build (never in the design). Off unless
// +TestBreakAsserts; then with the program's key (its V#'s base address bits 11:6). The ports are
// outputs, so each corruption shows at the port in the cycle its assertion fails (reported first):
//  42: an LDS write stalled by lds_ready_i withdraws its lanes in the next cycle (an empty mask,
//      addresses and data 0)                                  -> LdsHold_A
//  43: an idle LDS port presents the EXEC lanes of the group the writes point at
//                                                             -> LdsIdleZero_A
//  44: an LDS write is presented on the VGPR port too, with its group's EXEC mask
//                                                             -> LdsNoVgpr_A
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd42: if (ld_stall_q && lds_o.valid) begin
      lds_o.mask = '0;
      lds_o.addr = '0;
      lds_o.data = '0;
    end
    6'd43: if (!lds_o.valid) lds_o.mask = w_info.exec[GroupLanes*wr_g_q +: GroupLanes];
    6'd44: if (lds_o.valid) begin
      vgpr_o.valid = 1'b1;
      vgpr_o.addr  = w_info.vdata;
      vgpr_o.group = wr_g_q;
      vgpr_o.mask  = w_info.exec[GroupLanes*wr_g_q +: GroupLanes];
    end
    default: ;
  endcase
end
