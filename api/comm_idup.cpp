// MPI_Comm_idup (MPI-4.0 7.4.2): returns at once. The new communicator's context slot is agreed on by a
// comm::SlotAgreement that the progress engine advances, so a member may wait for point-to-point traffic before
// it calls MPI_Comm_idup itself without deadlocking anyone. Hints, error handler and attributes are copied in the
// call; the handle is written to *newcomm when the request completes.
#include <memory>
#include <vector>

#include "api/check.hpp"
#include "api/comm_idup.hpp"
#include "api/comm_inherit.hpp"
#include "comm/create.hpp"
#include "runtime/lasting.hpp"
#include "runtime/progress.hpp"

using namespace strata;
using namespace strata::api;

namespace {

struct PendingIdup {
  std::unique_ptr<comm::SlotAgreement> agreement;
  int parent_slot = -1;  // its messages travel on the parent's collective context
  std::unique_ptr<comm::Communicator> fresh;  // nullptr: inheriting failed, finish the agreement for the others
  ApiRequest* request = nullptr;
  MPI_Comm* newcomm = nullptr;
};

std::vector<PendingIdup>& pending() {
  static auto& list = runtime::lasting<std::vector<PendingIdup>>();
  return list;
}

// Slots of communicators freed while idups on them were pending: released when the last of those finishes.
std::vector<int>& slots_to_release() {
  static auto& slots = runtime::lasting<std::vector<int>>();
  return slots;
}

bool used_by_pending(int slot) {
  for (const PendingIdup& p : pending())
    if (p.parent_slot == slot) return true;
  return false;
}

void release_finished_parents() {
  std::vector<int>& slots = slots_to_release();
  for (std::size_t i = 0; i < slots.size();) {
    if (used_by_pending(slots[i])) {
      ++i;
      continue;
    }
    comm::context_pool().release(slots[i]);
    slots.erase(slots.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

void complete(PendingIdup& p) {
  const comm::SlotAgreement& a = *p.agreement;
  if (!p.fresh) {
    if (a.status().ok()) comm::context_pool().release(a.slot());
    return;
  }
  ApiRequest& r = *p.request;
  r.status = {MPI_ANY_SOURCE, MPI_ANY_TAG, 0, 0, false};
  if (a.status().ok()) {
    comm::set_slot(*p.fresh, a.slot());
    *p.newcomm = comms().add(p.fresh.release());
  } else {
    disinherit(*p.fresh);
    *p.newcomm = MPI_COMM_NULL;
    r.status.error = a.status().error_class;
    r.failure = a.status().message;
  }
  r.complete = true;
}

bool poll_pending(void*) {
  bool moved = false, finished = false;
  std::vector<PendingIdup>& list = pending();
  for (std::size_t i = 0; i < list.size();) {
    moved |= list[i].agreement->poll();
    if (!list[i].agreement->done()) {
      ++i;
      continue;
    }
    complete(list[i]);
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
    finished = true;
  }
  if (finished) release_finished_parents();
  if (list.empty()) runtime::remove_poller(poll_pending, nullptr);
  return moved;
}

}  // namespace

namespace strata::api {

bool defer_slot_release(int slot) {
  if (!used_by_pending(slot)) return false;
  slots_to_release().push_back(slot);
  return true;
}

}  // namespace strata::api

namespace {

// MPI_Comm_idup, and with `with_info` MPI_Comm_idup_with_info, whose hints replace the parent's.
int idup(const char* call, MPI_Comm comm, MPI_Info info, bool with_info, MPI_Comm* newcomm, MPI_Request* request) {
  comm::Communicator* c = nullptr;
  Check check(call, comm);
  check.comm(comm, c).not_null(newcomm, "newcomm").not_null(request, "request");
  runtime::Info* given = nullptr;
  if (with_info) check.info(info, given, true);
  if (!check.ok()) return check.raise();
  PendingIdup p;
  p.parent_slot = c->slot();
  p.agreement = comm::start_dup(*c, p.fresh);
  const int rc = inherit(call, comm, *c, *p.fresh, true);
  if (with_info) p.fresh->hints = given ? given->dup() : runtime::Info{};
  if (rc != MPI_SUCCESS) {
    p.fresh.reset();
    *request = MPI_REQUEST_NULL;
  } else {
    auto* r = new ApiRequest;
    r->kind = transport::RequestKind::Recv;
    r->collective = true;
    r->comm = comm;
    r->active = true;
    p.request = r;
    p.newcomm = newcomm;
    *request = requests().add(r);
  }
  if (pending().empty()) runtime::add_poller(poll_pending, nullptr);
  pending().push_back(std::move(p));
  poll_pending(nullptr);  // a single member, or messages already here, complete it at once
  return rc;
}

}  // namespace

STRATA_PMPI(Comm_idup)
extern "C" int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return idup("MPI_Comm_idup", comm, MPI_INFO_NULL, false, newcomm, request);
}

STRATA_PMPI(Comm_idup_with_info)
extern "C" int PMPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm, MPI_Request* request) {
  const runtime::CallScope call_scope;
  return idup("MPI_Comm_idup_with_info", comm, info, true, newcomm, request);
}
