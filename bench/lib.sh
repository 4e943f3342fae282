# shellcheck shell=bash
# bench/lib.sh: what the benchmarks that compare Strata with MPICH on 1 rank share (run-reduce-local, run-pack).
# Sourced by a bench/run-NAME script that has done `set -euo pipefail` and `cd` to the top of the tree; messages
# are prefixed with run-NAME, and the raw output goes to <tree>/bench-NAME/ ($out).
#
#   bench_build PROGRAM          install MPICH if missing, build Strata (STRATA_BUILD, default build: made by
#                                scripts/build; another tree is only brought up to date), then bench/PROGRAM.c with
#                                each library's wrapper and -O2. Sets strata, out and columns (the libraries left).
#   bench_rounds ROUNDS PARSE ARG...
#                                run each column's binary on 1 rank with ARG..., interleaved (round 1: strata,
#                                mpich; round 2: ...). The output of a run goes through the awk program PARSE,
#                                with the column in c, which prints result lines "column key... value" to
#                                $out/results; a run that fails is counted and left out.
#   bench_medians SORT_OPTION... $out/medians: per key (a results line without its value) the median value over
#                                rounds; the sort options must order the lines by key, then by value. $out/sizes:
#                                the sizes, the last field of the keys.
#   bench_libraries              "  strata: <MPI_Get_library_version>" per library, from PROGRAM's first line.
#   bench_table TITLE SELECT...  a table of the medians whose key is "column SELECT... size": size, Strata GB/s,
#                                MPICH GB/s and the ratio Strata/MPICH, "-" where a figure is missing.
#   bench_failures ROUNDS        the columns that failed, in how many rounds and why, and where the raw runs are.

bench=$(basename "$0")

bench_build() { # program
  program=$1
  # MPICH is called by its suffixed names: installing Open MPI too makes /usr/bin/mpicc an alternatives link.
  scripts/setup mpich libmpich-dev
  strata=${STRATA_BUILD:-build}
  local have_strata=1 have_mpich=1
  if [[ $strata == build ]]; then scripts/build; else cmake --build "$strata" -j"$(nproc)"; fi ||
    { echo "$bench: Strata does not build; its column is left out" >&2; have_strata=0; }

  out=$strata/bench-${bench#run-}
  rm -rf "$out" && mkdir -p "$out"

  # Build one binary per library; a failure only drops that library.
  ((have_strata)) && { bench_build_with strata "$strata/bin/mpicc" || have_strata=0; }
  bench_build_with mpich mpicc.mpich || have_mpich=0
  columns=()
  ((have_strata)) && columns+=(strata)
  ((have_mpich)) && columns+=(mpich)
  return 0
}

bench_build_with() { # column wrapper...
  local column=$1; shift
  "$@" -O2 "bench/$program.c" -o "$out/$program-$column" 2>"$out/build-$column.log" ||
    { echo "$bench: building with $* failed (see $out/build-$column.log)" >&2; return 1; }
}

# A hung run is killed after 10 minutes and counts as failed.
bench_run_one() { # column arg...
  local column=$1 bin="$out/$program-$1" t=(timeout -k 10 600); shift
  case $column in
    strata) "${t[@]}" "$strata/bin/mpiexec" -n 1 "$bin" "$@" ;;
    mpich) "${t[@]}" mpiexec.mpich -n 1 "$bin" "$@" ;;
  esac
}

bench_rounds() { # rounds parse arg...
  local rounds=$1 parse=$2 round column log; shift 2
  : >"$out/results"
  declare -gA failed=() failed_log=()  # column -> rounds it failed, log of the last failure
  for ((round = 1; round <= rounds; ++round)); do
    for column in "${columns[@]}"; do
      echo "$bench: round $round/$rounds: $column" >&2
      log="$out/$column-round$round.txt"
      if bench_run_one "$column" "$@" >"$log" 2>&1; then
        awk -v c="$column" "$parse" "$log" >>"$out/results"
      else
        echo "$bench: $column failed in round $round (see $log)" >&2
        failed[$column]=$((${failed[$column]:-0} + 1))
        failed_log[$column]=$log
      fi
    done
  done
}

# Median over rounds per key: sort the values, then pick the middle one(s).
bench_medians() { # sort-option...
  sort "$@" "$out/results" | awk '
    { key = $1; for (i = 2; i < NF; ++i) key = key " " $i
      if (!(key in n)) order[++keys] = key; v[key, ++n[key]] = $NF }
    END { for (i = 1; i <= keys; ++i) { k = order[i]; m = n[k]
            print k, (m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2) } }' >"$out/medians"
  awk '{ print $(NF - 1) }' "$out/medians" | sort -nu >"$out/sizes"
}

bench_libraries() {
  local lib
  for lib in strata mpich; do
    [[ -f $out/$lib-round1.txt ]] && echo "  $lib: $(sed -n "s/^# $program: //p" "$out/$lib-round1.txt")"
  done
  return 0
}

bench_table() { # title select...
  local title=$1; shift
  awk -v title="$title" -v select="$*" '
    NR == FNR { key = ""; for (i = 2; i < NF - 1; ++i) key = key (i > 2 ? " " : "") $i
                if (key == select) rate[$1, $(NF - 1)] = $NF
                next }
    function cell(c, b) { return (c, b) in rate ? sprintf("%.2f", rate[c, b]) : "-" }
    function ratio(c, d, b) {
      if (!((c, b) in rate) || !((d, b) in rate) || rate[d, b] == 0) return "-"
      return sprintf("%.2f", rate[c, b] / rate[d, b])
    }
    FNR == 1 { printf "\n%s%10s %12s %12s %10s\n", title == "" ? "" : title "\n", "bytes", "Strata GB/s",
               "MPICH GB/s", "S/MPICH" }
    { b = $1; printf "%10d %12s %12s %10s\n", b, cell("strata", b), cell("mpich", b), ratio("strata", "mpich", b) }
  ' "$out/medians" "$out/sizes"
}

bench_failures() { # rounds
  local column
  for column in "${!failed[@]}"; do
    echo "$column failed in ${failed[$column]} of $1 rounds: $(tail -1 "${failed_log[$column]}")"
  done
  echo "Raw runs: $out/"
}
