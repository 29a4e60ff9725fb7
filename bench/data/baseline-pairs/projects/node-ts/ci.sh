#!/bin/bash
set -e
BIN="${TOOLS_BIN:?}"
source "$NOISE"
"$BIN/tsc" -p .
"$BIN/eslint" --no-warn-ignored test
"$BIN/jest" --rootDir . --config '{"testMatch":["**/test/**/*.test.js"]}' 2>&1
echo "build ok"
