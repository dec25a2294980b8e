// TEST ONLY: break-asserts corruptions of vmem_pipe's TD conversion. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_td_conv) at the end of rtl/vmem_pipe_td.sv's stage 0 of the
// writes' conversion (an always_comb), in the unit's one test build (never in the design). Off
// unless +TestBreakAsserts; then with the program's key (its V#'s base address bits 11:6):
//  32: the conversion skips dword 1 of a group of at least three written dwords (dword 0 is
//      followed by dword 2)                                  -> ConvOrder_A (when the port
//      presents dword 1: the queue's head is dword 2's)
//  33: a write fed to d16 (D16 byte/short loads) loses its conversion tag
//                                                             -> D16Tag_A (two edges on)
//  34: the conversion issues a fifth write while four wait for the port and none is accepted
//                                                             -> ConvCredit_A (the next cycle)
//  45: a multi-texel load's write of group 0 loses its multi-texel tag
//                                                             -> MultiTexelTag_A (two edges on)
//  47: the result buffer's row for the next write, past group 0, is read from the group
//      before                                                 -> ResRowRead_A (next cycle)
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd32: if (c_go && (cw_i_q == 3'd0) && (ci.w > 3'd2)) cw_i_d = 3'd2;
    6'd33: if (c_go && ci.d16bs) t1_d.valid = 1'b0;
    6'd34: if ((cw_out_q == 3'd4) && !wr_acc && (cw_cnt_q != ccnt_q) && fed_q[c_par][c_g]) begin
      c_go = 1'b1;
    end
    6'd45: if (c_go && ci.mtx && (c_g == 2'd0)) t1_d.mtx = 1'b0;
    6'd47: if (res_re && (res_raddr[1:0] != 2'd0)) res_raddr[1:0] = res_raddr[1:0] - 2'd1;
    default: ;
  endcase
end
