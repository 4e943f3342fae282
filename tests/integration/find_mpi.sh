#!/usr/bin/env bash
# CMake's FindMPI, pointed at Strata's wrappers, finds Strata (include dir, library, MPI 4.0), and the project it
# configures builds and runs under mpiexec. The checks on FindMPI's results are in find_mpi_project/.
source "$(dirname "$0")/lib.sh"

run_to configure.txt cmake -S "$STRATA_SOURCE/tests/integration/find_mpi_project" -B build \
  -DMPI_C_COMPILER="$mpicc" -DMPI_CXX_COMPILER="$mpicxx" -DMPIEXEC_EXECUTABLE="$mpiexec" \
  -DSTRATA_PREFIX="$STRATA_PREFIX"
run_to build.txt cmake --build build

for program in find_mpi_c find_mpi_cxx; do
  run_to "$program.txt" "$mpiexec" -n 2 "build/$program"
  for rank in 0 1; do
    [[ $(grep -c "$program: rank $rank of 2, MPI 4\.0" "$program.txt") -eq 1 ]] || fail "$program: rank $rank missing"
  done
done
echo PASS
