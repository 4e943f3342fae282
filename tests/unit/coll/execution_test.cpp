// The schedule engine on the simulated network: dependencies order the vertices, local vertices run when ready,
// scratch is per execution, a receive too small fails with MPI_ERR_TRUNCATE, and a schedule that can never finish
// is reported as a deadlock rather than hanging.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "coll/execution.hpp"
#include "datatype/predefined.hpp"
#include "sim_network.hpp"

using namespace strata;
using namespace strata::coll;
using strata::coll::sim::run_all;

namespace {

const datatype::TypeRef kInt = datatype::predefined(datatype::kInt);

TEST(Execution, RingPassesAToken) {
  // Rank r receives from r - 1 into scratch, adds its own value, sends to r + 1; rank 0 starts and ends it.
  const int p = 5;
  std::vector<int> mine(p), result(p, -1);
  std::iota(mine.begin(), mine.end(), 10);
  const std::string failure = run_all(p, [&](int r, Schedule& s) {
    const Data own{Buf::user(&mine[r]), 1, kInt};
    const Data out{Buf::user(&result[r]), 1, kInt};
    if (r == 0) {
      const VertexId sent = s.send(own, 1, 0);
      s.recv(out, p - 1, 0, {sent});
      return;
    }
    const Data token{s.scratch(sizeof(int)), 1, kInt};
    const VertexId got = s.recv(token, r - 1, 0);
    const VertexId copied = s.copy(own, out, {});
    const VertexId summed = s.reduce(token, out, datatype::predefined_op(datatype::kOpSum), 0, {got, copied});
    s.send(out, (r + 1) % p, 0, {summed});
  });
  ASSERT_EQ(failure, "");
  int running = mine[0];
  for (int r = 1; r < p; ++r) EXPECT_EQ(result[r], running += mine[r]) << "rank " << r;
  EXPECT_EQ(result[0], running);
}

TEST(Execution, TruncatedReceiveFails) {
  int big[4] = {1, 2, 3, 4}, small[2] = {};
  const std::string failure = run_all(2, [&](int r, Schedule& s) {
    if (r == 0) s.send({Buf::user(big), 4, kInt}, 1, 0);
    else s.recv({Buf::user(small), 2, kInt}, 0, 0);
  });
  EXPECT_NE(failure.find("16 bytes from rank 0"), std::string::npos) << failure;
}

TEST(Execution, DeadlockIsReported) {
  int x = 0;
  const std::string failure = run_all(2, [&](int r, Schedule& s) { s.recv({Buf::user(&x), 1, kInt}, 1 - r, 0); });
  EXPECT_EQ(failure, "deadlock: ranks 0, 1 still waiting");
}

TEST(Execution, RerunsWithFreshCounts) {
  // One schedule started three times: each run sees the buffer's current contents.
  int value = 1, got = 0;
  Schedule sender, receiver;
  sender.send({Buf::user(&value), 1, kInt}, 1, 0);
  receiver.recv({Buf::user(&got), 1, kInt}, 0, 0);
  sim::SimNetwork net(2);
  Execution a(sender, net.port(0)), b(receiver, net.port(1));
  for (int round = 1; round <= 3; ++round) {
    value = 100 * round;
    a.start();
    b.start();
    while (!(a.progress() & b.progress())) {
    }
    EXPECT_EQ(got, 100 * round);
  }
}

}  // namespace

namespace {

TEST(Execution, AppendedPartRunsAfterItsDependencyWithItsOwnTagsAndScratch) {
  // Two parts that both use tag 0 and scratch offset 0: rank 0 sends 1 then 2 to rank 1, each through scratch.
  const int first = 1, second = 2;
  int got[2] = {0, 0};
  auto part = [&](int r, const int* value, int* out) {
    Schedule s;
    const Data tmp{s.scratch(sizeof(int)), 1, kInt};
    if (r == 0) {
      s.send({Buf::user(value), 1, kInt}, 1, 0);
    } else {
      const VertexId in = s.recv(tmp, 0, 0);
      s.copy(tmp, {Buf::user(out), 1, kInt}, {in});
    }
    return s;
  };
  Schedule parts[2];
  const std::string failure = run_all(2, [&](int r, Schedule& s) {
    parts[0] = part(r, &first, &got[0]);
    parts[1] = part(r, &second, &got[1]);
    const VertexId a = s.append(parts[0], {}, 0);
    s.append(parts[1], {a}, 1);
    EXPECT_EQ(s.tags(), 2);
    EXPECT_EQ(s.scratch_bytes(), 64u + sizeof(int));  // the second part's scratch after the first's
  });
  ASSERT_EQ(failure, "");
  EXPECT_EQ(got[0], first);
  EXPECT_EQ(got[1], second);
}

TEST(Execution, FailingCallbackStopsTheRun) {
  int value = 7, got = 0;
  const std::string failure = run_all(1, [&](int, Schedule& s) {
    const VertexId fails = s.callback([] { return error(kErrArg, "checked and refused"); }, {});
    s.copy({Buf::user(&value), 1, kInt}, {Buf::user(&got), 1, kInt}, {fails});
  });
  EXPECT_EQ(failure, "checked and refused");
  EXPECT_EQ(got, 0);  // the copy after it never ran
}

}  // namespace
