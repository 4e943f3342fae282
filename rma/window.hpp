// A window (MPI-4.0 12.2) as the layers below api/ see it, and what the window calls do to it. Four flavors:
//   - shared (MPI_Win_allocate_shared): every process maps the one segment (rma/segment.hpp) laid out by
//     rma/layout.hpp, so loads and stores reach every part; locks are the lock words of rma/lock.hpp;
//   - allocate (MPI_Win_allocate) on a communicator inside one node: laid out and mapped as a shared window (parts on
//     pages of their own), so it works the same way;
//   - create, dynamic, and allocate across nodes (MPI_Win_create, MPI_Win_create_dynamic, MPI_Win_allocate): each
//     process's memory is its own; RMA operations and locks travel as messages (rma/channel.hpp), except puts
//     and gets to a target on this node, which read or write its memory (rma/cross_memory.hpp).
// On mapped windows the RMA operations are loads and stores (rma/direct.hpp). Every window has a channel, which
// carries the messages of post / start / complete / wait, and the operations where memory is not mapped.
// Synchronisation is the channel's completion, memory fences and barriers on a private duplicate of the user's
// communicator, so window traffic never meets a user message.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "comm/communicator.hpp"
#include "rma/channel.hpp"
#include "rma/cross_memory.hpp"
#include "rma/epochs.hpp"
#include "rma/layout.hpp"
#include "rma/segment.hpp"
#include "runtime/bootstrap.hpp"
#include "runtime/info.hpp"

namespace strata::rma {

enum class Flavor { Create = 1, Allocate = 2, Dynamic = 3, Shared = 4 };  // MPI_WIN_FLAVOR_* values

struct Window {
  explicit Window(int size) : touched(size, false), epochs(size) {}

  Flavor flavor = Flavor::Shared;
  std::unique_ptr<comm::Communicator> comm;  // a private dup: its collective context carries the barriers
  SharedLayout layout;                       // every flavor: sizes and disp_units of all processes
  Segment segment;                           // mapped windows only (direct())
  char* local_base = nullptr;                // other flavors: this process's memory (NULL for dynamic windows)
  void* allocated = nullptr;                 // MPI_Win_allocate: that memory, freed with the window
  std::unique_ptr<Channel> channel;
  CrossMemory cross_memory;                  // create and allocate flavors: put and get to targets on this node
  std::vector<bool> touched;                 // per target: an RMA operation went there since the last completion
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

  bool direct() const { return segment.base() != nullptr; }  // every process maps the window: loads and stores
  int rank() const { return comm->rank; }
  int size() const { return comm->size; }
  // Part r's address here; nullptr when no process gave any bytes (the MPI_Alloc_mem(0) answer). A zero-size part
  // of a non-empty window points where it would start.
  char* base(int r) const;
  // The address the program is given for part r (MPI_Win_allocate's and _allocate_shared's baseptr, MPI_WIN_BASE,
  // MPI_Win_shared_query): base(r), but NULL for a part of size 0 in memory the library allocated, unless the parts
  // are contiguous (a shared window without alloc_shared_noncontig): there MPI-4.0 12.2.3 lets a process compute
  // the others' addresses from its own, so an empty part starts where the previous one ends. MPICH answers NULL in
  // every case (its rma/win_shared_noncontig_put checks it), Open MPI as here.
  char* program_base(int r) const;
};

// MPI_ERR_RMA_SHARED unless every member of `world_ranks` is on one node; the message names the nodes. Pure: every
// member decides alike from the job map, without communicating, so all of them fail together.
Status check_single_node(const std::vector<int>& world_ranks, const std::vector<std::uint32_t>& node_of_rank);

// MPI_Win_create, MPI_Win_allocate (memory allocated here: mapped by all when `parent` lies on one node) and
// MPI_Win_create_dynamic (size 0, no base): collective over `parent`, with every process's argument check agreed
// first as in allocate_shared.
Status create(const comm::Communicator& parent, const runtime::World& world, Flavor flavor, Contribution mine,
              char* base, const Status& local, std::unique_ptr<Window>& out);

// Collective over `parent` (already known to lie on one node). `local` is this process's argument check: the
// processes exchange it with their sizes before anything is made, so one process's bad argument fails the call on
// every process instead of leaving the others waiting.
Status allocate_shared(const comm::Communicator& parent, const runtime::World& world, Contribution mine,
                       bool noncontig, const Status& local, std::unique_ptr<Window>& out);

Status free_window(Window& w);  // collective: a barrier, then release()
void release(Window& w);        // local: unmaps, gives the context slot back (MPI_Win_free, MPI_Finalize)

void sync();                     // MPI_Win_sync: the private and public copies are one; order the accesses
Status fence(Window& w, bool opens_epoch);  // the channel's completion, a memory fence and a barrier
Status lock_all(Window& w, bool nocheck);
Status unlock_all(Window& w);
Status lock(Window& w, int target, LockType type, bool nocheck);
Status unlock(Window& w, int target);
Status flush(Window& w, int target);  // also flush_local
Status flush_all(Window& w);          // also flush_local_all

// Generalized active target (MPI-4.0 12.5.2); groups are ranks of the window.
Status post(Window& w, std::vector<int> origins);
Status start(Window& w, std::vector<int> targets);
Status complete(Window& w);
Status wait(Window& w);
Status test(Window& w, bool& done);

// MPI_Win_attach / MPI_Win_detach (dynamic windows; MPI-4.0 12.2.4).
Status attach(Window& w, void* base, std::size_t size);
Status detach(Window& w, const void* base);

}  // namespace strata::rma
