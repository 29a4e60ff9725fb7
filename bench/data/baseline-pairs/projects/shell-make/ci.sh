#!/bin/bash
set -e
source "$NOISE"
make
echo "build ok"
