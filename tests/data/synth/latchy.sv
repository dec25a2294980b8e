module latchy (input logic clk_i, input logic rst_ni, input logic en_i, input logic [3:0] d_i, output logic [3:0] q_o, output logic [3:0] l_o);
  logic [3:0] q;
  always_ff @(posedge clk_i or negedge rst_ni) if (!rst_ni) q <= '0; else q <= q + d_i;
  always_latch if (en_i) l_o = d_i ^ q;
  assign q_o = q;
endmodule
