#!/usr/bin/env bash
# A program built with mpicc depends on Strata's libmpi.so and nothing of MPICH's or Open MPI's, although both
# are installed (Open MPI's libmpi.so sits in the default library path, where a bare -lmpi would find it).
source "$(dirname "$0")/lib.sh"
foreign='mpich|openmpi|open-mpi|libmpi\.so\.40|libopen-(rte|pal)'

run_to show.txt "$mpicc" -show hello.c
if grep -Eq "$foreign" show.txt; then fail "mpicc -show mentions another MPI"; fi
grep -q -- "-I$STRATA_PREFIX/include" show.txt || fail "mpicc -show lacks -I$STRATA_PREFIX/include"

run_to build.txt "$mpicc" "$STRATA_SOURCE/examples/hello.c" -o hello
run_to ldd.txt ldd ./hello
if grep -Eq "$foreign" ldd.txt; then fail "the program loads another MPI's library"; fi
ours=$(readlink -f "$STRATA_PREFIX/lib/libmpi.so")
loaded=$(awk '/libmpi/ && $2 == "=>" { print $3 }' ldd.txt)
[[ -n $loaded ]] || fail "ldd shows no libmpi at all"
[[ $(readlink -f "$loaded") == "$ours" ]] || fail "libmpi resolves to $loaded, not $ours"

# The rpath makes the program find libmpi.so without LD_LIBRARY_PATH; an RPATH (not RUNPATH) also wins over an
# LD_LIBRARY_PATH that names Open MPI's lib dir, which holds a libmpi.so of its own.
run_to dynamic.txt readelf -d ./hello
grep -Eq "\(RPATH\).*\[$STRATA_PREFIX/lib\]" dynamic.txt || fail "no RPATH to $STRATA_PREFIX/lib"
openmpi_libdir=/usr/lib/$(gcc -print-multiarch)/openmpi/lib
if [[ -e $openmpi_libdir/libmpi.so ]]; then
  run_to ldd-openmpi-path.txt env LD_LIBRARY_PATH="$openmpi_libdir" ldd ./hello
  loaded=$(awk '/libmpi/ && $2 == "=>" { print $3 }' ldd-openmpi-path.txt)
  [[ $(readlink -f "$loaded") == "$ours" ]] || fail "with LD_LIBRARY_PATH=$openmpi_libdir libmpi is $loaded"
fi
[[ $(grep -c '(NEEDED).*libmpi' dynamic.txt) -eq 1 ]] || fail "expected exactly one NEEDED libmpi entry"
echo PASS
