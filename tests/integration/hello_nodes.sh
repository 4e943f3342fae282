#!/usr/bin/env bash
# scripts/demo's second run: hello on 4 ranks spread over 2 simulated nodes, so ranks on different nodes talk
# through the network provider. Kept apart from `hello` so a failure names the simulated-nodes path.
source "$(dirname "$0")/lib.sh"

run_to build.txt "$mpicc" "$STRATA_SOURCE/examples/hello.c" -o hello
run_to nodes2.txt "$mpiexec" -n 4 --nodes 2 ./hello
expect_hello nodes2.txt 4
echo PASS
