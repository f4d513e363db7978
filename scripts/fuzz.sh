#!/usr/bin/env bash
# Builds the fuzz targets under Fuzz/ with libFuzzer and AddressSanitizer (their own scratch path,
# .build-fuzz, so the normal build is untouched) and runs each for SECONDS (default 60), starting
# from its committed seeds in Fuzz/<target>/seeds. Prints executions per second per target.
# A crash, a sanitizer report or a hang fails the script and leaves the input that caused it
# in .build-fuzz/artifacts/; replay it with .build-fuzz/debug/fuzz-<target> <file>.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: query-string json corpus gguf grammar tool-call html sentences cli-options)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(query-string json corpus gguf grammar tool-call html sentences cli-options)
flags=(--scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DLANTERN_FUZZ)
for target in "${targets[@]}"; do
  swift build "${flags[@]}" --product "fuzz-$target"
done
bin=$(swift build "${flags[@]}" --show-bin-path)
artifacts=.build-fuzz/artifacts
mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()
for target in "${targets[@]}"; do
  # New inputs libFuzzer finds go to the first folder (a temporary one), never into the seeds.
  mkdir -p "$work/$target"
  echo "fuzz $target: running for ${seconds}s" >&2
  status=0
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$bin/fuzz-$target" "$work/$target" "Fuzz/$target/seeds" \
    -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/$target-" >"$work/$target.log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target.log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$target.log" | tail -1)
  line="fuzz $target: ${rate:-?} executions/s, ${runs:-?} runs in ${seconds}s"
  if [ "$status" -ne 0 ]; then
    line="$line: FAILED (exit $status)"
    failed+=("$target")
    grep -E '^(==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|Fatal error|.*Fatal error)' "$work/$target.log" | sed -n 1,20p >&2 || true
    tail -40 "$work/$target.log" >&2
  fi
  echo "$line"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}; the inputs are in $artifacts/" >&2
  exit 1
fi
