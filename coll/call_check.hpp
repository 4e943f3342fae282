// STRATA_CHECK_COLL=1: every collective first verifies that all ranks called the same operation with the same
// root and operator, and that what each rank sends each other rank matches, in type signature, what that rank
// expects from it (MPI-4.0 6.1: "the type signature ... must be equal"). Mismatches that would otherwise hang or
// overwrite memory become an error on every rank, naming the first mismatch in a fixed order (operation, root,
// operator, then pairs of ranks), so every rank reports the same one.
//
// The check is part of the schedule: an allgather of one record per rank (the call's description and a signature
// hash per peer and direction, datatype/signature_hash.hpp), then a callback that compares them and fails the run,
// then the algorithm. So it costs no extra synchronisation in nonblocking calls (the error appears at completion)
// and it reruns at each start of a cached or persistent collective.
#pragma once
#include <vector>

#include "coll/algorithms.hpp"
#include "coll/schedule.hpp"

namespace strata::coll {

// Whether STRATA_CHECK_COLL is set to a value other than 0 (read once).
bool call_check_enabled();

class CallCheck {
 public:
  CallCheck(Operation op, const Args& args);
  // Adds the allgather and the comparison to `s`; returns the vertex after which the algorithm may run, its tags
  // offset by tag_count().
  VertexId build(Schedule& s);
  static int tag_count();
  // The first mismatch between the gathered records (all ranks find the same), or success.
  Status verify() const;

 private:
  int rank_, size_;
  std::vector<char> mine_;  // this rank's record
  std::vector<char> all_;   // every rank's, in rank order
};

}  // namespace strata::coll
