#!/usr/bin/env bash
# The wrappers' query options print what build systems expect, and compile-only steps get no link flags.
source "$(dirname "$0")/lib.sh"
unset STRATA_CC STRATA_CXX # the expected commands below use the defaults
inc="-I$STRATA_PREFIX/include"
link="-L$STRATA_PREFIX/lib -lmpi -Wl,-rpath,$STRATA_PREFIX/lib -Wl,--disable-new-dtags"

expect() { # expected-output command...
  local expected=$1 actual
  shift
  actual=$("$@") || fail "exit status $? from: $*"
  [[ $actual == "$expected" ]] || fail "$*: got '$actual', expected '$expected'"
  echo "ok: $* -> $actual"
}
expect "-I$STRATA_PREFIX/include" "$mpicc" -showme:compile
expect "$link" "$mpicc" -showme:link
expect "$STRATA_PREFIX/include" "$mpicxx" -showme:incdirs
expect "$STRATA_PREFIX/lib" "$mpicxx" -showme:libdirs
expect "mpi" "$mpicc" -showme:libs
expect "cc $inc $link" "$mpicc" -show
expect "cc $inc $link" "$mpicc" -showme
expect "cc $inc x.c -o x $link" "$mpicc" x.c -o x -show
expect "c++ $inc -O2 x.cpp $link" "$mpicxx" -showme -O2 x.cpp
expect "cc $inc" "$mpicc" -compile_info
expect "cc $inc" "$mpicc" -compile-info
expect "c++ $inc $link" "$mpicxx" -link_info
expect "c++ $inc $link" "$mpicxx" -link-info
for flag in -c -E -S -M -MM; do
  expect "cc $inc $flag x.c" "$mpicc" "$flag" x.c -show
done
expect "gcc-12 $inc -c x.c" env STRATA_CC=gcc-12 "$mpicc" -c x.c -show
expect "ccache g++ $inc x.cpp $link" env STRATA_CXX="ccache g++" "$mpicxx" x.cpp -show
"$mpicc" -showme:version | grep -q "Strata .*(MPI 4\.0)" || fail "-showme:version lacks the MPI version"

# A symlink to the wrapper (as a package manager might make) still finds the real prefix.
ln -s "$mpicc" linked-mpicc
expect "-I$STRATA_PREFIX/include" ./linked-mpicc -showme:compile

# Compile-only through the real compiler: the object must come out (link flags would only warn, so look at
# -show above; here: the step works).
run_to compile.txt "$mpicc" -c "$STRATA_SOURCE/examples/hello.c" -o hello.o
[[ -s hello.o ]] || fail "mpicc -c produced no object"
echo PASS
