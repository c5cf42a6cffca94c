#!/bin/bash
# Interleaved CPU and wall times of `blis` CLI processes for several builds (git worktrees, each
# with its own `pnpm install && pnpm build`), `node -e 0` beside, on BLIS HEAD's defaults.
#   TREES="/path/to/base /path/to/other $PWD" OUT=/tmp/compare.txt bench/compare-builds.sh
#   node bench/compare-builds-summary.mjs /tmp/compare.txt
# One line per process: label, tree, wall s, user s, sys s. BIG=N adds N rounds of 1M requests on
# 32 instances (a minute or two per process). Each round compares the last two trees' stdout.
set -u
M=meta-llama/llama-3.1-8b-instruct
TREES=${TREES:?"TREES: the worktrees to compare, oldest first"}
OUT=${OUT:-/tmp/compare-builds.txt}
TRACE=$(cd "$(dirname "$0")" && pwd)/traces/AzureLLMInferenceTrace_code.csv
run() { # label rounds args...
  local label=$1 rounds=$2; shift 2
  local trees=($TREES) r t
  for r in $(seq 1 "$rounds"); do
    for t in "${trees[@]}"; do
      /usr/bin/time -a -o "$OUT" -f "$label $(basename "$t") %e %U %S" node "$t/packages/cli/dist/cli.js" "$@" > "/tmp/compare-builds-$(basename "$t").out" 2>/dev/null
    done
    /usr/bin/time -a -o "$OUT" -f "$label node0 %e %U %S" node -e 0
    local n=${#trees[@]}
    if [ "$n" -ge 2 ]; then
      cmp -s "/tmp/compare-builds-$(basename "${trees[$((n - 2))]}").out" "/tmp/compare-builds-$(basename "${trees[$((n - 1))]}").out" || echo "$label stdout differs" >> "$OUT"
    fi
  done
}
: > "$OUT"
run 1k-1 7 run --model $M --seed 42 --num-instances 1 --num-requests 1000
run azure-8 5 replay --trace "$TRACE" --model $M --seed 42 --num-instances 8 --routing-policy round-robin
run 10k-4 5 run --model $M --seed 42 --num-instances 4 --rate 40 --num-requests 10000 --routing-policy weighted
run 10k-4-live 5 run --model $M --seed 42 --num-instances 4 --rate 40 --num-requests 10000 --routing-policy weighted --snapshot-refresh-interval 0 --cache-signal-delay 0
run 100k-16 3 run --model $M --seed 42 --num-instances 16 --rate 160 --num-requests 100000 --routing-policy weighted
run 100k-16-live 3 run --model $M --seed 42 --num-instances 16 --rate 160 --num-requests 100000 --routing-policy weighted --snapshot-refresh-interval 0 --cache-signal-delay 0
if [ -n "${BIG:-}" ]; then
  run 1m-32 "$BIG" run --model $M --seed 42 --num-instances 32 --rate 320 --num-requests 1000000 --routing-policy weighted
fi
