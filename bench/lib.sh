# shellcheck shell=bash
# bench/lib.sh: what the benchmarks that compare Strata with MPICH (and Open MPI) share (run-reduce-local and
# run-pack on 1 rank, run-coll on several). Sourced by a bench/run-NAME script that has done `set -euo pipefail` and
# `cd` to the top of the tree; messages are prefixed with run-NAME, and the raw output goes to <tree>/bench-NAME/
# ($out).
#
#   bench_build PROGRAM [COLUMN...]
#                                install the other MPIs named if missing, build Strata (STRATA_BUILD, default
#                                build: made by scripts/build; another tree is only brought up to date), then
#                                bench/PROGRAM.c with each library's wrapper and -O2. Columns: strata, mpich,
#                                openmpi (default: strata mpich). Sets strata, out and columns (the libraries left).
#   bench_rounds ROUNDS PARSE ARG...
#                                run each column's binary with ARG..., interleaved (round 1: strata, mpich, ...;
#                                round 2: ...), on each number of ranks in bench_nps per round. The output of a run
#                                goes through the awk program PARSE, with the column in c and the ranks in np,
#                                which prints result lines "column key... value" to $out/results; a run that fails
#                                is counted and left out. $out/round-results: the same lines after the round and
#                                the machine state of the launch (bench_state); $out/launch-states: "round column
#                                ranks state" per launch.
#   bench_medians SORT_OPTION... $out/medians: per key (a results line without its value) the median value over
#                                rounds; the sort options must order the lines by key, then by value. $out/sizes:
#                                the sizes, the last field of the keys.
#   bench_libraries              "  strata: <MPI_Get_library_version>" per library, from PROGRAM's first line (in
#                                the first log that has it).
#   bench_table TITLE SELECT...  a table of the medians whose key is "column SELECT... size": size, Strata GB/s,
#                                MPICH GB/s and the ratio Strata/MPICH, "-" where a figure is missing.
#                                Also $out/ratios (bench_paired_ratios): per other library and key, the median
#                                over rounds of Strata's figure over that library's in the same round (and state).
#   bench_compare_table TITLE HEADER SELECT...
#                                a table of the medians whose key is "column SELECT... row...", one line per line
#                                of $out/rows (a row, in the order wanted; HEADER names its fields): the figure of
#                                each library that has one in the table (a library with none is left out) and the
#                                ratios Strata/MPICH and Strata/Open MPI (paired by round, from $out/ratios), "-"
#                                where a figure is missing.
#   bench_failures ROUNDS        the columns that failed, in how many rounds and why, and where the raw runs are.
#
# Set by the script before bench_rounds, if not the defaults (which are what the 1-rank benchmarks use):
#   bench_nps=(1)                the numbers of ranks; a run on N != 1 ranks is named "column -n N" in messages,
#                                and its log is $out/column-nN-roundR.txt (1 rank: $out/column-roundR.txt)
#   bench_timeout=600            seconds before a run is killed (it then counts as failed)
#   bench_rerun_timed_out=1      0: a run that timed out is not started again in later rounds (so that a library
#                                that hangs costs one timeout per number of ranks, not one per round)
#   bench_strata_options=() bench_mpich_options=() bench_openmpi_options=()
#                                launcher options, before -n (Open MPI also gets --allow-run-as-root as root,
#                                where it refuses to start without it)

bench=$(basename "$0")

# The algorithms that are not flat (they follow the hardware, or are Strata's own choice): run-coll-algorithms and
# run-topology leave them out when they look for the best flat algorithm.
topology_algorithms='^(hierarchical|multi_leader|multi_lane|distance_aware|grouped|auto)$'

bench_build() { # program [column...]
  program=$1; shift
  local wanted=("$@") column packages=()
  ((${#wanted[@]})) || wanted=(strata mpich)
  # Other MPIs are called by their suffixed names: installing both makes /usr/bin/mpicc an alternatives link.
  for column in "${wanted[@]}"; do
    case $column in
      mpich) packages+=(mpich libmpich-dev) ;;
      openmpi) packages+=(openmpi-bin libopenmpi-dev) ;;
    esac
  done
  scripts/setup "${packages[@]}"
  strata=${STRATA_BUILD:-build}
  local have_strata=0
  [[ " ${wanted[*]} " == *" strata "* ]] && have_strata=1
  if ((have_strata)); then
    if [[ $strata == build ]]; then scripts/build; else cmake --build "$strata" -j"$(nproc)"; fi ||
      { echo "$bench: Strata does not build; its column is left out" >&2; have_strata=0; }
  fi

  out=$strata/bench-${bench#run-}
  rm -rf "$out" && mkdir -p "$out"

  # The machine's state around each launch (bench_rounds); without it every launch's state is "unknown".
  cc -O2 -pthread bench/core_latency.c -o "$out/core_latency" 2>"$out/build-core_latency.log" ||
    echo "$bench: bench/core_latency.c does not build; launches are not told apart by machine state" >&2

  # Build one binary per library; a failure only drops that library.
  columns=()
  for column in "${wanted[@]}"; do
    case $column in
      strata) ((have_strata)) && bench_build_with strata "$strata/bin/mpicc" && columns+=(strata) ;;
      mpich) bench_build_with mpich mpicc.mpich && columns+=(mpich) ;;
      openmpi) bench_build_with openmpi mpicc.openmpi && columns+=(openmpi) ;;
      *) echo "$bench: unknown column $column" >&2; return 1 ;;
    esac
  done
  return 0
}

bench_build_with() { # column wrapper...
  local column=$1; shift
  "$@" -O2 "bench/$program.c" -o "$out/$program-$column" 2>"$out/build-$column.log" ||
    { echo "$bench: building with $* failed (see $out/build-$column.log)" >&2; return 1; }
}

bench_nps=(1)
bench_timeout=600
bench_rerun_timed_out=1
bench_strata_options=()
bench_mpich_options=()
bench_openmpi_options=()

# A hung run is killed after bench_timeout seconds (default 10 minutes) and counts as failed.
bench_run_one() { # column np arg...
  local column=$1 np=$2 bin="$out/$program-$1" t=(timeout -k 10 "$bench_timeout") root=(); shift 2
  [[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
  case $column in
    strata) "${t[@]}" "$strata/bin/mpiexec" "${bench_strata_options[@]}" -n "$np" "$bin" "$@" ;;
    mpich) "${t[@]}" mpiexec.mpich "${bench_mpich_options[@]}" -n "$np" "$bin" "$@" ;;
    openmpi) "${t[@]}" mpirun.openmpi "${root[@]}" "${bench_openmpi_options[@]}" -n "$np" "$bin" "$@" ;;
  esac
}

# The cross-core round trip in ns now (bench/core_latency.c), empty without the probe.
bench_core_latency() { if [[ -x $out/core_latency ]]; then "$out/core_latency" || true; fi; }

# A launch's machine state from the round trips before and after it: fast (both under 150 ns: the processors share a
# core complex), slow (both above), mixed (it changed during the launch), unknown (no probe, or one processor).
bench_state() { # before after
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "" || b == "" || a + 0 == 0 || b + 0 == 0) print "unknown"
    else if (a < 150 && b < 150) print "fast"
    else if (a >= 150 && b >= 150) print "slow"
    else print "mixed" }'
}

bench_rounds() { # rounds parse arg...
  local rounds=$1 parse=$2 round np column name log status before state; shift 2
  : >"$out/results"
  : >"$out/round-results"
  : >"$out/launch-states"
  # run name -> rounds it failed, log of the last failure, and whether it timed out
  declare -gA failed=() failed_log=() timed_out=()
  for ((round = 1; round <= rounds; ++round)); do
    for np in "${bench_nps[@]}"; do
      for column in "${columns[@]}"; do
        name=$column log=$out/$column-round$round.txt
        ((np == 1)) || name="$column -n $np" log=$out/$column-n$np-round$round.txt
        if [[ -n ${timed_out[$name]:-} ]] && ((!bench_rerun_timed_out)); then
          echo "$bench: round $round/$rounds: $name not run (it timed out before)" >&2
          continue
        fi
        echo "$bench: round $round/$rounds: $name" >&2
        before=$(bench_core_latency)
        if bench_run_one "$column" "$np" "$@" >"$log" 2>&1; then
          state=$(bench_state "$before" "$(bench_core_latency)")
          echo "$round $column $np $state" >>"$out/launch-states"
          awk -v c="$column" -v np="$np" "$parse" "$log" | tee -a "$out/results" |
            awk -v round="$round" -v state="$state" '{ print round, state, $0 }' >>"$out/round-results"
        else
          status=$?
          echo "$bench: $name failed in round $round (see $log)" >&2
          failed[$name]=$((${failed[$name]:-0} + 1))
          failed_log[$name]=$log
          if ((status == 124 || status == 137)); then timed_out[$name]=1; fi
        fi
      done
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
  bench_paired_ratios
}

# $out/ratios: per other library and key, the median over rounds of Strata's figure over that library's in the same
# round. A round runs the libraries one after the other, so a machine whose speed changes between launches (this one
# has a fast and a slow state that each last seconds to minutes) hits both sides of each ratio alike, where the ratio
# of two medians may compare launches made in different states. The state can still change between the two launches
# of a round (shared-memory collectives take 2-5x longer in the slow state, bench/core_latency.c), so only rounds
# whose two launches ran wholly in one state count, unless no round has such a pair.
bench_paired_ratios() {
  awk '
    { key = $4; for (i = 5; i < NF; ++i) key = key " " $i
      v[$1, $3, key] = $NF; state[$1, $3, key] = $2; if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
      if (!($1 in had)) { had[$1] = 1; rounds[++nrounds] = $1 } }
    function same_state(a, b) { return state[a] == state[b] && (state[a] == "fast" || state[a] == "slow") }
    END { split("mpich openmpi", others, " ")
          for (o = 1; o <= 2; ++o) for (k = 1; k <= nkeys; ++k) {
            n = 0
            for (pass = 1; pass <= 2 && n == 0; ++pass) for (r = 1; r <= nrounds; ++r) {
              a = rounds[r] SUBSEP "strata" SUBSEP keys[k]; b = rounds[r] SUBSEP others[o] SUBSEP keys[k]
              if (!(a in v) || !(b in v) || v[a] <= 0 || v[b] <= 0) continue
              if (pass == 1 && !same_state(a, b)) continue  # pass 2: no round had a pair in one state
              x = v[a] / v[b]  # insertion sort: a few rounds
              for (j = ++n; j > 1 && q[j - 1] > x; --j) q[j] = q[j - 1]
              q[j] = x
            }
            if (n > 0) print others[o], keys[k], (n % 2 ? q[(n + 1) / 2] : (q[n / 2] + q[n / 2 + 1]) / 2)
          } }' "$out/round-results" >"$out/ratios"
}

bench_libraries() {
  local lib log version
  for lib in strata mpich openmpi; do
    for log in "$out/$lib"-round*.txt "$out/$lib"-n*-round*.txt; do
      [[ -f $log ]] && version=$(sed -n "s/^# $program: //p" "$log") && [[ -n $version ]] &&
        { echo "  $lib: $version"; break; }
    done
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

# Figures with two decimals; ratios too, or with two digits when that would print 0.00 (an oversubscribed MPICH).
bench_compare_table() { # title header select...
  local title=$1 header=$2; shift 2
  awk -v title="$title" -v header="$header" -v select="$*" '
    BEGIN { nsel = split(select, unused, " "); nlib = split("strata mpich openmpi", lib, " ")
            name["strata"] = "Strata"; name["mpich"] = "MPICH"; name["openmpi"] = "Open MPI" }
    FILENAME == ARGV[1] || FILENAME == ARGV[2] {
                key = ""; for (i = 2; i <= 1 + nsel; ++i) key = key (i > 2 ? " " : "") $i
                if (key != select) next
                row = ""; for (i = 2 + nsel; i < NF; ++i) row = row (i > 2 + nsel ? " " : "") $i
                if (FILENAME == ARGV[1]) { value[$1, row] = $NF; has[$1] = 1 } else paired[$1, row] = $NF
                next }
    { rows[++nrows] = $0 }
    function cell(c, r) { return (c, r) in value ? sprintf("%.2f", value[c, r]) : "-" }
    function ratio(c, d, r,   x) {  # the paired ratio (bench_paired_ratios) where there is one
      if ((d, r) in paired) x = paired[d, r]
      else if (!((c, r) in value) || !((d, r) in value) || value[c, r] <= 0 || value[d, r] <= 0) return "-"
      else x = value[c, r] / value[d, r]
      return sprintf(x < 0.01 ? "%.1e" : "%.2f", x)
    }
    END {
      if (title != "") print "\n" title; else print ""
      nh = split(header, h, " ")
      for (i = 1; i <= nh; ++i) printf "%10s ", h[i]
      for (l = 1; l <= nlib; ++l) if (has[lib[l]]) printf "%11s ", name[lib[l]]
      if (has["strata"] && has["mpich"]) printf "%10s ", "S/MPICH"
      if (has["strata"] && has["openmpi"]) printf "%10s ", "S/OpenMPI"
      printf "\n"
      for (r = 1; r <= nrows; ++r) {
        nf = split(rows[r], f, " ")
        for (i = 1; i <= nf; ++i) printf "%10s ", f[i]
        for (l = 1; l <= nlib; ++l) if (has[lib[l]]) printf "%11s ", cell(lib[l], rows[r])
        if (has["strata"] && has["mpich"]) printf "%10s ", ratio("strata", "mpich", rows[r])
        if (has["strata"] && has["openmpi"]) printf "%10s ", ratio("strata", "openmpi", rows[r])
        printf "\n"
      }
    }' "$out/medians" "$out/ratios" "$out/rows" | sed 's/ *$//'
}

# How many launches ran in each machine state (bench_state).
bench_states() {
  [[ -s $out/launch-states ]] || return 0
  awk '{ n[$4]++ } END {
    printf "Launches by machine state (bench/core_latency.c, before and after): %d fast, %d slow, %d changed during\n",
      n["fast"], n["slow"], n["mixed"]
    printf "the launch, %d unknown; a ratio pairs launches made in one state where a round has such a pair.\n",
      n["unknown"] }' "$out/launch-states"
}

bench_failures() { # rounds
  local column why
  bench_states
  for column in "${!failed[@]}"; do
    why=$(tail -1 "${failed_log[$column]}")
    if [[ -n ${timed_out[$column]:-} ]]; then
      why="timed out after $bench_timeout s$( ((bench_rerun_timed_out)) || echo "; not run again")${why:+; $why}"
    fi
    echo "$column failed in ${failed[$column]} of $1 rounds: $why"
  done
  echo "Raw runs: $out/"
}
