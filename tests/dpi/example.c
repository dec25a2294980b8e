/* example.c: buffer_addr's Rust model through the C ABI of rust/dpi, cycle by cycle
 * (docs/integrations/dpi.md). Built and run by `make dpi`, which first generates the header
 * into target/dpi/include:
 *   cc -std=c11 -Wall -Wextra -Werror -Itarget/dpi/include tests/dpi/example.c \
 *      target/dpi/release/libgcn_vmem_dpi.a -lpthread -ldl -lm -o target/dpi/example
 */
#include <inttypes.h>
#include <stdio.h>

#include "gcn_vmem_dpi.h"

/* A port's place in buffer_addr's input or output words. */
#define IN(port) GCN_VMEM_BUFFER_ADDR_IN_##port##_LSB, GCN_VMEM_BUFFER_ADDR_IN_##port##_WIDTH
#define OUT(port) GCN_VMEM_BUFFER_ADDR_OUT_##port##_LSB, GCN_VMEM_BUFFER_ADDR_OUT_##port##_WIDTH

int main(void) {
  void *h = gcn_vmem_buffer_addr_new();
  uint32_t in[GCN_VMEM_BUFFER_ADDR_IN_WORDS] = {0};
  uint32_t out[GCN_VMEM_BUFFER_ADDR_OUT_WORDS];
  int rc;

  if (h == NULL) return 2;
  /* A structured buffer (SPEC §1.1): base 0x1000 (V# bits 47:0), 16-byte records (61:48),
   * 8 records (95:64), dfmt 4 (114:111; 0 would be unbound). */
  unsigned vsharp = GCN_VMEM_BUFFER_ADDR_IN_VSHARP_LSB;
  gcn_vmem_dpi_set(in, vsharp + 0, 48, 0x1000);
  gcn_vmem_dpi_set(in, vsharp + 48, 14, 16);
  gcn_vmem_dpi_set(in, vsharp + 64, 32, 8);
  gcn_vmem_dpi_set(in, vsharp + 111, 4, 4);
  /* A dword load (access 1 = non_format, 4 bytes), index from a VGPR, offset 4. */
  gcn_vmem_dpi_set(in, IN(IDXEN), 1);
  gcn_vmem_dpi_set(in, IN(ACCESS), 1);
  gcn_vmem_dpi_set(in, IN(BYTES), 4);
  gcn_vmem_dpi_set(in, IN(INST_OFFSET), 4);

  /* Reset as the RTL's rst_ni: asserted across one edge, then released. */
  if ((rc = gcn_vmem_buffer_addr_reset(h, 1, out)) != GCN_VMEM_OK) return 2;
  if ((rc = gcn_vmem_buffer_addr_step(h, in, out)) != GCN_VMEM_OK) return 2;
  if ((rc = gcn_vmem_buffer_addr_reset(h, 0, out)) != GCN_VMEM_OK) return 2;

  /* Records 3 and 9 on cycles 0 and 1, then nothing: latency 2, so each result appears two
   * edges later, and the data outputs hold the last valid result. */
  const uint32_t index[4] = {3, 9, 0, 0};
  const int valid[4] = {1, 1, 0, 0};
  for (int cycle = 0; cycle < 4; cycle++) {
    gcn_vmem_dpi_set(in, IN(VALID), (uint64_t)valid[cycle]);
    gcn_vmem_dpi_set(in, IN(VGPR_INDEX), index[cycle]);
    rc = gcn_vmem_buffer_addr_step(h, in, out);
    if (rc != GCN_VMEM_OK) {
      fprintf(stderr, "step: %s\n", gcn_vmem_dpi_strerror(rc));
      return 1;
    }
    printf("cycle %d: valid_i %d vgpr_index_i %" PRIu32 " -> valid_o %" PRIu64 " address_o 0x%" PRIx64
           " in_range_o 0x%" PRIx64 "\n",
           cycle, valid[cycle], index[cycle], gcn_vmem_dpi_get(out, OUT(VALID)), gcn_vmem_dpi_get(out, OUT(ADDRESS)),
           gcn_vmem_dpi_get(out, OUT(IN_RANGE)));
  }

  /* Bad calls return codes; nothing aborts. */
  rc = gcn_vmem_buffer_addr_step(NULL, in, out);
  printf("step(NULL): %d %s\n", rc, gcn_vmem_dpi_strerror(rc));
  void *other = gcn_vmem_swizzle_new();
  rc = gcn_vmem_buffer_addr_step(other, in, out);
  printf("step(swizzle handle): %d %s\n", rc, gcn_vmem_dpi_strerror(rc));
  gcn_vmem_swizzle_free(other);
  gcn_vmem_buffer_addr_free(h);
  return 0;
}
