// tests/paths.rs: a two-module design whose paths are counted by hand in generic gates (Yosys's
// `$_AND_`, `$_OR_`, `$_XOR_`; no inverters, no gate that `opt` can merge or fold).
//
// register -> register, deepest: b_q -> u_leaf.w_q, 5 levels, crossing paths_top > u_leaf:
//   b_q | m_i          $_OR_   in paths_top (the port expression of u_leaf.x_i)
//   a_q & (...)        $_AND_  in paths_top
//   x_i ^ c_q          $_XOR_  in u_leaf
//   (...) & d_q        $_AND_  in u_leaf (t)
//   t | c_q            $_OR_   in u_leaf, into w_q
// register -> register within u_leaf: u_leaf.c_q -> u_leaf.e_q, 2 levels:
//   c_q ^ k_i          $_XOR_
//   (...) & d_q        $_AND_, into e_q
// and u_leaf.c_q -> u_leaf.d_q, 0 levels.
// input -> register, deepest: m_i -> u_leaf.w_q, 5 levels (the first chain from its OR);
// register -> output: u_leaf.w_q or u_leaf.e_q -> out_o, 1 level (w & e);
// no input -> output path. The longest path of any kind: 5 levels.
//
// With paths_leaf a black box: b_q -> u_leaf/x_i, 2 levels (the OR and the AND of paths_top).

module paths_leaf (
  input  logic clk_i,
  input  logic x_i,
  input  logic k_i,
  output logic w_o,
  output logic e_o
);
  logic c_q, d_q, e_q, w_q;
  logic t;
  assign t = (x_i ^ c_q) & d_q;
  always_ff @(posedge clk_i) begin
    c_q <= k_i;
    d_q <= c_q;
    e_q <= (c_q ^ k_i) & d_q;
    w_q <= t | c_q;
  end
  assign w_o = w_q;
  assign e_o = e_q;
endmodule

module paths_top (
  input  logic clk_i,
  input  logic a_i,
  input  logic b_i,
  input  logic k_i,
  input  logic m_i,
  output logic out_o
);
  logic a_q, b_q, w, e;
  always_ff @(posedge clk_i) begin
    a_q <= a_i;
    b_q <= b_i;
  end
  paths_leaf u_leaf (.clk_i, .x_i(a_q & (b_q | m_i)), .k_i, .w_o(w), .e_o(e));
  assign out_o = w & e;
endmodule
