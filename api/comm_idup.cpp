// MPI_Comm_idup (MPI-4.0 7.4.2): returns at once. The new communicator's context slot is agreed on by a
// comm::SlotAgreement that the progress engine advances, so a member may wait for point-to-point traffic before
// it calls MPI_Comm_idup itself without deadlocking anyone. Hints, error handler and attributes are copied in the
// call; the handle is written to *newcomm when the request completes.
#include <memory>
#include <vector>

#include "api/check.hpp"
#include "api/comm_inherit.hpp"
#include "comm/create.hpp"
#include "runtime/progress.hpp"

using namespace strata;
using namespace strata::api;

namespace {

struct PendingIdup {
  std::unique_ptr<comm::SlotAgreement> agreement;
  std::unique_ptr<comm::Communicator> fresh;  // nullptr: inheriting failed, finish the agreement for the others
  ApiRequest* request = nullptr;
  MPI_Comm* newcomm = nullptr;
};

std::vector<PendingIdup>& pending() {
  static std::vector<PendingIdup> list;
  return list;
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
  bool moved = false;
  std::vector<PendingIdup>& list = pending();
  for (std::size_t i = 0; i < list.size();) {
    moved |= list[i].agreement->poll();
    if (!list[i].agreement->done()) {
      ++i;
      continue;
    }
    complete(list[i]);
    list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
  }
  if (list.empty()) runtime::remove_poller(poll_pending, nullptr);
  return moved;
}

}  // namespace

STRATA_PMPI(Comm_idup)
extern "C" int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  comm::Communicator* c = nullptr;
  Check check("MPI_Comm_idup", comm);
  check.comm(comm, c).not_null(newcomm, "newcomm").not_null(request, "request");
  if (!check.ok()) return check.raise();
  PendingIdup p;
  p.agreement = comm::start_dup(*c, p.fresh);
  const int rc = inherit("MPI_Comm_idup", comm, *c, *p.fresh, true);
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
