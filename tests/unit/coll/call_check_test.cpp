// STRATA_CHECK_COLL's verification (coll/call_check.*) on simulated ranks: matching calls pass, including
// different types with the same signature and MPI_PACKED; each kind of mismatch (operation, root, operator,
// counts, datatypes, one rank's counts array in a v variant) fails on every rank with the same error, which names
// the first mismatching rank or pair and the right error class.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "coll/call_check.hpp"
#include "coll/execution.hpp"
#include "datatype/construct.hpp"
#include "datatype/predefined.hpp"
#include "sim_network.hpp"

using namespace strata;
using namespace strata::coll;

namespace {

const datatype::TypeRef kIntType = datatype::predefined(datatype::kInt);
const datatype::TypeRef kFloatType = datatype::predefined(datatype::kFloat);

struct Outcome {
  int error = 0;
  std::string message;
};

// Every rank checks its call (`call(rank)` gives the operation and arguments); returns what the ranks got, which
// must be the same on all of them.
Outcome check_calls(int p, const std::function<std::pair<Operation, Args>(int)>& call) {
  sim::SimNetwork net(p);
  std::vector<std::unique_ptr<CallCheck>> checks;
  std::vector<Schedule> schedules(static_cast<std::size_t>(p));
  std::vector<std::unique_ptr<Execution>> runs;
  for (int r = 0; r < p; ++r) {
    auto [op, args] = call(r);
    args.rank = r;
    args.size = p;
    checks.push_back(std::make_unique<CallCheck>(op, args));
    checks.back()->build(schedules[r]);
    runs.push_back(std::make_unique<Execution>(schedules[r], net.port(r)));
  }
  for (auto& run : runs) run->start();
  for (int sweep = 0; sweep < 1000; ++sweep) {
    bool all = true;
    for (auto& run : runs) all = run->progress() && all;
    if (all) break;
  }
  Outcome first{runs[0]->error(), runs[0]->message()};
  for (int r = 0; r < p; ++r) {
    EXPECT_TRUE(runs[r]->finished()) << "rank " << r;
    EXPECT_EQ(runs[r]->error(), first.error) << "rank " << r;
    EXPECT_EQ(runs[r]->message(), first.message) << "rank " << r;
  }
  return first;
}

Args bcast_args(int root, std::size_t count, const datatype::TypeRef& type) {
  Args a;
  a.root = root;
  a.recvcount = count;
  a.recvtype = type;
  return a;
}

Args reduction_args(std::size_t count, const datatype::TypeRef& type, int op_kind) {
  Args a;
  a.sendcount = a.recvcount = count;
  a.sendtype = a.recvtype = type;
  a.op = datatype::predefined_op(op_kind);
  return a;
}

TEST(CallCheck, MatchingCallsPass) {
  for (int p : {1, 2, 3, 5, 8}) {
    auto bcast = [&](int) { return std::pair{Operation::kBcast, bcast_args(p - 1, 3, kIntType)}; };
    EXPECT_EQ(check_calls(p, bcast).error, 0);
    EXPECT_EQ(check_calls(p, [&](int) {
                return std::pair{Operation::kAllreduce, reduction_args(4, kFloatType, datatype::kOpMax)};
              }).error, 0);
    EXPECT_EQ(check_calls(p, [&](int) { return std::pair{Operation::kBarrier, Args{}}; }).error, 0);
  }
}

TEST(CallCheck, SameSignatureFromOtherTypesPasses) {
  datatype::TypeRef pair;
  ASSERT_TRUE(datatype::contiguous(2, kIntType, pair).ok());
  // Allgather: rank 1 sends 2 x {int, int} where the others send and everyone receives 4 ints.
  const Outcome o = check_calls(3, [&](int r) {
    Args a;
    a.sendcount = r == 1 ? 2 : 4;
    a.sendtype = r == 1 ? pair : kIntType;
    a.recvcount = 4;
    a.recvtype = kIntType;
    return std::pair{Operation::kAllgather, a};
  });
  EXPECT_EQ(o.error, 0) << o.message;
  // MPI_PACKED matches any signature of the same size.
  const Outcome packed = check_calls(2, [&](int r) {
    return std::pair{Operation::kBcast, r == 0 ? bcast_args(0, 3, kIntType)
                                               : bcast_args(0, 12, datatype::predefined(datatype::kPacked))};
  });
  EXPECT_EQ(packed.error, 0) << packed.message;
}

TEST(CallCheck, DifferentOperationIsReported) {
  const Outcome o = check_calls(4, [&](int r) {
    return r == 2 ? std::pair{Operation::kReduce, reduction_args(1, kIntType, datatype::kOpSum)}
                  : std::pair{Operation::kBcast, bcast_args(0, 1, kIntType)};
  });
  EXPECT_EQ(o.error, kErrOther);
  EXPECT_NE(o.message.find("rank 2 called reduce where rank 0 called bcast"), std::string::npos) << o.message;
}

TEST(CallCheck, DifferentRootIsReported) {
  const Outcome o = check_calls(5, [&](int r) {
    return std::pair{Operation::kBcast, bcast_args(r == 3 ? 1 : 0, 2, kIntType)};
  });
  EXPECT_EQ(o.error, kErrRoot);
  EXPECT_NE(o.message.find("rank 3 gave root 1 where rank 0 gave root 0"), std::string::npos) << o.message;
}

TEST(CallCheck, DifferentOperatorIsReported) {
  const Outcome o = check_calls(3, [&](int r) {
    return std::pair{Operation::kAllreduce, reduction_args(2, kIntType, r == 1 ? datatype::kOpMax : datatype::kOpSum)};
  });
  EXPECT_EQ(o.error, kErrOp);
  EXPECT_NE(o.message.find("rank 1 gave MPI_MAX where rank 0 gave MPI_SUM"), std::string::npos) << o.message;
}

TEST(CallCheck, DifferentCountIsReportedAsThePairThatDisagrees) {
  const Outcome o = check_calls(4, [&](int r) {
    return std::pair{Operation::kBcast, bcast_args(0, r == 3 ? 4 : 3, kIntType)};
  });
  EXPECT_EQ(o.error, kErrCount);
  EXPECT_NE(o.message.find("rank 0 sends rank 3 12 bytes (3 basic elements), but rank 3 expects 16 bytes (4 basic "
                           "elements)"),
            std::string::npos)
      << o.message;
}

TEST(CallCheck, SameSizeOtherTypeIsReported) {
  const Outcome o = check_calls(2, [&](int r) {
    return std::pair{Operation::kAllreduce, reduction_args(2, r == 0 ? kIntType : kFloatType, datatype::kOpSum)};
  });
  EXPECT_EQ(o.error, kErrType);
  EXPECT_NE(o.message.find("rank 0 sends rank 1 8 bytes (2 basic elements) whose type signature differs"),
            std::string::npos)
      << o.message;
}

TEST(CallCheck, OneWrongEntryOfARootsCountsIsReported) {
  // Gatherv to root 1: the root expects 5 ints from rank 2, which sends 2.
  const Outcome o = check_calls(4, [&](int r) {
    Args a;
    a.root = 1;
    a.sendcount = 2;
    a.sendtype = kIntType;
    if (r == 1) {
      a.recvcounts = {2, 2, 5, 2};
      a.rdispls = {0, 2, 4, 9};
      a.recvtype = kIntType;
    }
    return std::pair{Operation::kGatherv, a};
  });
  EXPECT_EQ(o.error, kErrCount);
  EXPECT_NE(o.message.find("rank 2 sends rank 1 8 bytes (2 basic elements), but rank 1 expects 20 bytes"),
            std::string::npos)
      << o.message;
}

TEST(CallCheck, ReduceScatterCountsMustAgree) {
  const Outcome o = check_calls(3, [&](int r) {
    Args a = reduction_args(6, kIntType, datatype::kOpSum);
    a.recvcounts = r == 2 ? std::vector<int>{1, 2, 3} : std::vector<int>{2, 2, 2};
    return std::pair{Operation::kReduceScatter, a};
  });
  EXPECT_EQ(o.error, kErrCount);
  EXPECT_NE(o.message.find("rank 0 sends rank 2 8 bytes"), std::string::npos) << o.message;
}

}  // namespace
