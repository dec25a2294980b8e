// TEST ONLY: inline_const's break-asserts corruption. The text of
// `VMEM_TEST_HOOK(inline_const_brk) in rtl/inline_const.sv's stage-2 register input (loaded when
// valid_q is 1), in the unit's break-asserts build alone (build.rs; never in the design:
// rtl/vmem_prim_pkg.sv). So that each property assertion fails, just past its bound, on a range
// of codes chosen by code bits 6:4 (= e[3:1]; codes 0x00..0x1F stay correct; tests/inline_const.rs
// proves each one fires):
//   0x20..0x3F: f32 mantissa bit 19 set (the highest bit MantissaLow_A checks) -> MantissaLow_A
//   0x40..0x4F: f32 exponent 116 (ExpMin - 1)                                  -> ExponentMin_A
//   0x50..0x5F: f32 exponent 136 (ExpMax + 1)                                  -> ExponentMax_A
//   0x60..0x7F: f32 sign bit 31 set                                           -> SignClear_A
// Each corruption breaks that one assertion only; its values are written apart from the bounds,
// so a loosened bound stops firing.
unique case (s1_q.e[CodeExpW-1 -: 3])
  3'b010, 3'b011: s2_d.mantissa[19] = 1'b1;            // breaks MantissaLow_A
  3'b100:         s2_d.exponent     = F32ExpW'(116);   // breaks ExponentMin_A: ExpMin - 1
  3'b101:         s2_d.exponent     = F32ExpW'(136);   // breaks ExponentMax_A: ExpMax + 1
  3'b110, 3'b111: s2_d.sign         = 1'b1;            // breaks SignClear_A
  default:        ;                                    // 0x00..0x1F: left correct
endcase
