#!/bin/sh
set -e
out=$(env -u NAME ./hello)
[ "$out" = "Hello, world!" ] && echo "PASS: greets world when NAME is unset"
out=$(NAME=Ada ./hello)
[ "$out" = "Hello, Ada!" ] && echo "PASS: greets the name in NAME"
echo "2 tests passed"
