#!/usr/bin/env bash
# Open MPI's mpirun is a PMIx server, and Strata a PMIx client: a Strata program launched by it must see the
# job's size and distinct ranks (DESIGN.md: "any PMIx server can launch it").
source "$(dirname "$0")/lib.sh"

if ! command -v mpirun.openmpi >/dev/null; then
  echo "SKIP: mpirun.openmpi is not installed (apt-get install openmpi-bin; scripts/test does it)"
  exit "$skip"
fi

run_to build.txt "$mpicc" "$STRATA_SOURCE/examples/hello.c" -o hello
# As root Open MPI wants --allow-run-as-root (ignored otherwise); --oversubscribe because a CI machine may have
# fewer cores than ranks.
run_to mpirun.txt mpirun.openmpi --allow-run-as-root --oversubscribe -n 2 ./hello
expect_hello mpirun.txt 2
echo PASS
