#!/bin/bash
set -e
source "$NOISE"
python3 -m compileall -q calc
PATH="$PWD/tools:$PATH" gen-version
python3 -m pytest -p no:cacheprovider tests
echo "build ok"
