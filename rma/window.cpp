// Creating, synchronising and freeing windows (see window.hpp).
#include "rma/window.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>

#include "comm/create.hpp"
#include "comm/internal_collectives.hpp"
#include "rma/lock.hpp"
#include "transport/engine.hpp"

namespace strata::rma {
namespace {

// What each process brings to the creation, exchanged in one allgather.
struct Record {
  std::int64_t size;
  std::int32_t disp_unit;
  std::int32_t noncontig;
  std::int32_t error_class;  // this process's argument check; 0 = fine
  std::int32_t pid;
  std::uint64_t base;        // create and allocate flavors: the window's memory in this process
};

template <class T>
std::vector<T> allgather_values(const comm::View& v, const T& mine) {
  std::vector<char> blob(sizeof(T));
  std::memcpy(blob.data(), &mine, sizeof(T));
  const std::vector<char> all = comm::allgather(v, blob, comm::kTagAllgather);
  std::vector<T> out(v.size());
  std::memcpy(out.data(), all.data(), all.size());
  return out;
}

comm::View view_of(const comm::Communicator& c) { return {c.collective_context(), c.rank, &c.world_ranks}; }

void barrier(const comm::Communicator& c) { allgather_values<char>(view_of(c), 0); }

// Every process's status after a step, agreed: the first failure (by rank) is everyone's result, with its message
// where it is this process's own.
Status agree(const comm::Communicator& c, const Status& mine, const char* step) {
  const std::vector<std::int32_t> classes = allgather_values<std::int32_t>(view_of(c), mine.error_class);
  for (int r = 0; r < c.size; ++r) {
    if (classes[r] == 0) continue;
    if (r == c.rank) return mine;
    return error(classes[r], std::string(step) + " failed on rank " + std::to_string(r) + " of the communicator");
  }
  return {};
}

LockWord lock_word(const Window& w, int target) {
  return LockWord(reinterpret_cast<std::int64_t*>(w.segment.base() + w.layout.lock_offset + target * kLockWordBytes));
}

}  // namespace

char* Window::base(int r) const {
  if (!direct()) return r == rank() ? local_base : nullptr;
  return layout.data_bytes == 0 ? nullptr : segment.base() + layout.offsets[r];
}

char* Window::program_base(int r) const {
  const bool separate_parts = flavor == Flavor::Allocate || (flavor == Flavor::Shared && noncontig);
  return separate_parts && layout.sizes[r] == 0 ? nullptr : base(r);
}

Status check_single_node(const std::vector<int>& world_ranks, const std::vector<std::uint32_t>& node_of_rank) {
  std::map<std::uint32_t, int> first_rank;  // node -> its lowest rank in the communicator
  for (int r = 0; r < static_cast<int>(world_ranks.size()); ++r) first_rank.emplace(node_of_rank[world_ranks[r]], r);
  if (first_rank.size() <= 1) return {};
  std::string where;
  for (const auto& [node, r] : first_rank)
    where += (where.empty() ? "rank " : ", rank ") + std::to_string(r) + " on node " + std::to_string(node);
  return error(kErrRmaShared, "the communicator's processes are on " + std::to_string(first_rank.size()) +
                                  " nodes (" + where + "); shared memory needs them all on one node "
                                  "(MPI_Comm_split_type with MPI_COMM_TYPE_SHARED gives per-node communicators)");
}

namespace {

// Sizes, units and argument checks (and MPI_Win_allocate's allocation) of every process, on the parent's collective
// context with an internal tag (as MPI_Comm_split does), before anything is made: the first failure (by rank) is
// everyone's.
Status exchange_records(const comm::Communicator& parent, const Record& mine, const Status& local,
                        std::vector<Record>& records) {
  records = allgather_values(view_of(parent), mine);
  for (int r = 0; r < parent.size; ++r) {
    if (records[r].error_class == 0) continue;
    if (r == parent.rank) return local;
    return error(records[r].error_class, "rank " + std::to_string(r) +
                                             " of the communicator gave an invalid argument or could not allocate "
                                             "its memory; no window was made");
  }
  return {};
}

TargetMemory memory_of(const Window& w) {
  const int me = w.rank();
  return {w.base(me), w.layout.sizes[me], w.layout.disp_units[me], w.flavor == Flavor::Dynamic, {}};
}

}  // namespace

Status create(const comm::Communicator& parent, const runtime::World& world, Flavor flavor, Contribution mine,
              char* base, const Status& local, std::unique_ptr<Window>& out) {
  if (flavor == Flavor::Allocate && check_single_node(parent.world_ranks, world.node_of_rank).ok()) {
    // Every process decides alike from the job map. Parts on pages of their own, each placed by its owner.
    if (Status s = allocate_shared(parent, world, mine, true, local, out); !s.ok()) return s;
    out->flavor = Flavor::Allocate;
    return {};
  }
  // MPI_Win_allocate's memory first, so that its address goes out with the sizes and its failure with the checks.
  void* allocated = nullptr;
  Status made = local;
  if (made.ok() && flavor == Flavor::Allocate && mine.size > 0 && posix_memalign(&allocated, 64, mine.size) != 0) {
    allocated = nullptr;
    made = error(kErrNoMem, "cannot allocate " + std::to_string(mine.size) + " bytes");
  }
  char* const memory = flavor == Flavor::Allocate ? static_cast<char*>(allocated) : base;
  const Record record{mine.size, mine.disp_unit, 0, made.error_class, static_cast<std::int32_t>(getpid()),
                      reinterpret_cast<std::uintptr_t>(memory)};
  std::vector<Record> records;
  Status exchanged = exchange_records(parent, record, made, records);
  auto w = std::make_unique<Window>(parent.size);
  if (exchanged.ok()) exchanged = comm::create_dup(parent, w->comm);
  if (!exchanged.ok()) {
    std::free(allocated);
    return exchanged;
  }
  w->flavor = flavor;
  w->allocated = allocated;
  w->local_base = memory;
  for (const Record& x : records) {
    w->layout.sizes.push_back(static_cast<std::size_t>(x.size));
    w->layout.disp_units.push_back(x.disp_unit);
  }
  w->lock_nocheck.assign(parent.size, false);
  w->size_attr = static_cast<std::intptr_t>(mine.size);
  w->disp_unit_attr = mine.disp_unit;
  if (flavor != Flavor::Dynamic && transport::engine().cross_memory_allowed()) {
    CrossMemory& m = w->cross_memory;
    const std::uint32_t here = world.node_of_rank[parent.world_ranks[parent.rank]];
    for (int r = 0; r < parent.size; ++r) {
      m.pids.push_back(world.node_of_rank[parent.world_ranks[r]] == here ? records[r].pid : 0);
      m.bases.push_back(static_cast<std::uintptr_t>(records[r].base));
    }
  }
  w->channel = std::make_unique<Channel>(*w->comm, memory_of(*w), true);
  out = std::move(w);
  return {};
}

Status allocate_shared(const comm::Communicator& parent, const runtime::World& world, Contribution mine,
                       bool noncontig, const Status& local, std::unique_ptr<Window>& out) {
  // 1. Sizes, units and argument checks of every process, before anything is made.
  std::vector<Record> records;
  if (Status s = exchange_records(parent, Record{mine.size, mine.disp_unit, noncontig, local.error_class, 0, 0}, local,
                                  records);
      !s.ok())
    return s;
  std::vector<Contribution> parts;
  for (const Record& x : records) parts.push_back({x.size, x.disp_unit});
  auto w = std::make_unique<Window>(parent.size);
  w->noncontig = records[0].noncontig != 0;  // rank 0's hint decides, so the layout is the same everywhere
  if (Status s = plan_layout(parts, w->noncontig, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), w->layout);
      !s.ok())
    return s;
  w->lock_nocheck.assign(parent.size, false);
  w->size_attr = static_cast<std::intptr_t>(mine.size);
  w->disp_unit_attr = mine.disp_unit;

  // 2. A private communicator: the remaining steps and every later barrier run on its collective context.
  if (Status s = comm::create_dup(parent, w->comm); !s.ok()) return s;
  const comm::Communicator& c = *w->comm;
  auto fail = [&](Status s) {
    w->segment.unmap();
    comm::release(c);
    return s;
  };

  // 3. The lowest rank creates the segment; the others open it once they know it exists. Each reserves its own
  //    part (the lowest rank also the lock words), maps the whole, and once everyone has, the name goes.
  const std::string name = Segment::name_for(world.job_id, c.world_rank(0), c.slot());
  Status made = c.rank == 0 ? w->segment.create(name, w->layout.segment_bytes) : Status{};
  if (Status s = agree(c, made, "creating the shared segment"); !s.ok()) return fail(s);
  Status mapped = c.rank == 0 ? Status{} : w->segment.open(name);
  const int me = c.rank;
  if (mapped.ok()) mapped = w->segment.reserve(w->layout.offsets[me], w->layout.sizes[me]);
  if (mapped.ok() && me == 0)
    mapped = w->segment.reserve(w->layout.lock_offset, w->layout.segment_bytes - w->layout.lock_offset);
  if (mapped.ok()) mapped = w->segment.map(w->layout.segment_bytes);
  if (Status s = agree(c, mapped, "mapping the shared segment"); !s.ok()) return fail(s);
  w->segment.unlink();  // only the creator's call does anything
  w->channel = std::make_unique<Channel>(*w->comm, memory_of(*w), false);
  out = std::move(w);
  return {};
}

Status free_window(Window& w) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  barrier(*w.comm);  // no process frees while another may still be in an epoch on its part
  release(w);
  return {};
}

void release(Window& w) {
  w.channel.reset();  // its last answers sent, its poller gone
  w.segment.unmap();
  std::free(w.allocated);
  w.allocated = nullptr;
  comm::release(*w.comm);
}

void sync() { std::atomic_thread_fence(std::memory_order_seq_cst); }

namespace {

std::vector<int> all_ranks(const Window& w) {
  std::vector<int> ranks(w.size());
  for (int r = 0; r < w.size(); ++r) ranks[r] = r;
  return ranks;
}

// The targets RMA operations went to since their last completion, now completed (flushed, or unlocked when
// `unlock`), and no longer touched.
void complete_touched(Window& w, const std::vector<int>& targets) {
  std::vector<int> touched;
  for (int t : targets)
    if (w.touched[t]) touched.push_back(t);
  if (!touched.empty()) w.channel->flush(touched);
  for (int t : touched) w.touched[t] = false;
}

bool shared_locks(const Window& w) { return w.direct(); }  // lock words in the mapped segment

}  // namespace

Status fence(Window& w, bool opens_epoch) {
  if (Status s = w.epochs.fence(opens_epoch); !s.ok()) return s;
  if (!w.direct()) w.channel->fence();  // every operation of the epoch applied at its target
  std::fill(w.touched.begin(), w.touched.end(), false);
  sync();  // stores before the fence are visible to loads after it, on every process
  barrier(*w.comm);
  sync();
  return {};
}

Status lock_all(Window& w, bool nocheck) {
  if (Status s = w.epochs.lock_all(); !s.ok()) return s;
  w.lock_all_nocheck = nocheck;
  if (!nocheck) {
    if (shared_locks(w))
      for (int t = 0; t < w.size(); ++t) lock_word(w, t).acquire_shared();
    else
      w.channel->lock(all_ranks(w), false);
  }
  sync();
  return {};
}

Status unlock_all(Window& w) {
  if (Status s = w.epochs.unlock_all(); !s.ok()) return s;
  sync();
  if (w.lock_all_nocheck || shared_locks(w)) complete_touched(w, all_ranks(w));
  if (w.lock_all_nocheck) return {};
  if (shared_locks(w)) {
    for (int t = 0; t < w.size(); ++t) lock_word(w, t).release_shared();
  } else {
    w.channel->unlock(all_ranks(w));  // answered after every earlier operation
    std::fill(w.touched.begin(), w.touched.end(), false);
  }
  return {};
}

Status lock(Window& w, int target, LockType type, bool nocheck) {
  if (Status s = w.epochs.lock(target, type); !s.ok()) return s;
  w.lock_nocheck[target] = nocheck;
  if (!nocheck) {
    if (!shared_locks(w))
      w.channel->lock({target}, type == LockType::Exclusive);
    else if (type == LockType::Exclusive)
      lock_word(w, target).acquire_exclusive();
    else
      lock_word(w, target).acquire_shared();
  }
  sync();
  return {};
}

Status unlock(Window& w, int target) {
  const LockType type = w.epochs.lock_of(target);
  if (Status s = w.epochs.unlock(target); !s.ok()) return s;
  sync();
  if (w.lock_nocheck[target] || shared_locks(w)) complete_touched(w, {target});
  if (w.lock_nocheck[target]) return {};
  if (!shared_locks(w)) {
    w.channel->unlock({target});
    w.touched[target] = false;
  } else if (type == LockType::Exclusive) {
    lock_word(w, target).release_exclusive();
  } else {
    lock_word(w, target).release_shared();
  }
  return {};
}

Status flush(Window& w, int target) {
  if (Status s = w.epochs.flush(target); !s.ok()) return s;
  complete_touched(w, {target});
  sync();
  return {};
}

Status flush_all(Window& w) {
  if (Status s = w.epochs.flush_all(); !s.ok()) return s;
  complete_touched(w, all_ranks(w));
  sync();
  return {};
}

Status post(Window& w, std::vector<int> origins) {
  if (Status s = w.epochs.post(origins); !s.ok()) return s;
  sync();  // the target's stores before the post are visible to the epoch's accesses
  w.channel->post(origins);
  return {};
}

Status start(Window& w, std::vector<int> targets) {
  if (Status s = w.epochs.start(targets); !s.ok()) return s;
  w.channel->start(targets);
  sync();
  return {};
}

Status complete(Window& w) {
  const std::vector<int> targets = w.epochs.access_group();
  if (Status s = w.epochs.complete(); !s.ok()) return s;
  sync();
  w.channel->complete(targets);  // Complete follows the operations, so the target has them all when it sees it
  for (int t : targets) w.touched[t] = false;
  return {};
}

Status wait(Window& w) {
  const std::vector<int> origins = w.epochs.exposure_group();
  if (Status s = w.epochs.wait(); !s.ok()) return s;
  w.channel->wait_completed(origins);
  sync();
  return {};
}

Status test(Window& w, bool& done) {
  done = false;
  if (!w.epochs.exposed()) return w.epochs.wait();  // the error
  if (!w.channel->completed(w.epochs.exposure_group())) return {};
  done = true;
  Status s = w.epochs.wait();
  sync();
  return s;
}

Status attach(Window& w, void* base, std::size_t size) {
  if (w.flavor != Flavor::Dynamic)
    return error(kErrRmaFlavor, "memory can be attached to dynamic windows only (MPI_Win_create_dynamic)");
  const auto lo = reinterpret_cast<std::uintptr_t>(base);
  auto& regions = w.channel->memory().attached;
  for (const auto& [addr, bytes] : regions)
    if (lo < addr + bytes && addr < lo + size)
      return error(kErrRmaAttach, "the region overlaps one already attached to this window");
  regions.emplace_back(lo, size);
  return {};
}

Status detach(Window& w, const void* base) {
  if (w.flavor != Flavor::Dynamic)
    return error(kErrRmaFlavor, "memory can be detached from dynamic windows only (MPI_Win_create_dynamic)");
  auto& regions = w.channel->memory().attached;
  const auto lo = reinterpret_cast<std::uintptr_t>(base);
  const auto it = std::find_if(regions.begin(), regions.end(), [&](const auto& r) { return r.first == lo; });
  if (it == regions.end()) return error(kErrRmaAttach, "no region attached to this window starts at that address");
  // An erroneous program's put into it must not land in memory the caller frees. By value: another thread may attach
  // while this one waits.
  const std::pair<std::uintptr_t, std::size_t> region = *it;
  w.channel->finish_landing(region);
  std::erase(regions, region);
  return {};
}

}  // namespace strata::rma
