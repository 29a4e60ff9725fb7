#!/bin/bash
set -e
source "$NOISE"
mvn -o -B test
echo "build ok"
