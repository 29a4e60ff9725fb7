# Noise that every build of these projects prints, passing or failing (sourced by ci.sh).
echo "== environment"
uname -s
date -u +"started at %Y-%m-%dT%H:%M:%SZ"
echo "build id $(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
echo "workspace $(mktemp -d)"
# An optional linter that is not installed on this machine: every build says so and goes on.
shellcheck --version || echo "shellcheck not installed, skipping shell lint"
# A deprecation warning from a helper script.
python3 -W default -c 'import warnings; warnings.warn("the --legacy-resolver option is deprecated and will be removed", DeprecationWarning)'
# A retried download that the build survives (nothing listens on port 9).
curl -sS --retry 2 --retry-delay 0 -o /dev/null http://127.0.0.1:9/cache/deps.tgz || echo "cache download failed after retries, building without cache"
# A stack trace the build survives: a cache index that cannot be parsed is rebuilt.
node -e 'try { JSON.parse("{\"entries\": [1, 2,") } catch (e) { console.error("cache index unreadable, rebuilding:"); console.error(e.stack) }'
echo "== build"
