#!/usr/bin/env bash
# Sets up everything (scripts/setup.sh) and runs the whole test suite: every test target with
# the real default model, real SQLite files and the real binaries as processes.
# This is the command the README gives and the one CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
# Suites that load the model are serialised inside; running suites one at a time keeps two
# model-heavy suites from fighting over the two cores.
swift test --skip-build --no-parallel

# The tests in which the model generates, again under a second CPU backend variant: its kernels
# round differently, so the model's greedy choices change as on another machine's CPU. They
# must pass there too, since they assert what Lantern guarantees, not what the model picks.
best=$(.build/debug/ask info | sed -n 's/^cpu variant: *\([^ ]*\).*/\1/p')
if [ -n "$best" ] && [ "$best" != built ]; then
  second=haswell
  [ "$best" != haswell ] || second=sse42
  echo "test: the generating tests again under CPU variant $second (this CPU's own: $best)" >&2
  LANTERN_GGML_CPU_VARIANT=$second swift test --skip-build --no-parallel \
    --filter 'GenerationTests|RealModelSessionTests|CustomStageArgumentTests|SearchToolTests.ModelTests|VisionSessionTests|AskModelTests|RealModelEvaluationTests'
else
  echo "test: ggml has its CPU backend built in; no second CPU variant to run the generating tests under" >&2
fi

# The examples: separate packages that link Lantern by path, as an app would. Each is built
# (incrementally: its own .build) and run once against the default model, with bounded output;
# a run must finish and print what the example promises. Their indexes go to a temporary folder.
examples_data=$(mktemp -d)
trap 'rm -rf "$examples_data"' EXIT
run_example() { # <name> <text its output must contain> [arguments...]
  local name=$1 expected=$2 output
  shift 2
  swift build --package-path "Examples/$name"
  echo "example $name: running" >&2
  output=$(XDG_DATA_HOME="$examples_data" timeout 1200 "Examples/$name/.build/debug/$name" "$@")
  sed -n 1,60p <<<"$output"
  grep -qF "$expected" <<<"$output" || { echo "example $name: no '$expected' in its output" >&2; exit 1; }
}
run_example NotesQA "Sources:" Examples/NotesQA/sample-notes "When do the tomatoes go in?"
run_example CustomToolAndStage "Transcript:"
run_example StructuredOutput "Decoded TrailList"

# The fuzz targets (Fuzz/), 60 s each from their committed seeds: a crash fails the test command.
scripts/fuzz.sh 60
