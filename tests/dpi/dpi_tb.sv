// dpi_tb: a SystemVerilog scoreboard of two units against their Rust models, called through
// DPI-C (rust/dpi, libgcn_vmem_dpi).
//
// Instantiates rtl/buffer_addr.sv and rtl/format_unpack.sv, drives both with random inputs from
// $urandom every cycle, steps each unit's model handle (gcn_vmem_<unit>_step) on the same inputs
// at the same clock edge, and compares every output after every edge, from reset on. The RTL's
// assertions run too (--assert; vmem_prim_pkg's hook is tests/dpi/assert_hook.cc).
//
// Plusargs: +seed=S (default 1), +cycles=N (default 1,000,000), +unit=U (drive and check only
// buffer_addr or format_unpack; the other stays idle), +max_reports=M (mismatch lines printed
// before the run stops, default 10).
// buffer_addr's test-only mutant, on which the bench must fail: build with
// +define+VMEM_TEST_HOOKS +define+VMEM_TEST_buffer_addr_mut (its test hook
// rtl/test/buffer_addr_mut.svh compiled in, as build.rs builds it; rtl/vmem_prim_pkg.sv).
//
// Last line: "PASS dpi_tb ..." or "FAIL dpi_tb ..." (then $fatal, exit status non-zero).
// Not synthesizable: a bench. Run by tests/dpi/run.sh (make dpi); see docs/integrations/dpi.md.

module dpi_tb
  import gcn_vmem_dpi_pkg::*;
  import vmem_pkg::*;
;

  // Which buffer_addr the build compiled (see the header).
`ifdef VMEM_TEST_buffer_addr_mut
  localparam string BufferAddrRtl = "buffer_addr's mutant";
`else
  localparam string BufferAddrRtl = "the RTL as written";
`endif

  // tests/dpi/assert_hook.cc: failures of the RTL's VMEM_ASSERTs so far.
  import "DPI-C" function int dpi_tb_assert_failures();

  logic clk_i;
  logic rst_ni;

  ///////////
  // Units //
  ///////////

  buffer_addr_in_t    ba_in;
  buffer_addr_out_t   ba_rtl, ba_model;
  format_unpack_in_t  fu_in;
  format_unpack_out_t fu_rtl, fu_model;

  buffer_addr u_buffer_addr (
    .clk_i,
    .rst_ni,
    .valid_i        (ba_in.valid_i),
    .vsharp_i       (ba_in.vsharp_i),
    .inst_offset_i  (ba_in.inst_offset_i),
    .offen_i        (ba_in.offen_i),
    .idxen_i        (ba_in.idxen_i),
    .access_i       (ba_in.access_i),
    .bytes_i        (ba_in.bytes_i),
    .lds_i          (ba_in.lds_i),
    .sgpr_offset_i  (ba_in.sgpr_offset_i),
    .vgpr_index_i   (ba_in.vgpr_index_i),
    .vgpr_offset_i  (ba_in.vgpr_offset_i),
    .tid_i          (ba_in.tid_i),
    .m0_i           (ba_in.m0_i),
    .lds_base_i     (ba_in.lds_base_i),
    .lds_size_i     (ba_in.lds_size_i),
    .valid_o        (ba_rtl.valid_o),
    .address_o      (ba_rtl.address_o),
    .in_range_o     (ba_rtl.in_range_o),
    .unbound_o      (ba_rtl.unbound_o),
    .illegal_o      (ba_rtl.illegal_o),
    .lds_address_o  (ba_rtl.lds_address_o),
    .lds_in_range_o (ba_rtl.lds_in_range_o)
  );

  format_unpack u_format_unpack (
    .clk_i,
    .rst_ni,
    .valid_i      (fu_in.valid_i),
    .dfmt_i       (fu_in.dfmt_i),
    .nfmt_i       (fu_in.nfmt_i),
    .data_i       (fu_in.data_i),
    .valid_o      (fu_rtl.valid_o),
    .components_o (fu_rtl.components_o),
    .count_o      (fu_rtl.count_o),
    .fmt_valid_o  (fu_rtl.fmt_valid_o)
  );

  //////////////
  // Stimulus //
  //////////////

  // A random buffer_addr input: valid 7 cycles in 8; small num_records and indices half the
  // time (so ranges split between in and out); legal byte counts 3 times in 4.
  function automatic buffer_addr_in_t random_buffer_addr();
    buffer_addr_in_t i;
    int unsigned bytes_pick;
    i.valid_i       = ($urandom_range(7) != 0);
    i.vsharp_i      = {$urandom, $urandom, $urandom, $urandom};
    if ($urandom_range(1) == 1) begin
      i.vsharp_i[VsNumRecordsLsb +: VsNumRecordsW] = $urandom_range(512);
    end
    i.inst_offset_i = 12'($urandom);
    i.offen_i       = 1'($urandom);
    i.idxen_i       = 1'($urandom);
    i.access_i      = 2'($urandom);
    bytes_pick      = $urandom_range(7);
    unique case (bytes_pick)
      0:       i.bytes_i = 5'($urandom);
      1:       i.bytes_i = 5'd1;
      2:       i.bytes_i = 5'd2;
      3:       i.bytes_i = 5'd4;
      4:       i.bytes_i = 5'd8;
      5:       i.bytes_i = 5'd12;
      default: i.bytes_i = 5'd16;
    endcase
    i.lds_i         = 1'($urandom);
    i.sgpr_offset_i = $urandom;
    i.vgpr_index_i  = ($urandom_range(1) == 1) ? $urandom_range(600) : $urandom;
    i.vgpr_offset_i = ($urandom_range(1) == 1) ? $urandom_range(600) : $urandom;
    i.tid_i         = 6'($urandom);
    i.m0_i          = $urandom;
    i.lds_base_i    = 9'($urandom);
    i.lds_size_i    = 9'($urandom);
    return i;
  endfunction

  // A random format_unpack input: any dfmt and nfmt (reserved ones included), any element.
  function automatic format_unpack_in_t random_format_unpack();
    format_unpack_in_t i;
    i.valid_i = ($urandom_range(7) != 0);
    i.dfmt_i  = 4'($urandom);
    i.nfmt_i  = 3'($urandom);
    i.data_i  = {$urandom, $urandom, $urandom, $urandom};
    return i;
  endfunction

  ////////////////
  // Scoreboard //
  ////////////////

  int unsigned cycle;
  int unsigned mismatches;
  int unsigned max_reports;
  longint unsigned ba_vectors;
  longint unsigned fu_vectors;

  // One port of both sides: a MISMATCH line (the first max_reports of them) when they differ.
  function automatic void compare(string unit, string port, logic [127:0] rtl, logic [127:0] model);
    if (rtl == model) return;
    mismatches++;
    if (mismatches <= max_reports) begin
      $display("MISMATCH cycle %0d %s.%s: rtl 0x%0h model 0x%0h", cycle, unit, port, rtl, model);
    end
  endfunction

  // Every port of a unit, once the whole structs differ (the common case returns at once).
  function automatic void compare_buffer_addr(buffer_addr_out_t rtl, buffer_addr_out_t model);
    if (rtl == model) return;
    compare("buffer_addr", "valid_o", 128'(rtl.valid_o), 128'(model.valid_o));
    compare("buffer_addr", "address_o", 128'(rtl.address_o), 128'(model.address_o));
    compare("buffer_addr", "in_range_o", 128'(rtl.in_range_o), 128'(model.in_range_o));
    compare("buffer_addr", "unbound_o", 128'(rtl.unbound_o), 128'(model.unbound_o));
    compare("buffer_addr", "illegal_o", 128'(rtl.illegal_o), 128'(model.illegal_o));
    compare("buffer_addr", "lds_address_o", 128'(rtl.lds_address_o), 128'(model.lds_address_o));
    compare("buffer_addr", "lds_in_range_o", 128'(rtl.lds_in_range_o), 128'(model.lds_in_range_o));
  endfunction

  function automatic void compare_format_unpack(format_unpack_out_t rtl, format_unpack_out_t model);
    if (rtl == model) return;
    compare("format_unpack", "valid_o", 128'(rtl.valid_o), 128'(model.valid_o));
    compare("format_unpack", "components_o", rtl.components_o, model.components_o);
    compare("format_unpack", "count_o", 128'(rtl.count_o), 128'(model.count_o));
    compare("format_unpack", "fmt_valid_o", 128'(rtl.fmt_valid_o), 128'(model.fmt_valid_o));
  endfunction

  // A DPI call's return code: anything but 0 ends the run. (`what` is a code, not a string:
  // a string argument would be built on every call.)
  function automatic void ok(int rc, int what);
    if (rc != 0) begin
      $fatal(1, "FAIL dpi_tb: gcn_vmem_%s returned %0d (%s)", what == 0 ? "buffer_addr_reset" :
             what == 1 ? "buffer_addr_step" : what == 2 ? "format_unpack_reset" : "format_unpack_step",
             rc, gcn_vmem_dpi_strerror(rc));
    end
  endfunction

  //////////
  // Test //
  //////////

  chandle      ba_h;
  chandle      fu_h;
  int unsigned seed;
  int unsigned cycles;
  string       only;
  bit          run_ba;
  bit          run_fu;

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    if (!$value$plusargs("cycles=%d", cycles)) cycles = 1_000_000;
    if (!$value$plusargs("max_reports=%d", max_reports)) max_reports = 10;
    if (!$value$plusargs("unit=%s", only)) only = "";
    run_ba = (only == "" || only == "buffer_addr");
    run_fu = (only == "" || only == "format_unpack");
    if (!run_ba && !run_fu) $fatal(1, "FAIL dpi_tb: +unit=%s: expected buffer_addr or format_unpack", only);
    void'($urandom(seed));
    if (gcn_vmem_dpi_abi_version() != 1) begin
      $fatal(1, "FAIL dpi_tb: libgcn_vmem_dpi ABI %0d, this bench expects 1", gcn_vmem_dpi_abi_version());
    end
    $display("dpi_tb: seed %0d, %0d cycles, %s%s", seed, cycles, BufferAddrRtl,
             only == "" ? "" : {", only ", only});
    ba_h = gcn_vmem_buffer_addr_new();
    fu_h = gcn_vmem_format_unpack_new();

    // Reset: rst_ni low across one edge with all-zero inputs (rust/unit.rs's Unit::reset), both
    // sides; every output is 0 during it and after it.
    ba_in  = '0;
    fu_in  = '0;
    clk_i  = 1'b0;
    rst_ni = 1'b0;
    #1;
    ok(gcn_vmem_buffer_addr_reset(ba_h, 1, ba_model), 0);
    ok(gcn_vmem_format_unpack_reset(fu_h, 1, fu_model), 2);
    compare_buffer_addr(ba_rtl, ba_model);
    compare_format_unpack(fu_rtl, fu_model);
    clk_i = 1'b1;
    #1;
    ok(gcn_vmem_buffer_addr_step(ba_h, ba_in, ba_model), 1);
    ok(gcn_vmem_format_unpack_step(fu_h, fu_in, fu_model), 3);
    compare_buffer_addr(ba_rtl, ba_model);
    compare_format_unpack(fu_rtl, fu_model);
    clk_i  = 1'b0;
    rst_ni = 1'b1;
    #1;
    ok(gcn_vmem_buffer_addr_reset(ba_h, 0, ba_model), 0);
    ok(gcn_vmem_format_unpack_reset(fu_h, 0, fu_model), 2);

    // Every cycle: new inputs while the clock is low, one rising edge, then each model steps on
    // the same inputs and every output of both sides is compared.
    for (cycle = 0; cycle < cycles && mismatches < max_reports; cycle++) begin
      if (run_ba) begin
        ba_in = random_buffer_addr();
        ba_vectors += longint'(ba_in.valid_i);
      end
      if (run_fu) begin
        fu_in = random_format_unpack();
        fu_vectors += longint'(fu_in.valid_i);
      end
      clk_i = 1'b0;
      #1;
      clk_i = 1'b1;
      #1;
      if (run_ba) begin
        ok(gcn_vmem_buffer_addr_step(ba_h, ba_in, ba_model), 1);
        compare_buffer_addr(ba_rtl, ba_model);
      end
      if (run_fu) begin
        ok(gcn_vmem_format_unpack_step(fu_h, fu_in, fu_model), 3);
        compare_format_unpack(fu_rtl, fu_model);
      end
    end

    gcn_vmem_buffer_addr_free(ba_h);
    gcn_vmem_format_unpack_free(fu_h);
    if (mismatches != 0 || dpi_tb_assert_failures() != 0) begin
      $fatal(1, "FAIL dpi_tb: seed %0d: %0d mismatches, %0d assertion failures in %0d cycles", seed,
             mismatches, dpi_tb_assert_failures(), cycle);
    end
    $display("PASS dpi_tb: seed %0d, %0d cycles, buffer_addr %0d vectors, format_unpack %0d vectors, 0 mismatches",
             seed, cycle, ba_vectors, fu_vectors);
    $finish;
  end

endmodule : dpi_tb
