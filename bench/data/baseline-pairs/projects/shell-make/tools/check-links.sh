#!/bin/sh
# Every local link must point to a page that exists.
set -e
bad=0
for f in "$1"/*.html; do
  for target in $(grep -o 'href="[^"]*"' "$f" | sed 's/href="\(.*\)"/\1/'); do
    if [ ! -f "$1/$target" ]; then echo "$f: broken link to $target"; bad=1; fi
  done
done
echo "checked $(ls "$1" | wc -l) pages"
exit $bad
