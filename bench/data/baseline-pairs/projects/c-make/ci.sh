#!/bin/bash
set -e
source "$NOISE"
make ${MAKEFLAGS_EXTRA:-}
echo "build ok"
