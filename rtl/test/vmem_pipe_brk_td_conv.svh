// TEST ONLY: break-asserts corruptions of vmem_pipe's TD conversion. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_td_conv) at the end of rtl/vmem_pipe_td.sv's conversion
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6):
//  32: a group fed to format_unpack loses its conversion tag    -> UnpackTag_A (two edges on)
//  33: a group fed to d16 (D16 byte/short loads) loses its conversion tag
//                                                               -> D16Tag_A (two edges on)
//  34: the fields a converted load's last group carries through the converter turn into a
//      store's as it leaves the unpacker's second stage        -> SwizzleTag_A (the next
//      cycle: swizzle shows that group, its tag no longer converts)
//  45: a multi-texel load's group 0 reaches multi_texel without its tag
//                                                               -> MultiTexelTag_A (two edges on)
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd32: if (f_valid && fi.conv) tp1_d.valid = 1'b0;
    6'd33: if (f_valid && fi.d16bs) tp1_d.valid = 1'b0;
    6'd34: if (tp3_q.valid && (tp3_q.group == 2'd3) && (ti3_q.kind == PipeLoad) &&
               !(ti3_q.sized && (ti3_q.d16 != 2'd0) && ((ti3_q.bytes == 5'd1) || (ti3_q.bytes == 5'd2)))) begin
      ti4_d.kind = PipeStore;
    end
    6'd45: if (tp2_q.valid && si.mtx && (tp2_q.group == 2'd0)) si.mtx = 1'b0;
    default: ;
  endcase
end
