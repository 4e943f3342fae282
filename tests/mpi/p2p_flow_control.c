/* A sender faster than its receiver must not make the receiver's memory grow by more than the messages it holds.
 * Between nodes each fabric message that found none of Strata's receive buffers posted used to wait in one of
 * ofi_rxm's 16 KiB buffers: 8-byte messages each took 16 KiB at the receiver (transport/fabric.hpp, kFabricCredits).
 *   1. the even rank of each pair sends MANY 8-byte messages (its index) with MPI_Send; the odd one receives them
 *      with a short pause after each, so that it falls behind, and checks every value in order; its peak memory
 *      (VmHWM) may grow by at most LIMIT_MIB over the run (MANY 8-byte messages held compactly take a few MiB;
 *      in ofi_rxm's buffers, before flow control, the peak grew by 411 MiB);
 *   2. both ranks of a pair send EACH small messages to each other before receiving any (the eager buffering every
 *      MPI gives small messages; with flow control each side's sends wait for the other's credits, which its
 *      receives return while it waits), then receive and check them.
 * Any even number of ranks (pairs 2k, 2k+1); a plain MPI program (also passes with MPICH). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

enum { MANY = 50000, EACH = 2000, LIMIT_MIB = 64 };

static long peak_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "VmHWM:", 6) == 0) kib = atol(line + 6);
  if (f) fclose(f);
  return kib;
}

static void pause_us(double us) {
  const double until = MPI_Wtime() + us * 1e-6;
  while (MPI_Wtime() < until) {
  }
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size % 2 == 0);
  const int peer = rank ^ 1;
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

  const long before = peak_kib();
  CHECK(before > 0);
  for (uint64_t i = 0; i < MANY; ++i) {
    uint64_t value = i;
    if (rank % 2 == 0) {
      CHECK_MPI(MPI_Send(&value, 1, MPI_UINT64_T, peer, 0, MPI_COMM_WORLD));
    } else {
      CHECK_MPI(MPI_Recv(&value, 1, MPI_UINT64_T, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      CHECK(value == i);
      pause_us(5);
    }
  }
  const long grown = peak_kib() - before;
  if (grown > LIMIT_MIB * 1024L) {
    char detail[96];
    snprintf(detail, sizeof detail, ": VmHWM grew by %ld KiB for %d messages of 8 bytes", grown, MANY);
    test_fail(__FILE__, __LINE__, "memory grew by more than the messages held", detail);
  }

  MPI_Request requests[EACH];
  uint64_t sent[EACH];
  for (int i = 0; i < EACH; ++i) {
    sent[i] = test_pattern(rank, peer, 1, (uint64_t)i);
    CHECK_MPI(MPI_Isend(&sent[i], 1, MPI_UINT64_T, peer, 1, MPI_COMM_WORLD, &requests[i]));
  }
  CHECK_MPI(MPI_Waitall(EACH, requests, MPI_STATUSES_IGNORE));
  for (int i = 0; i < EACH; ++i) {
    uint64_t got;
    CHECK_MPI(MPI_Recv(&got, 1, MPI_UINT64_T, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(got == test_pattern(peer, rank, 1, (uint64_t)i));
  }

  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("p2p_flow_control: ok\n");
  return 0;
}
