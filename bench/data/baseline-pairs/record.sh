#!/bin/bash
# Records the pass/fail pairs: for each case, copies its project to a temporary directory,
# runs the build as a CI server would (passing), applies the case's change, runs it again
# (failing), and keeps both logs and the lines that say why (labelled by a pattern written for
# the case, then checked by eye). Usage: ./record.sh [case...]   (all cases by default)
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
export NOISE=./noise.sh
export TOOLS_BIN="${TOOLS_BIN:-$(realpath "$HERE/../../../node_modules/.bin")}"
WORK="$(mktemp -d /tmp/baseline-pairs.XXXXXX)"
OUT="$HERE/pairs"

# run STYLE DIR ENVVARS... -> the CI console log on stdout
run() {
  local style="$1" dir="$2"; shift 2
  local rc
  if [ "$style" = github ]; then
    {
      echo "##[group]Run ./ci.sh"
      (cd "$dir" && env "$@" bash -c 'if [ -n "${ULIMIT_F:-}" ]; then ulimit -f "$ULIMIT_F"; fi; exec bash -x ./ci.sh' 2>&1); rc=$?
      echo "##[endgroup]"
      [ $rc -ne 0 ] && echo "##[error]Process completed with exit code $rc."
    } | "$HERE/stamp.pl"
  else
    echo "Started by user admin"
    echo "Running as SYSTEM"
    echo "[Pipeline] Start of Pipeline"
    echo "[Pipeline] node"
    echo "Running on Jenkins in $dir"
    echo "[Pipeline] {"
    echo "[Pipeline] sh"
    (cd "$dir" && env "$@" bash -c 'if [ -n "${ULIMIT_F:-}" ]; then ulimit -f "$ULIMIT_F"; fi; exec bash -x ./ci.sh' 2>&1); rc=$?
    echo "[Pipeline] }"
    echo "[Pipeline] // node"
    echo "[Pipeline] End of Pipeline"
    if [ $rc -ne 0 ]; then echo "ERROR: script returned exit code $rc"; echo "Finished: FAILURE"; else echo "Finished: SUCCESS"; fi
  fi
}

# pair NAME PROJECT STYLE KIND 'LABEL-REGEX' 'CHANGE' [ENV for the failing run...]
pair() {
  local name="$1" project="$2" style="$3" kind="$4" label="$5" change="$6"; shift 6
  if [ ${#SELECTED[@]} -gt 0 ] && [[ ! " ${SELECTED[*]} " =~ " $name " ]]; then return; fi
  local w="$WORK/$name"
  mkdir -p "$w" "$OUT/$name"
  cp -r "$HERE/projects/$project/." "$w/" && cp "$HERE/noise.sh" "$w/noise.sh"
  run "$style" "$w" PASSING=1 > "$OUT/$name/pass.log"
  if ! grep -q -E 'Finished: SUCCESS|##\[endgroup\]' "$OUT/$name/pass.log" || grep -q '##\[error\]' "$OUT/$name/pass.log"; then
    echo "$name: the passing build failed" >&2
  fi
  # The failing build starts from a fresh checkout with the change, as a CI agent's would.
  local wf="$WORK/$name-fail"
  mkdir -p "$wf"
  cp -r "$HERE/projects/$project/." "$wf/" && cp "$HERE/noise.sh" "$wf/noise.sh"
  (cd "$wf" && eval "$change")
  run "$style" "$wf" "$@" > "$OUT/$name/fail.log"
  # Labelled cause lines: the line numbers the pattern matches in the failing log.
  local lines
  lines="$(grep -n -P -- "$label" "$OUT/$name/fail.log" | cut -d: -f1 | paste -sd, -)"
  printf '{"project":"%s","style":"%s","kind":"%s","label_pattern":%s,"cause_lines":[%s]}\n' \
    "$project" "$style" "$kind" "$(printf '%s' "$label" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read()))')" "$lines" > "$OUT/$name/label.json"
  echo "$name: $(wc -l < "$OUT/$name/pass.log") / $(wc -l < "$OUT/$name/fail.log") lines, cause lines [$lines]" >&2
}

SELECTED=("$@")
# An agent image without tar: every tool of this one but tar.
NOTAR="$WORK/bin-without-tar"
mkdir -p "$NOTAR"
for f in /usr/local/bin/* /usr/bin/* /bin/*; do ln -sf "$f" "$NOTAR/$(basename "$f")" 2>/dev/null; done
rm -f "$NOTAR/tar"

# --- node-ts: tsc, eslint, jest (GitHub Actions style)
pair node-compile node-ts github 'compile error' "error TS2339" \
  "sed -i 's/total += v;/total += v.length;/' src/sum.ts"
pair node-test node-ts github 'failing test' "● report formats the mean|Expected: \"load: mean|Received: \"load: mean|^\S+ \s*> \d+ \|.*toBe\('load|^\S+ \s+\^\$" \
  "sed -i 's|sum(values) / values.length|sum(values) / (values.length + 1)|' src/sum.ts"
pair node-missing-dep node-ts github 'missing dependency' "error TS2307" \
  "sed -i \"1i import leftPad from 'left-pad';\" src/format.ts && sed -i 's|return \`\${name}|return leftPad(name, 8) + \`|' src/format.ts"
pair node-lint node-ts github 'lint' "no-unused-vars|test/sum\.test\.js\$|✖ \d+ problem" \
  "sed -i '1a const unusedLimit = 10;' test/sum.test.js"

# --- py-pytest: compileall, a version tool, pytest (Jenkins style)
pair py-test py-pytest jenkins 'failing test' "^(_+ test_add _+|    def test_add|>       assert add|E       assert|tests/test_ops.py:\d+: AssertionError|FAILED tests/test_ops.py::test_add)" \
  "sed -i 's/return a + b/return a - b/' calc/ops.py"
pair py-missing-dep py-pytest jenkins 'missing dependency' "ModuleNotFoundError|^E   |ERROR collecting|import tomlkit" \
  "sed -i '1i import tomlkit' calc/config.py"
pair py-compile py-pytest jenkins 'compile error' "ops\.py|SyntaxError: expected|^\s+\^|^\s+if b == 0$" \
  "sed -i 's/if b == 0:/if b == 0/' calc/ops.py"
pair py-missing-tool py-pytest jenkins 'missing tool' "gen-version: command not found" \
  "rm tools/gen-version"

# --- c-make: gcc, ld, a C test, a data file (GitHub Actions style)
pair c-compile c-make github 'compile error' "src/stack\.c: In function|error: expected|^\s+\d+ \|\s+s->top = 0|^\s+\|\s+\^" \
  "sed -i 's/s->top = 0; }/s->top = 0 }/' src/stack.c"
pair c-link c-make github 'missing dependency' "undefined reference to .stack_peek|collect2: error|main\.c:\(\.text|in function .main.:" \
  "sed -i 's|printf(\"\\\\n\");|printf(\"\\\\n\"); if (row == 0) { stack s; int v; stack_init(\&s); stack_peek(\&s, \&v); }|' src/main.c && sed -i 's|int stack_pop(stack \*s, int \*out);|&\nint stack_peek(stack *s, int *out);|' src/stack.h"
pair c-test c-make github 'failing test' "check failed" \
  "sed -i 's/s->items\[s->top++\] = v;/s->items[s->top] = v;/' src/stack.c"
pair c-disk-full c-make github 'disk full' "File size limit exceeded|table\.txt" \
  "true" ULIMIT_F=64
pair c-missing-tool c-make github 'missing tool' "clang-17|No such file or directory" \
  "true" CC=clang-17

# --- rust-cargo: clippy, cargo test (Jenkins style)
pair rust-compile rust-cargo jenkins 'compile error' "^error\[E0308\]|^\s+--> src/lib\.rs|^\s*\d* \|.*(text\.split_whitespace\(\)\.count\(\) as i32|^\s+\|\s+\^|pub fn count_words.*-> usize)|expected .usize., found .i32." \
  "sed -i 's/text.split_whitespace().count()$/text.split_whitespace().count() as i32/' src/lib.rs"
pair rust-test rust-cargo jenkins 'failing test' "tests::finds_longest|assertion .left == right. failed|^\s+left: |^\s+right: " \
  "sed -i 's/max_by_key(|w| w.len())/min_by_key(|w| w.len())/' src/lib.rs"
pair rust-lint rust-cargo jenkins 'lint' "needless_return|unneeded .return. statement|^\s+--> src/lib\.rs|return text\.split_whitespace|-D clippy::needless-return|^\s+\|\s+\^" \
  "sed -i 's/^    text.split_whitespace().count()$/    return text.split_whitespace().count();/' src/lib.rs"

# --- java-maven: javac, surefire (GitHub Actions style)
pair java-compile java-maven github 'compile error' "Inventory\.java.*cannot find symbol|symbol:\s+method countOf|location: class demo\.Inventory|COMPILATION ERROR" \
  "sed -i 's/int have = count(item);/int have = countOf(item);/' src/main/java/demo/Inventory.java"
pair java-test java-maven github 'failing test' "refusesToTakeMoreThanInStock|expected: <|Tests run: 2, Failures: 1" \
  "sed -i 's/if (have < count) return false;/if (have < count - 1) return false;/' src/main/java/demo/Inventory.java"
pair java-missing-dep java-maven github 'missing dependency' "com\.example:textutils|Could not resolve dependencies|offline mode" \
  "sed -i 's|<dependencies>|<dependencies><dependency><groupId>com.example</groupId><artifactId>textutils</artifactId><version>2.1</version></dependency>|' pom.xml"

# --- shell-make: a site packager (Jenkins style)
pair site-broken-link shell-make jenkins 'lint' "broken link" \
  "echo 'See [the guide](guide.html).' >> pages/usage.md"
pair site-disk-full shell-make jenkins 'disk full' "Cannot write|File too large|File size limit exceeded" \
  "python3 -c \"open('pages/changelog.md','w').write('# changelog\\n' + ''.join('- change %d: fixed a thing in the renderer\\n' % i for i in range(6000)))\"" ULIMIT_F=100
pair site-missing-tool shell-make jenkins 'missing tool' "tar: command not found|tar: No such file|make: tar" \
  "true" PATH="$NOTAR"

rm -rf "$WORK"
