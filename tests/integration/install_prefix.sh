#!/usr/bin/env bash
# `cmake --install` gives the same prefix layout as the build tree, and the installed tools work on their own:
# the wrappers find the installed header and library (not the build tree's), and the installed mpiexec runs a
# program built with them.
source "$(dirname "$0")/lib.sh"
prefix=$WORK/prefix

run_to install.txt cmake --install "$STRATA_PREFIX" --prefix "$prefix"
for file in bin/mpicc bin/mpicxx bin/mpiexec lib/libmpi.so include/mpi.h; do
  [[ -e $prefix/$file ]] || fail "cmake --install did not install $file"
done

[[ $("$prefix/bin/mpicc" -showme:compile) == "-I$prefix/include" ]] || fail "installed mpicc does not use $prefix"
run_to build.txt "$prefix/bin/mpicc" "$STRATA_SOURCE/examples/hello.c" -o hello
run_to ldd.txt ldd ./hello
if grep -q "not found" ldd.txt; then fail "unresolved libraries"; fi
loaded=$(awk '/libmpi/ && $2 == "=>" { print $3 }' ldd.txt)
[[ $(readlink -f "$loaded") == $(readlink -f "$prefix/lib/libmpi.so") ]] || fail "libmpi resolves to $loaded"
if grep -Fq "$STRATA_PREFIX/lib/" ldd.txt; then fail "the installed program still loads from the build tree"; fi

run_to run.txt "$prefix/bin/mpiexec" -n 2 ./hello
expect_hello run.txt 2
echo PASS
