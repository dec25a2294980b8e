// TEST ONLY: the coalescer's break-asserts corruption. The text of `VMEM_TEST_HOOK(coalescer_brk)
// in rtl/coalescer.sv's sequence always_comb, where a busy cycle registers a beat, in the unit's
// break-asserts build alone (build.rs; never in the design: rtl/vmem_prim_pkg.sv). It corrupts
// the output register inputs, only in cycles that register a beat, so that each property
// assertion fails on common waves (tests/coalescer.rs proves each one fires). The corruption is
// chosen per wave by lane 0's address bits 6:4 (addr_i[0][6:4] as accepted; uniform for random
// addresses and for random block-aligned bases), each value breaking one assertion only, just
// past its bound (the values are written apart from the bounds, so a loosened bound stops
// firing):
//   1: beats with lanes_o != 0 get bytes_o = 0                         -> BytesWithLanes_A
//   2: non-last beats get cycles_o = 4                                 -> CyclesOnLast_A
//   3: the last beat gets cycles_o = 3 (CyclesMin - 1)                 -> CyclesMin_A
//   4: the last beat gets last_o = 0 and cycles_o = 0,
//      while ready_o still rises with it                               -> ReadyOnLast_A
//   5: beats with lanes_o != 0 get lanes 0 and 63 set                  -> LanesOneQuad_A
//   6: every beat is registered with valid_o = 0                       -> IdleZero_A
//   7: the last beat gets cycles_o = 17 (CyclesMax + 1)                -> CyclesMax_A
//   0: left correct.
// 3, 4, 6 and 7 break every wave, 1 and 5 every wave with an active lane, 2 every wave of two or
// more beats; so random waves meet each one within a few dozen.
unique case (wave_q.addr[0].block[2:0])
  3'd1: if (beat.lanes != '0) beat_d.bytes = '0;             // BytesWithLanes_A
  3'd2: if (!beat.last) beat_d.cycles = CyclesMin;           // CyclesOnLast_A
  3'd3: if (beat.last) beat_d.cycles = CyclesW'(3);          // CyclesMin_A: CyclesMin - 1
  3'd4: if (beat.last) begin                                 // ReadyOnLast_A
    beat_d.last   = 1'b0;
    beat_d.cycles = '0;
  end
  3'd5: if (beat.lanes != '0) begin                          // LanesOneQuad_A
    beat_d.lanes[0]       = 1'b1;
    beat_d.lanes[Lanes-1] = 1'b1;
  end
  3'd6: beat_d.valid = 1'b0;                                 // IdleZero_A
  3'd7: if (beat.last) beat_d.cycles = CyclesW'(17);         // CyclesMax_A: CyclesMax + 1
  default: ;                                                 // 0: left correct
endcase
