#!/usr/bin/env bash
# Sets up everything (scripts/setup.sh) and runs the whole test suite: every test target with
# the real default model, real SQLite files and the real binaries as processes; then the suites
# in which the model generates again, under a second CPU variant and with Qwen2.5-Coder-0.5B.
# This is the command the README gives and the one CI runs (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
# Qwen2.5-Coder-0.5B-Instruct too: the generating suites run again with it below.
second_model=qwen2.5-coder-0.5b
scripts/setup.sh --model "$second_model"
swift build --build-tests
# Suites that load the model are serialised inside; running suites one at a time keeps two
# model-heavy suites from fighting over the two cores.
swift test --skip-build --no-parallel

# The suites in which the model generates. They assert what Lantern guarantees, not what the
# model picks, so they must pass whatever the model writes; they load the file
# $LANTERN_TEST_MODEL names, else the default model.
generating_suites='GenerationTests|RealModelSessionTests|CustomStageArgumentTests|SearchToolTests.ModelTests|VisionSessionTests|QRCodeInjectionTests|AskModelTests|RealModelEvaluationTests|FunctionCallEvaluationTests|OpenAICompatibleModelTests|AskServerTests'

# Again under a second CPU backend variant: its kernels round differently, so the model's
# greedy choices change as on another machine's CPU.
best=$(.build/debug/ask info | sed -n 's/^cpu variant: *\([^ ]*\).*/\1/p')
if [ -n "$best" ] && [ "$best" != built ]; then
  second=haswell
  [ "$best" != haswell ] || second=sse42
  echo "test: the generating tests again under CPU variant $second (this CPU's own: $best)" >&2
  LANTERN_GGML_CPU_VARIANT=$second swift test --skip-build --no-parallel --filter "$generating_suites"
else
  echo "test: ggml has its CPU backend built in; no second CPU variant to run the generating tests under" >&2
fi

# Again with an instruction-tuned panel model: Qwen2.5-Coder-0.5B writes Hermes calls with
# `<tool_call>` as one special token, and its own habits (calls as bare JSON, longer answers),
# as the models users bring do. Its file comes from models.lock, as setup placed it.
second_model_file=models/$(python3 -c 'import json, sys; print(next(m["file"] for m in json.load(open("models.lock"))["models"] if m["name"] == sys.argv[1]))' "$second_model")
echo "test: the generating tests again with $second_model_file" >&2
LANTERN_TEST_MODEL=$PWD/$second_model_file swift test --skip-build --no-parallel --filter "$generating_suites"

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
