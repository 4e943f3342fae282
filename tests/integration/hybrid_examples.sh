#!/usr/bin/env bash
# The hybrid MPI+MPI examples (examples/summa.c, poisson.c and bpmf_reduction.c over examples/hybrid.c), built with
# the installed mpicc, on 1 rank, on 4 ranks, and on 4 ranks over 2 simulated nodes in blocks and round robin (so
# that some neighbours and grid lines share a node and others do not). Each example checks its hybrid form
# against its pure-MPI form and a serial computation and exits non-zero if they disagree; its result lines are
# checked here as well, with the node count, so a run that silently fell back to one node is seen.
source "$(dirname "$0")/lib.sh"

for example in summa poisson bpmf_reduction; do
  run_to "build-$example.txt" "$mpicc" -Wall -Wextra -Werror "$STRATA_SOURCE/examples/$example.c" \
    "$STRATA_SOURCE/examples/hybrid.c" -o "$example"
done

timing='^ *(hybrid|pure) +[0-9.]+ us +[0-9.]+ KiB$'
launches=("1 1" "4 1" "4 2" "4 2 node")
for launch in "${launches[@]}"; do
  read -r ranks nodes map <<<"$launch"
  options=(-n "$ranks" --timeout 120)
  ((nodes > 1)) && options+=(--nodes "$nodes")
  [[ -n ${map:-} ]] && options+=(--map-by "$map")
  tag=$ranks-$nodes${map:+-$map}

  # n = 64 on every grid (1x1, 2x2), so the checksum is the same in every launch.
  run_to "summa-$tag.txt" "$mpiexec" "${options[@]}" ./summa 64 2
  expect_once "summa-$tag.txt" "^summa: n=64 on a [12]x[12] grid, $nodes node\(s\)" \
    '^summa hybrid: checksum -324800, equals the serial product$' \
    '^summa pure: +checksum -324800, equals the serial product$' '^summa hybrid vs pure: bitwise equal$'
  [[ $(grep -Ec "$timing" "summa-$tag.txt") == 2 ]] || fail "no timing table in summa-$tag.txt"

  run_to "poisson-$tag.txt" "$mpiexec" "${options[@]}" ./poisson 32 60
  expect_once "poisson-$tag.txt" "^poisson: 32x32 grid, 60 iterations, $ranks rank\(s\) on $nodes node\(s\)$" \
    '^poisson hybrid: last change [0-9.e+-]+, residual [0-9.e+-]+, equal to the serial run$' \
    '^poisson pure: +last change [0-9.e+-]+, residual [0-9.e+-]+, equal to the serial run$' \
    '^poisson hybrid vs pure: bitwise equal grids$'
  [[ $(grep -Ec "$timing" "poisson-$tag.txt") == 2 ]] || fail "no timing table in poisson-$tag.txt"

  run_to "bpmf-$tag.txt" "$mpiexec" "${options[@]}" ./bpmf_reduction 1000 8 4
  expect_once "bpmf-$tag.txt" \
    "^bpmf_reduction: 1000 items, K=8 \(72 doubles reduced\), 4 iterations, $ranks rank\(s\) on $nodes node\(s\)$" \
    '^bpmf hybrid: mean variance [0-9.]+, matches the serial sums' \
    '^bpmf pure: +mean variance [0-9.]+, matches the serial sums' '^bpmf hybrid vs pure: within tolerance'
  [[ $(grep -Ec "$timing" "bpmf-$tag.txt") == 2 ]] || fail "no timing table in bpmf-$tag.txt"
done

# The grids are the same whatever the launch: the serial run fixes them, so every launch prints the same numbers.
[[ $(cat poisson-*.txt | grep -E '^poisson (hybrid|pure):' | sed 's/^poisson [a-z]*: *//' | sort -u | wc -l) == 1 ]] ||
  fail "the Poisson results differ between launches"
echo PASS
