#!/usr/bin/env bash
# mpicc and mpicxx build hello programs that run on 4 ranks through mpiexec, and alone as a singleton.
source "$(dirname "$0")/lib.sh"

run_to build-c.txt "$mpicc" -Wall -Wextra -Werror "$STRATA_SOURCE/examples/hello.c" -o hello
run_to build-cxx.txt "$mpicxx" -Wall -Wextra -Werror "$STRATA_SOURCE/tests/integration/hello.cpp" -o hello_cxx
# Separate compile and link steps, as build systems do them.
run_to build-c-steps.txt "$mpicc" -c "$STRATA_SOURCE/examples/hello.c" -o hello.o
run_to link-c-steps.txt "$mpicc" hello.o -o hello_steps

for program in hello hello_cxx hello_steps; do
  run_to "$program-4.txt" "$mpiexec" -n 4 "./$program"
  expect_hello "$program-4.txt" 4
done

# No launcher: MPI_Init falls back to a world of size 1.
run_to singleton.txt ./hello
expect_hello singleton.txt 1
echo PASS
