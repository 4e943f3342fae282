// A shared-memory window (MPI_Win_allocate_shared, MPI-4.0 12.2.3) as the layers below api/ see it, and what the
// window calls do to it. Every process maps the one segment (rma/segment.hpp) laid out by rma/layout.hpp, so
// loads and stores reach every part; synchronisation (fence, lock, flush, sync) is memory fences, the lock words of
// rma/lock.hpp, and barriers on a private duplicate of the user's communicator, so window traffic never meets a
// user message.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/communicator.hpp"
#include "rma/epochs.hpp"
#include "rma/layout.hpp"
#include "rma/segment.hpp"
#include "runtime/bootstrap.hpp"
#include "runtime/info.hpp"

namespace strata::rma {

struct Window {
  explicit Window(int size) : epochs(size) {}

  std::unique_ptr<comm::Communicator> comm;  // a private dup: its collective context carries the barriers
  SharedLayout layout;
  Segment segment;
  Epochs epochs;
  bool noncontig = false;                    // alloc_shared_noncontig was in force (rank 0's info decides)
  bool lock_all_nocheck = false;             // the open lock_all took no lock words (MPI_MODE_NOCHECK)
  std::vector<bool> lock_nocheck;            // per target: its MPI_Win_lock took no lock word
  // Owned by api/, opaque here (as in comm::Communicator).
  std::string name;
  runtime::Info hints;
  int errhandler = 0;
  std::vector<std::pair<int, void*>> attributes;  // (keyval, value)
  std::intptr_t size_attr = 0;  // MPI_WIN_SIZE and MPI_WIN_DISP_UNIT hand out pointers to these
  int disp_unit_attr = 1;

  int rank() const { return comm->rank; }
  int size() const { return comm->size; }
  // Part r's address here; nullptr when no process gave any bytes (the MPI_Alloc_mem(0) answer). A zero-size part
  // of a non-empty window points where it would start.
  char* base(int r) const;
};

// MPI_ERR_RMA_SHARED unless every member of `world_ranks` is on one node; the message names the nodes. Pure: every
// member decides alike from the job map, without communicating, so all of them fail together.
Status check_single_node(const std::vector<int>& world_ranks, const std::vector<std::uint32_t>& node_of_rank);

// Collective over `parent` (already known to lie on one node). `local` is this process's argument check: the
// processes exchange it with their sizes before anything is made, so one process's bad argument fails the call on
// every process instead of leaving the others waiting.
Status allocate_shared(const comm::Communicator& parent, const runtime::World& world, Contribution mine,
                       bool noncontig, const Status& local, std::unique_ptr<Window>& out);

Status free_window(Window& w);  // collective: a barrier, then release()
void release(Window& w);        // local: unmaps, gives the context slot back (MPI_Win_free, MPI_Finalize)

void sync();                     // MPI_Win_sync: the private and public copies are one; order the accesses
Status fence(Window& w);         // a memory fence and a barrier
Status lock_all(Window& w, bool nocheck);
Status unlock_all(Window& w);
Status lock(Window& w, int target, LockType type, bool nocheck);
Status unlock(Window& w, int target);
Status flush(Window& w, int target);  // also flush_local: every access is complete when issued
Status flush_all(Window& w);          // also flush_local_all

}  // namespace strata::rma
