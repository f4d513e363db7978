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
