// The cost model's parameters measured once per job, at MPI_Init, when STRATA_COST_PROBE=1 (and no
// STRATA_COST_FILE is given): rank 0 ping-pongs with one rank of each link class it has (coll::link_class of their
// placements: the lowest rank of the class) while the others wait, fits each link's Hockney lines, eager and
// rendezvous, through the sizes of coll::kProbeSizes (coll::fit_link), times its own reduction of 1 MiB of doubles
// for gamma, fills the classes the job lacks (coll::fill_unmeasured) and sends the result to every rank. Every rank
// then costs with the same figures, as it must (ranks that chose different algorithms would wait for each other
// forever). Node memory keeps its built-in figure: no pair of messages measures it.
//
// It runs at MPI_Init rather than at the model's first use because that first use is inside some communicator's
// collective, where the other ranks of the job cannot be asked to take part. It is written over PMPI, with messages
// only: a collective (even the MPI_Comm_dup of a private communicator) would consult the model being measured. So
// it talks on MPI_COMM_WORLD, safely: every receive names rank 0 or its peer, and a rank leaves only once rank 0's
// last message to it, the result, has arrived; a user message sent after that cannot overtake it.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "api/cost_probe.hpp"
#include "coll/cost_parameters.hpp"
#include "coll/hierarchy.hpp"
#include "mpi.h"

namespace strata::api {
namespace {

constexpr auto kClasses = static_cast<std::size_t>(coll::LinkClass::kCount);
constexpr const std::size_t (&kSizes)[4] = coll::kProbeSizes;
constexpr std::size_t kLarge = kSizes[3];
constexpr int kTagGo = 1, kTagPing = 2, kTagResult = 3;
constexpr int kBatches = 5;
// The parameters as they travel: per class alpha and beta and those of its rendezvous line, gamma, node memory's
// alpha and beta, and whether they were measured (1) or are the built-in ones (0: a job of one rank, or bindings rank
// 0 could not read).
constexpr int kValues = 4 * static_cast<int>(kClasses) + 4;
constexpr int kMeasured = kValues - 1;

using Values = std::array<double, kValues>;

Values pack(const coll::CostParameters& p) {
  Values v{};
  for (std::size_t c = 0; c < kClasses; ++c) {
    const coll::Link& l = p.links[c];
    v[4 * c] = l.alpha;
    v[4 * c + 1] = l.beta;
    v[4 * c + 2] = l.rendezvous_alpha;
    v[4 * c + 3] = l.rendezvous_beta;
  }
  v[4 * kClasses] = p.gamma;
  v[4 * kClasses + 1] = p.node_memory.alpha;
  v[4 * kClasses + 2] = p.node_memory.beta;
  return v;
}

coll::CostParameters unpack(const Values& v) {
  coll::CostParameters p;
  for (std::size_t c = 0; c < kClasses; ++c)
    p.links[c] = coll::with_rendezvous({v[4 * c], v[4 * c + 1]}, {v[4 * c + 2], v[4 * c + 3]},
                                       static_cast<coll::LinkClass>(c));
  p.gamma = v[4 * kClasses];
  p.node_memory = {v[4 * kClasses + 1], v[4 * kClasses + 2]};
  p.handoff = coll::default_cost_parameters().handoff;  // not probed: it shows only where ranks outnumber processors
  return p;
}

// One-way seconds of `bytes` between rank 0 and `peer`, on both: the fastest of a few batches of round trips. The
// fastest, since just after start-up the launcher and the progress threads still take turns on the cores, and a
// batch they interrupt measures them.
double ping_pong(MPI_Comm comm, int me, int peer, std::vector<char>& buffer, std::size_t bytes) {
  const int trips = bytes <= kSizes[1] ? 50 : 5;
  const int count = static_cast<int>(bytes);
  std::vector<double> batches;
  for (int b = -1; b < kBatches; ++b) {  // batch -1 warms the path up
    const double start = PMPI_Wtime();
    for (int t = 0; t < trips; ++t) {
      if (me == 0) {
        PMPI_Send(buffer.data(), count, MPI_BYTE, peer, kTagPing, comm);
        PMPI_Recv(buffer.data(), count, MPI_BYTE, peer, kTagPing, comm, MPI_STATUS_IGNORE);
      } else {
        PMPI_Recv(buffer.data(), count, MPI_BYTE, 0, kTagPing, comm, MPI_STATUS_IGNORE);
        PMPI_Send(buffer.data(), count, MPI_BYTE, 0, kTagPing, comm);
      }
    }
    if (b >= 0) batches.push_back((PMPI_Wtime() - start) / (2.0 * trips));
  }
  return *std::min_element(batches.begin(), batches.end());
}

double gamma_seconds_per_byte() {
  const std::size_t n = kLarge / sizeof(double);
  std::vector<double> in(n, 1.0), inout(n, 2.0);
  std::vector<double> times;
  for (int b = -1; b < kBatches; ++b) {
    const double start = PMPI_Wtime();
    PMPI_Reduce_local(in.data(), inout.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM);
    if (b >= 0) times.push_back(PMPI_Wtime() - start);
  }
  return *std::min_element(times.begin(), times.end()) / static_cast<double>(kLarge);
}

// Until rank 0 has sent this rank something, asleep: a waiting rank that polled would take the pair's processor
// time on a machine with fewer cores than ranks, and the probe would measure the scheduler.
void wait_asleep(MPI_Comm comm) {
  for (int flag = 0;;) {
    PMPI_Iprobe(0, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
    if (flag) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Rank 0: for each class, the lowest rank that class away from it, or -1 (all of them when the placements cannot
// be read: the job then costs with the built-in figures).
std::array<int, kClasses> partners(const comm::Communicator& world) {
  std::array<int, kClasses> out;
  out.fill(-1);
  Status status;
  const std::shared_ptr<const coll::Hierarchy> h = coll::hierarchy_of(world, status);
  if (h == nullptr) return out;
  for (std::size_t r = 1; r < h->placements.size(); ++r) {
    int& partner = out[static_cast<std::size_t>(coll::link_class(topo::distance(h->placements[0], h->placements[r])))];
    if (partner < 0) partner = static_cast<int>(r);
  }
  return out;
}

// The figures measured with `peers`, or none when there is no peer.
std::optional<coll::CostParameters> measure(MPI_Comm comm, const std::array<int, kClasses>& peers) {
  std::vector<char> buffer(kLarge);
  coll::CostParameters p = coll::default_cost_parameters();
  std::array<bool, kClasses> measured{};
  for (std::size_t c = 0; c < kClasses; ++c) {
    if (peers[c] < 0) continue;
    PMPI_Send(nullptr, 0, MPI_BYTE, peers[c], kTagGo, comm);
    double t[4];
    for (int i = 0; i < 4; ++i) t[i] = ping_pong(comm, 0, peers[c], buffer, kSizes[i]);
    const coll::Link eager = coll::fit_link(kSizes[0], t[0], kSizes[1], t[1]);
    const coll::Link rendezvous = coll::fit_link(kSizes[2], t[2], kSizes[3], t[3]);
    p.links[c] = coll::with_rendezvous(eager, rendezvous, static_cast<coll::LinkClass>(c));
    measured[c] = true;
  }
  if (!coll::fill_unmeasured(p, measured)) return std::nullopt;
  p.gamma = gamma_seconds_per_byte();
  return p;
}

}  // namespace

void probe_cost_parameters(const comm::Communicator& world) {
  const char* asked = std::getenv("STRATA_COST_PROBE");
  if (asked == nullptr || *asked == '\0' || std::strcmp(asked, "0") == 0) return;
  const char* file = std::getenv("STRATA_COST_FILE");
  int me = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  if (std::strcmp(asked, "1") != 0) {
    if (me == 0) std::cerr << "strata: STRATA_COST_PROBE=" << asked << " is neither 0 nor 1; no probe\n";
    return;
  }
  if (file != nullptr && *file != '\0') {  // decided alike on every rank: the launcher gives all the same
    if (me == 0) std::cerr << "strata: STRATA_COST_FILE is set, so STRATA_COST_PROBE is ignored\n";
    return;
  }
  const MPI_Comm comm = MPI_COMM_WORLD;
  Values values{};
  if (me == 0) {
    const std::optional<coll::CostParameters> measured = measure(comm, partners(world));
    values = pack(measured.value_or(coll::default_cost_parameters()));
    values[kMeasured] = measured ? 1 : 0;
    for (int r = 1; r < size; ++r) PMPI_Send(values.data(), kValues, MPI_DOUBLE, r, kTagResult, comm);
  } else {
    std::vector<char> buffer;
    MPI_Status status;
    for (;;) {  // at most one ping-pong (this rank's class), then the result
      wait_asleep(comm);
      PMPI_Recv(values.data(), kValues, MPI_DOUBLE, 0, MPI_ANY_TAG, comm, &status);
      if (status.MPI_TAG == kTagResult) break;
      buffer.resize(kLarge);
      for (std::size_t bytes : kSizes) ping_pong(comm, me, 0, buffer, bytes);
    }
  }
  if (values[kMeasured] == 1) coll::set_job_cost_parameters(unpack(values), "probe at MPI_Init");
}

}  // namespace strata::api
