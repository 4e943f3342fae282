#include "coll/selection.hpp"

#include <array>
#include <cctype>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <tuple>

#include "coll/algorithms/grouped.hpp"
#include "coll/cost_parameters.hpp"
#include "coll/hierarchy.hpp"
#include "runtime/lasting.hpp"

namespace strata::coll {
namespace {

constexpr std::size_t kAny = std::numeric_limits<std::size_t>::max();

// The default table: for each operation, rules in order; the first whose bounds hold and whose algorithm applies
// wins (a ring refuses a non-commutative operator, recursive doubling allgather a size that is not a power of two:
// the next rule then serves the call).
//
// Measured with bench/run-coll-algorithms (every algorithm forced by name; blocking, MPI_DOUBLE sums, MPI_BYTE
// blocks; 2 cores, so 4 and 8 ranks are oversubscribed and each message may wait for the scheduler; messages up to
// 64 KiB go eagerly through the shared-memory rings), us per call at 2 / 4 / 8 ranks, winner first:
//   bcast      8 B:    knomial 0.18 = binomial 0.19    binomial 0.26, linear 0.35      linear 0.91, binomial 1.02
//              1 KiB:  knomial 0.14, linear 0.23       binomial 0.36, linear 0.46      linear 1.30, binomial 1.86
//              64 KiB: linear 2.6, binomial 4.2        binomial 6.8, linear 7.2        linear 20.2, binomial 21.3
//                      (scatter_allgather 4.4 / 15.5 / 47: its extra steps no longer pay once 64 KiB is eager)
//              1 MiB:  pipeline 67, linear 101         linear 214 = binomial 215 = pipeline 220
//                                                      pipeline 492, linear 505, binomial 792
//   reduce     binomial leads or ties everywhere: 8 B 0.32 / 0.70 / 1.77, 1 KiB 0.40 / 1.03 / 2.22, 64 KiB
//              7.2 / 19.0 / 53.5, 1 MiB 148 / 364 / 1038 (linear: 8 B 0.26 / 0.79 / 4.78, 1 MiB 138 / 385 / 1550)
//   allreduce  8 B, 1 KiB: recursive_doubling 0.38 / 9.5 / 20.2 (rabenseifner 1.02 / 8.9 / 42.5)
//              64 KiB: ring 5.3, recursive_doubling 7.8    reduce_bcast 26.6 = rabenseifner 27.6 (ring 39.9)
//                      reduce_bcast 66, rabenseifner 83, ring 137
//              1 MiB:  segmented_ring 151 / 344 / 964 (ring 154 / 955 / 1746, rabenseifner 324 / 577 / 1886)
//              2 ranks, 2026-11-24 (4 launches; one call, then a stream): ring and segmented_ring tie at 64 and
//              128 KiB; at 256 KiB ring 56-67 / 47-111, segmented_ring 32-45 / 27-52 (a ring's halves then pass the
//              64 KiB eager limit and each pays a rendezvous; the segments stay eager)
//   allgather  8 B, 1 KiB: ring 0.31 / 0.39    bruck 5.2 / 5.8 = linear 5.9 / 7.7    linear 14.8 / 20.6, bruck 21
//              64 KiB: ring 4.5    linear 39.5, ring 46.6    ring 132, linear 162
//              1 MiB:  ring 132, linear 141    recursive_doubling 1075, linear 1205    linear 6429, ring 7021
//   alltoall   8 B - 64 KiB: linear everywhere (2 ranks: 0.30 - 4.7 = pairwise; 4: 4.4 - 31; 8: 15 - 202)
//              1 MiB:  pairwise 132 = linear 135    linear 1497, pairwise 1576    pairwise 7077, linear 8952
//   barrier (an earlier run): recursive_doubling 0.24 / 5.2 (dissemination 0.24 / 10), linear 14 (dissemination 17)
// With the node's shared memory (Args::shared_memory; a later run, 2026-11-22, 2 / 4 / 8 ranks):
//   reduce     shared_memory (reducing straight from the writers' areas) 8 B 0.09 / 0.41 / 0.86, 64 KiB 2.15 / 7.2 /
//              15.3, 1 MiB 57 / 145 / 398, where binomial takes 0.10 / 0.38 / 1.13, 3.3 / 23.6 / 82, 113 / 273 / 871;
//              without node memory, linear leads at 2 ranks (2.7 at 64 KiB, 93 at 1 MiB: no copy of the root's
//              input first)
//   allreduce  shared_memory 8 B 2.38 / 9.6, 1 KiB 2.70 / 9.9 at 4 / 8 ranks (recursive_doubling 2.46 / 15.7,
//              2.79 / 16.9); 64 KiB 20.5 / 88 (reduce_bcast 20.5 / 52)
//   allgather  shared_memory 64 KiB 20.7 / 67.7 at 4 / 8 ranks (linear 24.7 / 116, ring 30.4 / 107); 1 KiB 3.8 /
//              10.2 (linear 3.6 / 12.7); 8 B 4.0 / 11.5 (linear 2.9 / 9.7)
//   alltoall   shared_memory (each read carries all p blocks) ties linear at 8 B and loses at 1 KiB: not chosen
// A later run (2026-11-23, 4 rounds) has the node's memory ahead for small blocks, where the figures above had it tie
// or lose:
//   allgather  shared_memory 8 B 4.66 / 13.9, 1 KiB 5.73 / 15.6 at 4 / 8 ranks (linear 5.68 / 19.6, 8.59 / 25.9)
//   alltoall   8 ranks: shared_memory 8 B 15.2, 64 B 14.9, 256 B 17.9, 1 KiB 27.2 (linear 21.7, 19.1, 22.2, 29.3);
//              4 ranks: 4.94, 5.05, 6.20, 12.3 (linear 5.31, 5.37, 5.87, 7.08): a tie, then a loss
// 2026-11-24, 10 rounds, alltoall at 3 / 4 ranks: shared_memory 8 B 2.54 / 3.54, 64 B 2.51 / 2.89, 256 B 2.75 / 3.27
//              (linear 2.70 / 3.94, 2.80 / 3.52, 2.76 / 4.21): ahead at 4 ranks, a tie at 3. Above 64 KiB linear
//              leads pairwise at 3 and 4 ranks: 128 KiB 60.6 / 93.2 (pairwise 70.8 / 104), 1 MiB 508 / 1021 (562 /
//              1278; a second run at 4 ranks: 1069 against 1275). At 8 ranks 1 MiB they stay near a tie (6692 linear,
//              6998 pairwise; the earlier run above had pairwise ahead), so pairwise, which keeps one exchange in
//              flight, stayed there. 2026-11-28 (2 launches, blocking and nonblocking): linear 5196-5959, pairwise
//              5432-6527, Open MPI 4935-6330: linear up to 8 ranks.
// 2026-11-24, by machine state (bench/core_latency.c; 2-4 launches each): at 2 ranks the node-memory reduce takes
//              8 B 0.10-0.20, 64 KiB 4.1-5.4 / 27-28, 1 MiB 57-89 / 275-330 us in the fast / slow state, linear
//              0.105-0.108, 3.7-6.2 and 106-112 in both (Open MPI 0.11-0.15, 8.0-8.8, 107-112): linear at 2 ranks,
//              where the node's memory won only in the fast state. At 4 ranks, 1 MiB, it takes 212 / 540 against
//              linear's 340 / 334, ahead in one state by the factor it is behind in the other: kept there for now.
// 2026-11-24, bcast at 4 ranks (us; 17-25 launches each, machine states tagged): binomial, chosen up to 256 KiB
//              before, changes from launch to launch: 64 KiB 10-21 in most, 30-50 in 6 of 25, mostly fast ones. linear
//              takes 8 B 0.22-0.46, 1 KiB 0.41-0.94, 16 KiB 3.2-6.4, 64 KiB 11-16 (15-23 when the processors sit on
//              two core complexes), against Open MPI's 0.24-0.48, 4.1-6.1, 10.5-14.3, 18-28. shared_memory takes
//              64 KiB in 6-9.5, but 27-36 in 5 of 41 launches, above Open MPI: linear up to 64 KiB at 4 ranks, a
//              rule the model's node-memory preference may not override. A reduce by slices through the node's
//              memory (each rank folding n/p, as allreduce's shared_memory_slices) took 4 ranks, 1 MiB in 280-375 us
//              in 11 of 12 fast launches (652 in a slow one), shared_memory 214-315 (540-680): no better, not kept.
// 2026-11-28, reduce at 4 ranks in the slow state (3 rounds, us, 64 KiB / 1 MiB): shared_memory 12.7-13.1 /
//              206-226, binomial 27-37 / 372-405, linear 41-292 / 338-381, Open MPI 34-41 / 367-381. The new pipeline
//              (a chain by segments) loses at every segment size, 16 KiB 38-84 / 420-593 up to 128 KiB 33-155 /
//              377-525: with 4 ranks on 2 processors each segment waits for the scheduler at each hop. No rule names
//              it; the cost model may choose it across nodes.
// 2026-11-28, reduce in the slow state (2 launches, us at 3 / 4 / 8 ranks): binomial 8 B 0.39-0.54 / 0.52-0.54 /
//              1.08-1.24, 1 KiB 0.86-0.94 / 1.02-1.13 / 2.11-2.24, 4 KiB 1.8-1.9 / 2.3-2.4 / 8.7-11; shared_memory
//              8 B 0.76-0.94 / 1.14-1.35 / 3.08-3.12, 1 KiB 1.35-1.63 / 1.58-1.84 / 3.80-3.96, 4 KiB 1.8-2.0 /
//              2.2-2.6 / 5.2-5.4 (Open MPI at 4 ranks 8 B: 0.41-0.71). In a stream of small reduces the rings carry
//              several calls' messages per cache line the root takes, where the node's memory has it fetch one area
//              per writer and call: binomial up to 2 KiB, over the node-memory preference.
// 2026-11-28, later: reduce of 8 B / 1 KiB, us, every algorithm in one launch (3 launches, either machine state):
//              a stream of calls: shared_memory 0.43-0.45 / 0.81-0.88 at 4 ranks, 1.06-1.10 / 1.07-1.71 at 8, binomial
//              0.41-0.60 / 0.58-1.05 and 0.81-1.70 / 0.92-2.10, steadier and ahead or level; one call's latency (each
//              call followed by a sync, 2 launches): shared_memory 0.73-0.76 / 0.78-0.85 at 4 ranks and 1.06-1.45 /
//              2.3-3.2 at 8, binomial 1.26-1.65 / 1.73-1.81 and 7.5-8.5 / 9.1-10.7 (ranks all started at one instant:
//              4.7-4.8 against 5.2 at 4 ranks, 15.7-21.2 against 20.2-26.3 at 8). The stream figures above did not
//              recur: binomial up to 2 KiB at 3 ranks only (there it leads a stream, 0.33-0.46 against 0.41-0.43).
// 2026-11-28, bcast between the 2 ranks of a node when the job's ranks outnumber its processors (simulated nodes of
//              pack:2 core:2, 2 ranks each, 4 nodes on 2 processors; blocking, us): 8 MiB pipeline 11455, linear 1954
//              (one message: on the node its rendezvous is one read of the sender's memory), shared_memory 2213. Two
//              ranks on one processor cannot overlap a pipeline's segments, and each segment waits for the scheduler.
//              Through the node level of the hierarchical algorithms, 8 ranks on those 4 nodes: allgather 1 MiB
//              16790 -> 7634 in block order, bcast 1 MiB 1799 -> 850 and allreduce 1 MiB 3053 -> 1999 scattered. With
//              a processor each (2 ranks on this 2-processor machine) the pipeline stays: 8 MiB 257 against 575.
// 2026-11-29, bcast at 5-8 ranks once writers run ahead (node_segment.hpp), us by machine state (bench/core_latency.c;
//              2-4 launches each): shared_memory leads in the fast and middle states (8 ranks, 8 B: 0.32-0.42 against
//              linear's 0.41-0.53; 1 KiB 0.40-0.63 against 0.52-0.80), but with the processors on two core complexes
//              its readers' acknowledgements on the area's one line cost more than linear's rings: 8 ranks 8 B
//              0.51-0.76 against 0.51-0.55 (Open MPI 0.44-0.62), 5 ranks 256 B 0.48-0.51 against 0.44; level from
//              1 KiB, ahead from 4 KiB (1.03 against 1.46-1.53). Linear up to 256 B, over the node-memory preference.
//              Once each reader marks its own line (node_segment.hpp's Marks; 3-8 launches in that slow state): 8
//              ranks 8 B 0.44-0.46 against 0.47-0.52 (Open MPI 0.44-0.62), 256 B 0.61-0.67 against 0.62-0.65; but 5
//              ranks 8 B 0.35-0.39 against 0.31-0.36, 256 B 0.46-0.47 against 0.26-0.41, 7 ranks 256 B 0.63 against
//              0.43. The rule now stops at 7 ranks.
// 2026-11-29, later, bcast at 4 ranks (us; 12 launches, 4 in the slow state; blocking, nonblocking and isolated
//              calls): shared_memory 16 KiB 1.4-1.9 / 3.9-4.8 (fast / slow), 64 KiB 4.3-4.7 / 13.7-18.9, where linear
//              takes 3.4-6.1 / 8.3-10.8 and 11.6-15.9 / 29.8-40.5 (Open MPI at 64 KiB: 26-28); 8 B to 1 KiB a tie
//              (0.3-1.7 both). The outliers of 2026-11-24 did not recur once writers ran ahead: linear up to 4 KiB,
//              and up to 64 KiB only without the node's memory.
// 2026-11-30, reduce at 2 ranks once large blocks go into the rings and the node's memory with streaming stores
//              where ordinary ones are slow (runtime::OutboundCopy; 10 launches, both machine states, us, against Open
//              MPI in the same minute): 16 KiB shared_memory 1.3-3.4 (linear 3.8-6.0, pipeline 4.4-12.2, Open MPI
//              4.9-7.1); 64 KiB all three 5-11.6, 0.71-0.74 of Open MPI by median; 256 KiB pipeline 22-46, shared_memory
//              21-48, linear 38-62 (0.75 / 0.83 / 1.22 of Open MPI); 1 MiB pipeline 90-187, shared_memory 89-205,
//              linear 143-241 (0.82 / 0.90 / 1.25; 25 more launches: 0.85 / 0.83 / 1.07, linear up to 1.71). The
//              read of 1 MiB, then its reduction, is two passes one after the other; the pipeline overlaps them.
// 2026-11-30, allgather past the node memory's 128 KiB blocks (3 rounds, us at 3 / 4 / 8 ranks): 192 KiB linear 126 /
//              239 / 1115, ring 143 / 254 / 1496; 256 KiB linear 172 / 322 / 1424, ring 180 / 430 / 2031 (4 more rounds
//              at 8 ranks: 1389 against the ring's 1984): linear from 128 KiB at 3-8 ranks, where the ring served up to
//              256 KiB. Up to 128 KiB, without the node's memory, the ring stays (8 ranks, 64 KiB: 285 against 317).
// 2026-11-30, allgather at 2 ranks, shared_memory against the ring (5 launches in the machine's slow state, 3 in its
//              fast one; blocking): 8 B 0.167 / 0.199 (fast), 1 KiB 0.31 / 0.35 (fast), 0.86 / 1.01 (slow), 8 KiB
//              1.42 / 1.57 (fast), 4.8-5.0 / 5.2-5.9 (slow), 64 KiB 5.37-5.45 / 9.8-11.6 (fast; Open MPI 8.5),
//              10.2-12.2 / 10.3-12.5 (slow), nonblocking alike; 96 KiB 15.0 / 11.5 and 128 KiB 19-22 / 15-18
//              (slow): the ring's blocks then pass the rings' 64 KiB eager limit and go in one copy. So the node's
//              memory up to 64 KiB at 2 ranks, the ring above.
// 2026-11-30, alltoallv at 4 / 8 ranks (the exchange of the Parallel Research Kernels' Random; us per call, 2 and 1
//              launches, against Open MPI in the same minutes): 2 KiB / 1 KiB a peer linear 6.0-6.9 / 26.5-29.2,
//              pairwise 10.2-11.5 / 53.1-53.5, Open MPI 7.6-8.6 / 20.6-31.1; 64 KiB a peer linear 42.5 / 196, pairwise
//              51.9 / 214, Open MPI 54.5 / 205. The v and w exchanges know no global size, so they follow alltoall's
//              rank counts: linear up to 8 ranks, where pairwise had served every size.
// 2026-11-30, scan and exscan (MPI_INT, MPI_SUM; us, median of 3-300 calls, each timed to the last rank; recursive
//              doubling / linear / Open MPI): 2 ranks 8 B 0.4 / 0.1-0.3 / 0.1, 1 MiB 171-220 / 87-111 / 79-128, 64 MiB
//              exscan 114946 / 10209 / 11607 (recursive doubling sends both ways, copies and reduces what the other
//              side already has); 4 ranks 8 B 12.0 / 6.1-6.2 / 4.0, 64 KiB 59-62 / 28-30 / 34-39, 1 MiB 559-847 /
//              337-442 / 362-398; 8 ranks 8 B 35-46 / 49-53 / 19, 64 KiB 136-147 / 102-106 / 97-106, 1 MiB 4613-5347
//              / 1490-1861 / 869-1077. Found by ompi-tests-public's big-count test_exscan (60 s against Open MPI's 24).
// 2026-12-01, scan and exscan through the node's memory (shared_memory: each rank reads the inputs below it), bench/
//              coll.c (MPI_DOUBLE, MPI_SUM, us, 5 batches, the machine's slow state; linear / recursive_doubling /
//              shared_memory): 6 and 8 ranks, 8 and 512 B, one call (isolated) 11.7-30.7 / 16.1-25.6 / 8.5-13.7,
//              aligned 31-79 / 35-94 / 27-76, back to back 0.47-1.12 / 10-18 / 1.4-2.8 (the chain pipelines calls;
//              Open MPI, a chain too: 8 ranks 8 B 1.2, aligned 43 where linear took 47 and shared_memory 38).
//              One call's latency, 10-17 us less, outweighs 1-2 us more per call in a stream. At 4 ranks they tie at
//              8 B (linear 0.28 / 8.5 back to back / aligned, shared_memory 0.37 / 7.6); at 8-64 KiB shared_memory
//              wins back to back (2.0-16.5 against 8.4-75) but loses aligned (28-88 against 23-61): linear stays.
// 2026-12-02, reduce_scatter_block and allgatherv through the node's memory (shared_memory; MPI_DOUBLE, MPI_SUM,
//              /tmp program, best of 3 rounds of 50-500 calls, us; ring / pairwise / shared_memory): 3 ranks 8 B 9.1 /
//              7.5 / 7.0, 8 KiB 13.2 / 12.0 / 10.7, 256 KiB 160 / 143 / 106; 8 ranks 8 B 137 / 49 / 42, 1 KiB 140 /
//              52 / 54, 64 KiB 467 / 296 / 237, 256 KiB 1907 / 2067 / 1238. Allgatherv (ring / linear /
//              shared_memory): 3 ranks 8 B 10.0 / 8.3 / 7.9, 64 KiB 39 / 30 / 25; 8 ranks 8 B 144 / 60 / 44, 1 KiB
//              144 / 55 / 47, 64 KiB 397 / 251 / 135. Both take the node's memory from 3 ranks wherever it applies
//              (a contiguous reduce-scatter; blocks that fit an area or cut alike into pieces): the node steps of the
//              multi-leader allreduce among them.
// 2026-12-02, allgather past 128 KiB blocks once the node's memory takes them in area-sized pieces (bench/coll.c,
//              3 batches, us; linear / ring / shared_memory): 3 ranks 256 KiB 193 / 199 / 100, 1 MiB 782 / 717 / 377;
//              4 ranks 256 KiB 318 / 419 / 127, 1 MiB 1263 / 1914 / 551; 8 ranks 256 KiB 1190 / 2541 / 614, 1 MiB
//              7139 / 6817 / 3217, 4 MiB 30215 (linear) / 14569. At 2 ranks a tie (256 KiB 28.2 / 27.9 against the
//              ring) or a loss (1 MiB 132 against 118): the ring stays there.
// 2026-12-03, reduce and allreduce between the 2 ranks of a node when the job's ranks outnumber its processors, as
//              the bcast above (simulated nodes of pack:2 core:2, 2 ranks each, 4 nodes on 2 processors; a stream,
//              best of 3 batches, us). Reduce (pipeline / linear / shared_memory): 256 KiB 231 / 121 / 56, 1 MiB 927
//              / 262 / 191. Allreduce (segmented_ring / ring / recursive_doubling / shared_memory_slices): 16 KiB - /
//              90 / 52 / 80, 64 KiB - / 126-128 / 84-88 / 89-94, 128 KiB - / 154 / 147 / 109, 256 KiB 287 / 229 /
//              195 / 137, 1 MiB 1241 / 472 / 529 / 350. Pairs of a 4-rank job on 2 processors alike (1 MiB reduce 186
//              / 160 / 117, allreduce 300 / 268 / - / 184). So there: reduce through the node's memory (without it,
//              one message), allreduce by recursive doubling up to 64 KiB and by slices in the node's memory above
//              (without it, the ring). The hierarchical reduce's node level, 8 ranks on 4 such nodes, 1 MiB: 2757 ->
//              1650 in block order, 2767 -> 1678 scattered (bench/run-topology, 2 rounds; binomial 1730 / 2770).
// 2026-12-03, allreduce at 3 ranks, which the node memory's slices had not served (a 3-rank job on 2 processors,
//              best of 3 batches, us; recursive_doubling / reduce_bcast / segmented_ring / shared_memory_slices): 16
//              KiB 16.6 / 15.7 / 20.5 / 18.1, 64 KiB 33.2 / 28.9 / 31.1 / 29.3, 256 KiB 160 / 128 / 95 / 61, 1 MiB
//              694 / 544 / 392 / 214; two 3-rank communicators of a 6-rank job alike (1 MiB: 754 segmented ring, 376
//              slices). So the slices from 128 KiB, reduce_bcast below.
// 2026-12-03, allreduce at 9-16 ranks on one node, past the 8 the slices had been measured at (2 processors, us;
//              rabenseifner / segmented_ring / recursive_doubling / shared_memory_slices): 9 ranks 64 KiB 245 / - /
//              179 / 166, 128 KiB 303 / - / 611 / 200 (reduce_bcast 282); 12 ranks 1 MiB 3231 / 2521 / - / 1391; 16
//              ranks 64 KiB 636 / - / 433 / 498, 128 KiB 714 / - / 1522 / 528, 256 KiB 1049 / 1843 / - / 807, 1 MiB
//              4158 / 3555 / - / 1600. The slices from 128 KiB up to the 16 ranks measured. Below, recursive doubling
//              up to 32 KiB (9 ranks 16 KiB 136 against rabenseifner's 236; 12 ranks 32 KiB 208 / 283; 16 ranks 16 KiB
//              332 / 661, 32 KiB 396 / 571) and rabenseifner at 64 KiB, where all four are within the noise (9 ranks
//              rabenseifner 277, recursive doubling 207, slices 189, reduce_bcast 220; 16 ranks 613, 593, 537, 494).
//              Reduce there alike (binomial / reduce_scatter_gather / shared_memory): 9 ranks 64 KiB 88 / 257 / 38,
//              1 MiB 1033 / 1639 / 497; 16 ranks 64 KiB 118 / 452 / 73, 1 MiB 2150 / 2979 / 1200; up to 8 KiB a tie
//              within the noise (16 ranks 8 B 6.6 / - / 7.3, 1 KiB 47 / - / 21, 8 KiB 47 / - / 18). So the node's
//              memory past 8 KiB up to 16 ranks, where reduce_scatter_gather had served. Barrier (dissemination /
//              linear / shared_memory, a stream): 9 ranks 109 / 70 / 70, 12 ranks 130 / 69 / 58, 16 ranks 179 / 98 /
//              86. Allgather of small blocks at 16 ranks (bruck / recursive_doubling / linear / shared_memory): 8 B
//              203 / 229 / 164 / 86, 1 KiB 335 / 266 / 543 / 149 (larger blocks took the node's memory already). So
//              both go through the node's memory up to 16 ranks, as up to 8; the bcast's model chose it already
//              (16 ranks 1 MiB 307 against binomial's 1060).
//   barrier    shared_memory 2.28 / 7.94 at 4 / 8 ranks (recursive_doubling 2.73 / 14.5, linear 4.12 / 9.01);
//              since 2026-11-29 it goes by way of rank 0, slower back to back but faster before a rooted call
//              (algorithms/rooted.cpp)
//   allreduce  shared_memory_slices (each rank reduces one slice from the others' areas; 2026-11-23, 6 rounds, us
//              at 4 / 8 ranks): 16 KiB 12-13 / 37-44, 64 KiB 22-27 / 64-84, 256 KiB 71-96 / 200-405, 1 MiB 331-420 /
//              871-1434, where reduce_bcast takes 13-14 / 39-47, 28-35 / 71-91, 154-241 / 365-518 and segmented_ring
//              17-25 / 68-85, 30-53 / 107-159, 84-123 / 225-344, 344-518 / 1371-1896
// Linear algorithms win small and medium cases here because, with more ranks than cores, fewer steps mean fewer
// waits for the scheduler; they cost O(p) at one rank (so do the shared-memory barrier, reduce and allreduce: p-1
// reads each), so they are chosen only up to the ranks measured (8; the node's memory up to 16 for barrier, small
// allgathers, reduce and allreduce), and logarithmic or bandwidth-optimal algorithms (by their costs in
// algorithms/*.cpp) serve larger communicators.
// Thresholds between two measured sizes sit at their geometric middle (8 KiB between 1 and 64 KiB, 256 KiB between
// 64 KiB and 1 MiB). The v and w variants (but alltoallv and allgatherv, above) and reduce_scatter (but through
// the node's memory, above) are not benchmarked otherwise: their rules follow the costs. Run-to-run noise on this
// shared machine is 10 - 30%: near-ties are settled for the simpler algorithm.
struct Rule {
  Operation op;
  std::size_t max_bytes;  // one rank's block
  int min_ranks, max_ranks;
  const char* name;
  bool across_nodes = false;  // only for a communicator spanning nodes
  bool over_node_memory = false;  // measured against the node-memory algorithm, which the model may not put instead
  bool shared_processors = false;  // only where the job's ranks share processors (Args::shared_processors)
};

constexpr int kMany = std::numeric_limits<int>::max();
constexpr int kMostRanksCosted = 128;

// Across nodes the cost model chooses for the operations it can cost (barrier, bcast, reduce, allreduce, allgather:
// model_choice.hpp); gather and scatter take the hierarchical algorithms by rule, since each node's data then
// crosses the network once, whatever the rank order. bench/run-topology (8 ranks on 2 simulated nodes of pack:2
// core:2, tcp between them; us, hierarchical / best flat, block order then ranks scattered over the nodes), which
// the model's choices follow:
//              8 B                      64 KiB                   1 MiB
//   bcast      2.9 / 2.7,  3.6 / 8.9    130 / 140,  89 / 313     1258 / 855,  1039 / 1354
//   reduce     6.0 / 5.6,  4.7 / 6.5    213 / 249, 206 / 343     1447 / 1591, 1591 / 1630
//   allreduce  117 / 126,  121 / 155    594 / 320, 306 / 602     4275 / 2431, 3739 / 2868
//   allgather  128 / 151,  135 / 143    704 / 840, 779 / 984     13957 / 8673, 15044 / 7615
// (8 ranks on 2 cores: runs differ by 30% and more.) The multi-leader allreduce (2026-11-23, two runs of 2 and 3
// rounds): 1 MiB 3105 / 3831 in block order (hierarchical 3303 / 2572, best flat 3154 / 3383), 3253 / 5395 with
// ranks scattered (hierarchical 4932 / 7856, best flat 3457 / 3323); at 8 B it loses (179 / 183, hierarchical 95 /
// 116). The model picked it there until it queued each node's work on its processors (cost_model.hpp,
// cores_per_node); once transfers between nodes also took the sender's processor (2026-11-23) it picked it again at
// 8 B with ranks scattered (55.3 us predicted, hierarchical 55.9: a tie the runs do not bear out, 224 / 95 us), and
// reduce_bcast in block order. Since then a multi-leader allreduce of one slice (8 B: one element) is built as the
// hierarchical one: the two differed only in their node steps, the multi-leader's slower.
// 2026-11-30, bcast on 4 nodes of 2 (run-topology, 4 rounds; us, a stream / one call alone): in block order the
// binomial, hierarchical and multi_lane bcasts are predicted alike here (ranks outnumber processors: each tree's time
// is its processors' work), and multi_lane comes first by its pace (model_choice.hpp): 8 B 9.2 / 216-361 against
// binomial's 13.7 / 211-354 and the pipeline's 10.8 / 339-521; 64 KiB 323 against 423 and 334 (one call: 620-990
// against the pipeline's 850-1270); 1 MiB 1372 against 1620 and 4358. Ranks scattered: 9.8, 389, 1389.
// A hierarchical level among nodes' leaders once took these one-node rules too: at 2 leaders and 1 MiB a bcast
// pipeline and an allreduce segmented_ring, whose pieces each pay a rendezvous over tcp. With the model choosing
// there instead (select_level; run-topology, 3 rounds, ranks scattered, 2 / 4 nodes): hierarchical bcast 1 MiB
// 953 / 1216 us (was 1116 / 2168), allreduce 1 MiB 1997 / 3234 (was 2565 / 5754).
// Costing builds every rank's schedule for every candidate (the distance-aware tree alone is O(p^2 log p) per rank),
// so beyond kMostRanksCosted ranks these measured rules choose instead.
constexpr Rule kRules[] = {
    {Operation::kBarrier, kAny, 2, kMany, "hierarchical", true},
    {Operation::kBcast, kAny, 2, kMany, "hierarchical", true},
    {Operation::kGather, 262144, 2, kMany, "hierarchical", true},
    {Operation::kScatter, 262144, 2, kMany, "hierarchical", true},
    {Operation::kAllgather, 262144, 2, kMany, "hierarchical", true},
    {Operation::kAllgather, kAny, 2, kMany, "recursive_doubling", true},
    {Operation::kReduce, kAny, 2, kMany, "hierarchical", true},
    {Operation::kAllreduce, 262144, 2, kMany, "hierarchical", true},
    {Operation::kAllreduce, kAny, 2, kMany, "rabenseifner", true},
    {Operation::kBarrier, kAny, 3, 16, "shared_memory"},
    {Operation::kBarrier, kAny, 1, 4, "recursive_doubling"},
    {Operation::kBarrier, kAny, 5, 8, "linear"},
    {Operation::kBarrier, kAny, 9, kMany, "dissemination"},
    {Operation::kBcast, 4096, 4, 4, "linear", false, true},
    {Operation::kBcast, 65536, 4, 4, "linear"},
    {Operation::kBcast, 256, 5, 7, "linear", false, true},
    {Operation::kBcast, 8192, 5, 8, "linear"},
    {Operation::kBcast, kAny, 2, 2, "linear", false, false, true},
    {Operation::kBcast, 262144, 1, kMany, "binomial"},
    {Operation::kBcast, kAny, 1, kMany, "pipeline"},
    {Operation::kGather, 4096, 1, kMany, "binomial"},
    {Operation::kGather, kAny, 1, kMany, "linear"},
    {Operation::kScatter, 4096, 1, kMany, "binomial"},
    {Operation::kScatter, kAny, 1, kMany, "linear"},
    {Operation::kAllgather, 65536, 2, 2, "shared_memory"},
    {Operation::kAllgather, 8192, 2, 2, "ring"},
    {Operation::kAllgather, 8192, 3, 16, "shared_memory"},
    {Operation::kAllgather, 8192, 3, 8, "linear"},
    {Operation::kAllgather, 8192, 9, kMany, "bruck"},
    {Operation::kAllgather, kAny, 3, kMany, "shared_memory"},
    {Operation::kAllgather, 131072, 1, kMany, "ring"},
    {Operation::kAllgather, kAny, 3, 8, "linear"},
    {Operation::kAllgather, kAny, 1, kMany, "ring"},
    {Operation::kAllgatherv, kAny, 3, kMany, "shared_memory"},
    {Operation::kAllgatherv, kAny, 1, kMany, "ring"},
    {Operation::kAlltoall, 512, 4, 8, "shared_memory"},
    {Operation::kAlltoall, 65536, 1, 8, "linear"},
    {Operation::kAlltoall, kAny, 1, 8, "linear"},
    {Operation::kAlltoall, 256, 9, kMany, "bruck"},
    {Operation::kAlltoall, kAny, 1, kMany, "pairwise"},
    {Operation::kAlltoallv, kAny, 1, 8, "linear"},
    {Operation::kAlltoallv, kAny, 1, kMany, "pairwise"},
    {Operation::kAlltoallw, kAny, 1, 8, "linear"},
    {Operation::kAlltoallw, kAny, 1, kMany, "pairwise"},
    {Operation::kReduce, 2048, 3, 3, "binomial", false, true},
    {Operation::kReduce, kAny, 3, 8, "shared_memory"},
    {Operation::kReduce, 8192, 2, 2, "linear"},
    {Operation::kReduce, 131072, 2, 2, "shared_memory"},
    {Operation::kReduce, kAny, 2, 2, "shared_memory", false, false, true},
    {Operation::kReduce, kAny, 2, 2, "linear", false, false, true},
    {Operation::kReduce, kAny, 2, 2, "pipeline"},
    {Operation::kReduce, kAny, 1, 8, "binomial"},
    {Operation::kReduce, 8192, 9, kMany, "binomial"},
    {Operation::kReduce, kAny, 9, 16, "shared_memory"},
    {Operation::kReduce, kAny, 9, kMany, "reduce_scatter_gather"},
    {Operation::kAllreduce, 8192, 4, 8, "shared_memory"},
    {Operation::kAllreduce, kAny, 4, 8, "shared_memory_slices"},
    {Operation::kAllreduce, 8192, 1, kMany, "recursive_doubling"},
    {Operation::kAllreduce, 65536, 2, 2, "recursive_doubling", false, false, true},
    {Operation::kAllreduce, kAny, 2, 2, "shared_memory_slices", false, false, true},
    {Operation::kAllreduce, kAny, 2, 2, "ring", false, false, true},
    {Operation::kAllreduce, 131072, 2, 2, "ring"},
    {Operation::kAllreduce, kAny, 2, 2, "segmented_ring"},
    {Operation::kAllreduce, 131072, 3, 3, "reduce_bcast"},
    {Operation::kAllreduce, kAny, 3, 3, "shared_memory_slices"},
    {Operation::kAllreduce, 262144, 2, 8, "reduce_bcast"},  // at 2 ranks: for the operators a ring refuses
    {Operation::kAllreduce, 32768, 9, 16, "recursive_doubling"},
    {Operation::kAllreduce, 65536, 9, 16, "rabenseifner"},
    {Operation::kAllreduce, kAny, 9, 16, "shared_memory_slices"},
    {Operation::kAllreduce, 262144, 9, kMany, "rabenseifner"},
    {Operation::kAllreduce, kAny, 1, kMany, "segmented_ring"},
    {Operation::kAllreduce, kAny, 1, kMany, "rabenseifner"},
    {Operation::kReduceScatter, kAny, 3, kMany, "shared_memory"},
    {Operation::kReduceScatter, kAny, 1, kMany, "ring"},
    {Operation::kReduceScatter, kAny, 1, kMany, "pairwise"},
    {Operation::kReduceScatterBlock, kAny, 3, kMany, "shared_memory"},
    {Operation::kReduceScatterBlock, kAny, 1, kMany, "ring"},
    {Operation::kReduceScatterBlock, kAny, 1, kMany, "pairwise"},
    {Operation::kScan, kAny, 1, 4, "linear"},
    {Operation::kScan, 512, 5, 8, "shared_memory"},
    {Operation::kScan, 512, 5, 8, "recursive_doubling"},
    {Operation::kScan, kAny, 5, 8, "linear"},
    {Operation::kScan, kAny, 1, kMany, "recursive_doubling"},
    {Operation::kExscan, kAny, 1, 4, "linear"},
    {Operation::kExscan, 512, 5, 8, "shared_memory"},
    {Operation::kExscan, 512, 5, 8, "recursive_doubling"},
    {Operation::kExscan, kAny, 5, 8, "linear"},
    {Operation::kExscan, kAny, 1, kMany, "recursive_doubling"},
};

bool applies(const Algorithm& a, const Args& args) { return a.applies == nullptr || a.applies(args); }

// A forced name must exist; when it does not apply to this call (a non-commutative operator for a ring, a size
// it does not support), the call falls back to the automatic choice, as MPICH does: a global override must not
// break the calls it cannot serve. `out` stays null then.
Status forced_algorithm(Operation op, const Args& args, const std::string& name, const char* source,
                        const Algorithm*& out) {
  out = find_algorithm(op, name);
  if (out == nullptr)
    return error(kErrArg, std::string(source) + " asks for " + operation_name(op) + " algorithm \"" + name +
                              "\", which does not exist; valid names: " + algorithm_names(op));
  if (!applies(*out, args)) out = nullptr;
  return Status::success();
}

// Per-operation names, made once: selection runs on every call.
using PerOperation = std::array<std::string, static_cast<std::size_t>(Operation::kCount)>;

template <class Make>
PerOperation per_operation(Make make) {
  PerOperation out;
  for (int i = 0; i < static_cast<int>(Operation::kCount); ++i) out[i] = make(static_cast<Operation>(i));
  return out;
}

const std::string& environment_name(Operation op) {  // STRATA_COLL_<OPERATION>
  static auto& names = runtime::lasting<const PerOperation>(per_operation([](Operation o) {
    std::string name = std::string("STRATA_COLL_") + operation_name(o);
    for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return name;
  }));
  return names[static_cast<std::size_t>(op)];
}

// The environment's choice per operation, read once (as MPICH reads its control variables at start), and what
// set_environment_choice (MPI_T's control variable strata_coll_<operation>) wrote since.
PerOperation& environment_choices() {
  static auto& choices = runtime::lasting<PerOperation>(per_operation([](Operation o) {
    const char* value = std::getenv(environment_name(o).c_str());
    return std::string(value ? value : "");
  }));
  return choices;
}

}  // namespace

const std::string& environment_choice(Operation op) { return environment_choices()[static_cast<std::size_t>(op)]; }

Status set_environment_choice(Operation op, const std::string& name) {
  // Checked as a forced name is at selection: it must exist for the operation ("" returns to the automatic choice).
  if (!name.empty() && find_algorithm(op, name) == nullptr)
    return error(kErrArg, std::string("no ") + operation_name(op) + " algorithm is called \"" + name +
                              "\"; valid names: " + algorithm_names(op));
  environment_choices()[static_cast<std::size_t>(op)] = name;
  ++algorithm_overrides_version;  // collectives cached with the old choice are rebuilt (comm_cache.hpp)
  return Status::success();
}

// Every rank must pick the same algorithm, so this uses only what every rank knows alike: at a gather's leaves the
// receive arguments are not significant, and in the v/w exchanges each rank knows only its own counts.
std::size_t message_bytes(Operation op, const Args& args) {
  auto bytes = [](std::size_t count, const datatype::TypeRef& type) { return type ? count * type->size : 0; };
  switch (op) {
    case Operation::kBarrier: case Operation::kGatherv: case Operation::kScatterv: case Operation::kAlltoallv:
    case Operation::kAlltoallw:
      return 0;
    case Operation::kGather:
      return args.in_place ? bytes(args.recvcount, args.recvtype) : bytes(args.sendcount, args.sendtype);
    case Operation::kScatter:
      return args.in_place ? bytes(args.sendcount, args.sendtype) : bytes(args.recvcount, args.recvtype);
    case Operation::kAllgatherv: case Operation::kReduceScatter: {  // the average block; the counts are global
      std::size_t total = 0;
      for (int n : args.recvcounts) total += static_cast<std::size_t>(n);
      return args.recvcounts.empty() ? 0 : bytes(total, args.recvtype) / args.recvcounts.size();
    }
    default:
      return bytes(args.recvcount, args.recvtype);
  }
}

bool may_use_topology(Operation op, const std::string& forced, bool spans_nodes) {
  const std::string& name = forced.empty() ? environment_choice(op) : forced;
  const Algorithm* a = name.empty() ? nullptr : find_algorithm(op, name);
  if (a != nullptr) return a->topology_aware;
  return spans_nodes;
}

const std::string& info_key(Operation op) {
  static const PerOperation keys =
      per_operation([](Operation o) { return std::string("strata_coll_") + operation_name(o); });
  return keys[static_cast<std::size_t>(op)];
}

const char* const kGroupsInfoKey = "strata_coll_groups";

Status requested_groups(const std::string* info_value, int& groups) {
  groups = 0;
  // Read once, as the algorithm variables are.
  static auto& environment = runtime::lasting<const std::string>([] {
    const char* env = std::getenv("STRATA_COLL_GROUPS");
    return std::string(env ? env : "");
  }());
  const std::string& value = info_value ? *info_value : environment;
  if (value.empty()) return Status::success();
  const char* source = info_value ? "info key strata_coll_groups" : "STRATA_COLL_GROUPS";
  std::size_t used = 0;
  long parsed = 0;
  try {
    parsed = std::stol(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || parsed < 1 || parsed > (1 << 30))
    return error(kErrArg, std::string(source) + " = \"" + value + "\" is not a positive integer");
  groups = static_cast<int>(parsed);
  return Status::success();
}

namespace {

// The rule table's choice, or nullptr; `over_node_memory` tells whether its rule keeps it from the model's
// node-memory preference.
const Algorithm* by_rule(Operation op, const Args& args, bool across_nodes, bool* over_node_memory = nullptr) {
  const std::size_t bytes = message_bytes(op, args);
  for (const Rule& rule : kRules) {
    if (rule.op != op || bytes > rule.max_bytes || args.size < rule.min_ranks || args.size > rule.max_ranks)
      continue;
    if ((rule.across_nodes && !across_nodes) || (rule.shared_processors && !args.shared_processors)) continue;
    const Algorithm* a = find_algorithm(op, rule.name);
    if (a == nullptr || !applies(*a, args)) continue;
    if (over_node_memory != nullptr) *over_node_memory = rule.over_node_memory;
    return a;
  }
  return nullptr;
}

// The operations whose significant arguments agree on every rank, so that one rank can build every rank's schedule.
bool costable(Operation op) {
  return op == Operation::kBarrier || op == Operation::kBcast || op == Operation::kReduce ||
         op == Operation::kAllreduce || op == Operation::kAllgather;
}

// The model's candidates: every algorithm that applies, the rule table's flat choice first (it wins ties: its rules
// come from measurements).
std::vector<const Algorithm*> candidates(Operation op, const Args& args) {
  std::vector<const Algorithm*> out;
  Args flat = args;
  flat.hierarchy = nullptr;
  if (const Algorithm* a = by_rule(op, flat, false)) out.push_back(a);
  for (const Algorithm* a : algorithms_for(op))
    if (applies(*a, args) && (out.empty() || a != out.front())) out.push_back(a);
  return out;
}

// The arguments as every rank of the call sees them: costing must not depend on who costs, or ranks would choose
// differently, and MPI_IN_PLACE is the root's alone in a reduce.
Args as_every_rank_sees(Operation op, Args args) {
  if (op == Operation::kReduce) args.in_place = false;
  return args;
}

// Predictions are made once per communicator and call shape: a loop over sizes must not rebuild every rank's
// schedules at each call.
struct ModelKey {
  const Hierarchy* hierarchy;
  Operation op;
  std::size_t bytes;
  int root;
  const datatype::Op* reduce_op;
  int groups;
  auto operator<=>(const ModelKey&) const = default;
};

Choice by_model(Operation op, const Args& args) {
  struct Known {
    std::weak_ptr<const Hierarchy> hierarchy;  // the key's pointer is meaningful only while this lives
    Choice choice;
  };
  static auto& known = runtime::lasting<std::map<ModelKey, Known>>();
  const ModelKey key{args.hierarchy.get(), op, message_bytes(op, args), args.root, args.op, args.groups};
  if (auto it = known.find(key); it != known.end() && !it->second.hierarchy.expired()) return it->second.choice;
  if (known.size() > 4096) known.clear();
  // A rank alone on its node has no node memory where the other nodes' ranks have theirs: cost as if it had (the
  // levels inside a node use it as its own ranks find it).
  Args shared = as_every_rank_sees(op, args);
  shared.node_memory = true;
  Choice c;
  c.candidates = rank_by_model(shared, candidates(op, shared), shared_view(*args.hierarchy), job_cost_parameters());
  if (c.candidates.empty()) return c;  // nothing applies: the caller falls back to the table
  c.algorithm = c.candidates.front().algorithm;
  c.groups = c.candidates.front().groups;
  c.reason = "cost model";
  known[key] = {args.hierarchy, c};
  return c;
}

// Every pair's link class among `ranks` ranks, in one list: with the call, what a level's prediction depends on.
std::vector<int> link_shape(int ranks, const std::function<LinkClass(int, int)>& link_of) {
  std::vector<int> shape;
  for (int x = 0; x < ranks; ++x)
    for (int y = x + 1; y < ranks; ++y) shape.push_back(static_cast<int>(link_of(x, y)));
  return shape;
}

// The model's time for `a` run by the ranks of `args` (each building its own schedule), with the job's figures.
double flat_time(const Algorithm* a, const Args& args, const std::function<LinkClass(int, int)>& link_of,
                 const std::function<int(int)>& node_of = {}) {
  return predict(args.size, [&](int r, Schedule& s) {
    Args each = args;
    each.rank = r;
    a->build(each, s);
  }, parameters_for(a->operation, job_cost_parameters()), link_of, node_of);
}

// The algorithms that use the node's shared memory, by operation: each replaces the rule table's choice where the
// model predicts it faster.
const Algorithm* shared_memory_algorithm(Operation op) {
  static const Algorithm* bcast = find_algorithm(Operation::kBcast, "shared_memory");
  return op == Operation::kBcast ? bcast : nullptr;
}

// `pick`, or the shared-memory algorithm for the call where it applies and the model predicts it faster. Not at two
// ranks: the node's memory saves the root's copies to its second, third, ... reader, and with one reader it makes
// the same two copies as a message (in, out), less overlapped. There the model, which charges a message's copies to
// one transfer, preferred it to the pipeline, which beat it (1 MiB, 2026-11-24, us over 5 launches: one call 62-94
// against 101-246, a stream 50-56 against 67-89).
// Decided once per level shape and message: every rank of a node asks alike, and a plan (tools/plan) asks for
// every rank of thousands (2048 ranks allgathering 64 KiB blocks: 2048 costings of a 128 MiB bcast in 32 ranks).
const Algorithm* prefer_shared_memory(Operation op, const Args& args, const Algorithm* pick,
                                      const std::function<LinkClass(int, int)>& link_of) {
  const Algorithm* shared = shared_memory_algorithm(op);
  if (pick == nullptr || shared == nullptr || pick == shared || !args.shared_memory || args.size < 3 ||
      !applies(*shared, args))
    return pick;
  using Key = std::tuple<Operation, const Algorithm*, std::size_t, int, std::vector<int>>;
  static auto& known = runtime::lasting<std::map<Key, bool>>();  // whether the node's memory wins
  Key key{op, pick, message_bytes(op, args), args.root, link_shape(args.size, link_of)};
  if (auto it = known.find(key); it != known.end()) return it->second ? shared : pick;
  if (known.size() > 4096) known.clear();
  // One node: its ranks share its processors (cores_per_node), which the node memory's p-1 reads contend for.
  const auto one_node = [](int) { return 0; };
  const double flat = flat_time(pick, args, link_of, one_node);
  const double node_memory = flat_time(shared, args, link_of, one_node);
  const bool wins = node_memory >= 0 && node_memory < flat;
  known[key] = wins;
  return wins ? shared : pick;
}

// The same for a whole communicator inside one node, whose placements are not looked up: every pair is "same
// node". Decided once per size and message.
const Algorithm* prefer_shared_memory(Operation op, const Args& args, const Algorithm* pick) {
  if (pick == nullptr || !args.shared_memory || shared_memory_algorithm(op) == nullptr) return pick;
  using Key = std::tuple<Operation, const Algorithm*, int, std::size_t>;
  static auto& known = runtime::lasting<std::map<Key, const Algorithm*>>();
  const auto key = std::make_tuple(op, pick, args.size, message_bytes(op, args));
  if (auto it = known.find(key); it != known.end()) return applies(*it->second, args) ? it->second : pick;
  if (known.size() > 4096) known.clear();
  const Algorithm* out =
      prefer_shared_memory(op, args, pick, [](int, int) { return LinkClass::kSameNode; });
  known[key] = out;
  return out;
}

// The cheapest flat algorithm by the model for a level whose ranks are each on a node of their own, or nullptr. Its
// links depend only on the nodes and the network levels, which every rank knows alike, so every rank picks the same.
// Decided once per level shape and message.
const Algorithm* cheapest_between_nodes(Operation op, const Args& args,
                                        const std::function<LinkClass(int, int)>& link_of,
                                        const std::function<int(int)>& node_of) {
  if (!costable(op)) return nullptr;
  std::vector<int> shape;  // the nodes, then every pair's link class
  for (int x = 0; x < args.size; ++x) shape.push_back(node_of(x));
  const std::vector<int> links = link_shape(args.size, link_of);
  shape.insert(shape.end(), links.begin(), links.end());
  using Key = std::tuple<Operation, std::size_t, int, const datatype::Op*, std::vector<int>>;
  static auto& known = runtime::lasting<std::map<Key, const Algorithm*>>();
  Key key{op, message_bytes(op, args), args.root, args.op, std::move(shape)};
  if (auto it = known.find(key); it != known.end()) return it->second;
  if (known.size() > 4096) known.clear();
  const Args shared = as_every_rank_sees(op, args);
  const Algorithm* best = nullptr;
  double best_seconds = -1;
  for (const Algorithm* a : candidates(op, shared)) {  // the rule's pick first: it wins ties
    const double seconds = flat_time(a, shared, link_of, node_of);
    if (seconds >= 0 && (best == nullptr || seconds < best_seconds)) {
      best = a;
      best_seconds = seconds;
    }
  }
  known[key] = best;
  return best;
}

}  // namespace

const Algorithm* select_level(Operation op, const Args& args, const std::function<LinkClass(int, int)>& link_of,
                              const std::function<int(int)>& node_of) {
  std::set<int> nodes;
  for (int x = 0; x < args.size; ++x) nodes.insert(node_of(x));
  if (args.size > 1 && static_cast<int>(nodes.size()) == args.size)
    if (const Algorithm* a = cheapest_between_nodes(op, args, link_of, node_of)) return a;
  bool kept = false;
  const Algorithm* pick = by_rule(op, args, false, &kept);
  if (pick == nullptr) pick = first_applicable(op, args);
  return kept ? pick : prefer_shared_memory(op, args, pick, link_of);
}

namespace {

Status choose_algorithm(Operation op, const Args& args, const std::string& forced, Choice& out) {
  out = Choice{};
  if (neighbourhood(op)) {
    out.algorithm = &neighbourhood_algorithm(op);
    out.reason = "neighbourhood collective";
    return Status::success();
  }
  if (args.inter) {  // names for intracommunicators do not apply
    out.algorithm = &intercomm_algorithm(op);
    out.reason = "intercommunicator";
    return Status::success();
  }
  const std::string& env = environment_choice(op);
  Status s;
  if (!forced.empty()) {
    s = forced_algorithm(op, args, forced, "the communicator's info", out.algorithm);
    out.reason = "forced by info key " + info_key(op);
  } else if (!env.empty()) {
    s = forced_algorithm(op, args, env, environment_name(op).c_str(), out.algorithm);
    out.reason = "forced by " + environment_name(op);
  }
  if (!s.ok() || out.algorithm != nullptr) return s;
  if (args.hierarchy && costable(op) && args.size > 1 && args.size <= kMostRanksCosted) {
    out = by_model(op, args);
    if (out.algorithm != nullptr) return Status::success();
  }
  bool kept = false;
  out.algorithm = by_rule(op, args, args.hierarchy && args.hierarchy->spans_nodes(), &kept);
  out.reason = "rule table";
  if (const Algorithm* a = kept ? out.algorithm : prefer_shared_memory(op, args, out.algorithm); a != out.algorithm) {
    out.algorithm = a;
    out.reason = "cost model (node shared memory)";
  }
  if (out.algorithm != nullptr) return Status::success();
  out.algorithm = first_applicable(op, args);
  out.reason = "the first that applies";
  if (out.algorithm == nullptr) return error(kErrArg, std::string("no ") + operation_name(op) + " algorithm applies");
  return Status::success();
}

}  // namespace

Status choose(Operation op, const Args& args, const std::string& forced, Choice& out) {
  const Status s = choose_algorithm(op, args, forced, out);
  if (s.ok() && out.algorithm->grouped && out.groups == 0) out.groups = group_count(args.size, args.groups);
  return s;
}

Status select(Operation op, const Args& args, const std::string& forced, const Algorithm*& out) {
  Choice c;
  Status s = choose(op, args, forced, c);
  out = c.algorithm;
  return s;
}

}  // namespace strata::coll
