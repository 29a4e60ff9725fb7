#!/bin/bash
set -e
source "$NOISE"
cargo clippy --offline -q -- -D warnings 2>&1
cargo test --offline 2>&1
echo "build ok"
