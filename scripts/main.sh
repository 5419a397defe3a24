#!/usr/bin/env bash
# README command one: install what is missing, build, run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/cli/pegemm demo --report report "$@"
