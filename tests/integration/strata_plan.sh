#!/usr/bin/env bash
# build/bin/strata-plan on the hierarchical-model paper's 3-level example (section 6: 8 processes, 2 packages x 2 L3
# x 2 cores, every link alike): with alpha 1 us and no bandwidth cost, the flat-tree (linear) bcast must be
# predicted at 7 us and the hierarchical one at 3 us; every bcast algorithm is listed, fastest first; bad options
# are one line and exit 2; grouped shows its G.
source "$(dirname "$0")/lib.sh"

plan=$STRATA_PREFIX/bin/strata-plan
cat >costs.txt <<'COSTS'
same_cache   1 0
same_package 1 0
same_node    1 0
other_node   1 0
gamma        0
COSTS
run_to out.txt "$plan" --machine "nodes:1 pack:2 l3:2 core:2" --op bcast --bytes 1 --costs costs.txt
time_of() { awk -v a="$1" '$1 == a { print $2 }' out.txt; }
[[ $(time_of linear) == 7.000 ]] || fail "linear bcast predicted $(time_of linear) us, not 7"
[[ $(time_of hierarchical) == 3.000 ]] || fail "hierarchical bcast predicted $(time_of hierarchical) us, not 3"
for a in linear binomial knomial pipeline scatter_allgather hierarchical distance_aware grouped; do
  [[ -n $(time_of "$a") ]] || fail "$a is not listed"
done
awk '!/^#/ { if ($2 + 0 < last) exit 1; last = $2 + 0 }' out.txt || fail "the algorithms are not fastest first"
# grouped is planned at each G the library's model tries (8 ranks on 1 node: 2 and 3) and shows the one it keeps.
g=$(awk '$1 == "grouped" { print $4 }' out.txt)
[[ $g == 2 || $g == 3 ]] || fail "grouped shows G = '$g', not 2 or 3"
[[ $(awk '$1 == "linear" { print $4 }' out.txt) == - ]] || fail "linear shows a G"

status=0
"$plan" --machine "nodes:0 pack:2" --op bcast --bytes 8 >bad.txt 2>&1 || status=$?
[[ $status -eq 2 && $(wc -l <bad.txt) -eq 1 ]] || fail "a bad machine is not one line and exit 2 ($status): $(cat bad.txt)"
echo PASS
