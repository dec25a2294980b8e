// buffer_addr's RTL and its netlist side by side in the context the pipeline's TA gives lane 0
// (rtl/vmem_pipe_ta.sv): every input from a register under the asynchronous reset, tid
// {group, 4'h0}, the LDS inputs tied to 0. Both see the same random inputs every cycle and every
// output is compared; the run prints `mismatches N` and `cycles N`. tests/gls.rs Verilates it
// (`--binary`) with the netlist's module renamed `buffer_addr_gates` and the build's flags.
module buffer_addr_lane_tb;
  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic [127:0] vsharp;
  logic [11:0] inst_offset;
  logic offen, idxen, valid;
  logic [1:0] access, group;
  logic [4:0] bytes;
  logic [31:0] sgpr_offset, vgpr_index, vgpr_offset;

  typedef struct packed {
    logic valid;
    logic [47:0] address;
    logic [3:0] in_range;
    logic unbound;
    logic illegal;
    logic [17:0] lds_address;
    logic lds_in_range;
  } out_t;
  out_t rtl, gates;

  buffer_addr u_rtl (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(valid), .vsharp_i(vsharp), .inst_offset_i(inst_offset),
    .offen_i(offen), .idxen_i(idxen), .access_i(access), .bytes_i(bytes), .lds_i(1'b0),
    .sgpr_offset_i(sgpr_offset), .vgpr_index_i(vgpr_index), .vgpr_offset_i(vgpr_offset),
    .tid_i({group, 4'h0}), .m0_i(32'd0), .lds_base_i(9'h0), .lds_size_i(9'h0),
    .valid_o(rtl.valid), .address_o(rtl.address), .in_range_o(rtl.in_range), .unbound_o(rtl.unbound),
    .illegal_o(rtl.illegal), .lds_address_o(rtl.lds_address), .lds_in_range_o(rtl.lds_in_range));
  buffer_addr_gates u_gates (
    .clk_i(clk), .rst_ni(rst_n), .valid_i(valid), .vsharp_i(vsharp), .inst_offset_i(inst_offset),
    .offen_i(offen), .idxen_i(idxen), .access_i(access), .bytes_i(bytes), .lds_i(1'b0),
    .sgpr_offset_i(sgpr_offset), .vgpr_index_i(vgpr_index), .vgpr_offset_i(vgpr_offset),
    .tid_i({group, 4'h0}), .m0_i(32'd0), .lds_base_i(9'h0), .lds_size_i(9'h0),
    .valid_o(gates.valid), .address_o(gates.address), .in_range_o(gates.in_range),
    .unbound_o(gates.unbound), .illegal_o(gates.illegal), .lds_address_o(gates.lds_address),
    .lds_in_range_o(gates.lds_in_range));

  // The inputs' registers, loaded from random draws each cycle.
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {vsharp, inst_offset, offen, idxen, valid, access, group, bytes, sgpr_offset, vgpr_index,
       vgpr_offset} <= '0;
    end else begin
      vsharp <= {$urandom, $urandom, $urandom & ($urandom % 3 == 0 ? 32'h3fff : 32'hffff_ffff), $urandom};
      inst_offset <= 12'($urandom);
      {offen, idxen, valid} <= 3'($urandom);
      access <= 2'($urandom % 3);
      group <= 2'($urandom);
      bytes <= 5'(1 << ($urandom % 5));
      sgpr_offset <= $urandom;
      vgpr_index <= $urandom & ($urandom % 2 == 0 ? 32'hff : 32'hffff_ffff);
      vgpr_offset <= $urandom;
    end
  end

  int mismatches = 0;
  int cycle = 0;
  always #5 clk = ~clk;
  always @(negedge clk) begin
    if (rst_n && rtl != gates) begin
      if (mismatches < 5) $display("cycle %0d: RTL %h, gates %h", cycle, rtl, gates);
      mismatches++;
    end
    cycle++;
  end
  initial begin
    void'($urandom(7));
    #12 rst_n = 1'b1;
    repeat (20000) @(posedge clk);
    $display("mismatches %0d", mismatches);
    $display("cycles %0d", cycle);
    $finish;
  end
endmodule
