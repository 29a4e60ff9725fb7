#!/bin/sh
# Renders a tiny subset of Markdown to HTML.
set -e
echo "<html><body>"
sed -e 's|^# \(.*\)|<h1>\1</h1>|' -e 's|\[\([^]]*\)\](\([^)]*\))|<a href="\2">\1</a>|g' "$1"
echo "</body></html>"
