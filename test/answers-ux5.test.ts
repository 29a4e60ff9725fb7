/**
 * Answers a tired engineer got on failures made on this machine (helper ux5, session 44;
 * test/fixtures/ux5: go vet on a renamed package function, pip against an index that is not
 * running, a write to /dev/full), each checked against what the log and the workspace say.
 */

import { readFileSync } from 'node:fs';
import { askLocal } from './helpers/askLocal.js';
import { askWithCheckout } from './helpers/askCheckout.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkCitations } from './helpers/claimChecks.js';

const log = (name: string): string => readFileSync(new URL(`./fixtures/ux5/${name}`, import.meta.url), 'utf8');

describe('answers on failures made by ux5', () => {
  it("go vet's `X not declared by package P`: the fix names the package's like member from its own directory", async () => {
    const text = log('go-vet-not-declared.log');
    const fix = await askWithCheckout('how do I fix it?', text, {
      'go.mod': 'module example.com/svc\n\ngo 1.19\n',
      'config/config.go': 'package config\n\nimport "os"\n\n// Config holds the service settings.\ntype Config struct {\n\tAddr string\n}\n\n// LoadFromEnv reads the settings from the environment.\nfunc LoadFromEnv() Config {\n\treturn Config{Addr: os.Getenv("ADDR")}\n}\n',
      'cmd/server/main.go': 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/svc/config"\n)\n\nfunc main() {\n\tcfg := config.Load()\n\tfmt.Println("listening on", cfg.Addr)\n}\n',
    });
    expect(fix).toContain('`LoadFromEnv` (config/config.go line 10)');
    expect(fix).not.toContain('as the error says');
    expect(checkCitations(fix, text.split('\n'))).toEqual([]);
  });

  it('a refused loopback connection to the package index pip installs from is called that, with where it is set', async () => {
    const text = log('pip-index-refused.log');
    const fix = await askLocal('how do I fix it?', analyzedChatContext({}, text));
    expect(fix).toContain('that is the package index pip installs from, `http://127.0.0.1:24199/simple` [L9-L9] (set by the command [L8-L8])');
    expect(fix).toContain('`--index-url`, `PIP_INDEX_URL` or `pip.conf`');
    expect(fix).toContain('`nc -vz 127.0.0.1 24199`');
    expect(fix).not.toContain('a service the build starts');
    const why = await askLocal('why did the build fail?', analyzedChatContext({}, text));
    expect(why).toContain('The build could not reach `127.0.0.1` [L8-L8], the package index pip installs from: `http://127.0.0.1:24199/simple` [L9-L9].');
    expect(checkCitations(why, text.split('\n'))).toEqual([]);
    expect(checkCitations(fix, text.split('\n'))).toEqual([]);
  });

  it('a write to /dev/full: the device and the variable naming it, never "free space on the agent"', async () => {
    const text = log('python-dev-full.log');
    for (const q of ['why did the build fail?', 'how do I fix it?']) {
      const answer = await askLocal(q, analyzedChatContext({}, text));
      expect([q, answer]).toEqual([q, expect.stringContaining('The step wrote to `/dev/full` [L60-L60], which `DOCS_ARCHIVE` names [L6-L6]')]);
      expect([q, answer]).toEqual([q, expect.not.stringContaining('Free space on the agent')]);
      expect([q, answer]).toEqual([q, expect.not.stringContaining('the disk was full')]);
      expect(checkCitations(answer, text.split('\n'))).toEqual([]);
    }
  });

  it('a C field renamed in a one-line struct: the header\'s like field is named, never "no similar name is in the source"', async () => {
    const text = log('gcc-no-member.log');
    const fix = await askWithCheckout('how do I fix it?', text, {
      'src/ring.h': '#include <stddef.h>\nstruct ring { int *buf; size_t cap; size_t head; };\nstruct ring *ring_new(size_t cap);\nint ring_push(struct ring *r, int v);\n',
      'src/ring.c': '#include <stdlib.h>\n#include "ring.h"\n\nstruct ring *ring_new(size_t cap) {\n    struct ring *r = malloc(sizeof *r);\n    r->buf = calloc(cap, sizeof(int));\n    r->cap = cap;\n    r->head = 0;\n    return r;\n}\n\nint ring_push(struct ring *r, int v) {\n    r->buf[r->head % r->capacity] = v;\n    r->head++;\n    return 0;\n}\n',
    });
    expect(fix).toContain('`cap` (src/ring.h line 2)');
    expect(fix).not.toContain('no similar name');
    expect(checkCitations(fix, text.split('\n'))).toEqual([]);
  });

  it('a Java method renamed: the class\'s like method, never its constructor', async () => {
    const text = log('javac-method-renamed.log');
    const fix = await askWithCheckout('how do I fix it?', text, {
      'src/main/java/com/example/money/Money.java': 'package com.example.money;\n\nimport java.math.BigDecimal;\n\npublic final class Money {\n    private final BigDecimal amount;\n\n    public Money(BigDecimal amount) {\n        this.amount = amount;\n    }\n\n    public Money plus(Money other) {\n        return new Money(amount.add(other.amount));\n    }\n\n    public BigDecimal amount() {\n        return amount;\n    }\n}\n',
      'src/main/java/com/example/money/Invoice.java': 'package com.example.money;\n\nimport java.util.List;\n\npublic final class Invoice {\n    public static Money total(List<Money> lines) {\n        Money sum = new Money(java.math.BigDecimal.ZERO);\n        for (Money line : lines) {\n            sum = sum.add(line);\n        }\n        return sum;\n    }\n}\n',
    });
    expect(fix).toContain('`plus` (src/main/java/com/example/money/Money.java line 12)');
    expect(fix).not.toContain('`Money` (src/main/java/com/example/money/Money.java line 8)');
    expect(checkCitations(fix, text.split('\n'))).toEqual([]);
  });

  it('a remedy step and the source\'s **Fix:** line that says the same are not both printed; a Fix that adds a name stays', async () => {
    const text = readFileSync(new URL('./fixtures/ux4/bash-unbound-variable.log', import.meta.url), 'utf8');
    const fix = await askWithCheckout('how do I fix it?', text, {
      'scripts/release.sh': '#!/bin/bash\nset -euo pipefail\nVERSION=$(cat VERSION)\necho "Preparing release $VERSION"\nmkdir -p dist\ntar czf "dist/app-$VERSION.tar.gz" VERSION scripts\necho "Tagging for $RELEASE_CHANNEL"\necho "done"\n',
    });
    expect(fix.match(/RELEASE_CHANNEL:-<default>/g)).toHaveLength(1);
    expect(fix).not.toContain('**Fix:**');
    expect(fix).toMatch(/^> 7 \| echo "Tagging for \$RELEASE_CHANNEL"$/m);
  });

  it('a method missing on a value of a named type: that type lacks it, never "not imported"', async () => {
    const text = log('javac-method-renamed.log');
    const why = await askLocal('why did the build fail?', analyzedChatContext({}, text));
    expect(why).toMatch(/It names `add` \[L23-L23\], which `Money` does not have as the code uses it \[L24-L24\]/);
    expect(why).not.toContain('not imported');
    expect(checkCitations(why, text.split('\n'))).toEqual([]);
  });

  it('"what should line 13 say?" after an error naming src/ring.c:13: the log line, and a pointer to the source line it may mean', async () => {
    const text = log('gcc-no-member.log');
    const answer = await askLocal('what should line 13 say?', analyzedChatContext({}, text));
    expect(answer).toContain('Line 13 [L13-L13] reads:');
    expect(answer).toContain('If you meant line 13 of `src/ring.c`, the line the error names [L10-L10]: ask *how do I fix it?*');
    expect(checkCitations(answer, text.split('\n'))).toEqual([]);
    // The log's own line asked for by name: no pointer.
    expect(await askLocal('what does log line 13 say?', analyzedChatContext({}, text))).not.toContain('If you meant');
  });

  it('a failed check: "which side is right" is said once (the closing sentence), not also in the source\'s Fix line', async () => {
    const text = log('pytest-assert.log');
    const fix = await askWithCheckout('how do I fix it?', text, {
      'dates/__init__.py': '',
      'dates/span.py': 'from datetime import date\n\n\ndef days_between(start: date, end: date) -> int:\n    """Whole days from start to end, counting both ends."""\n    return (end - start).days\n',
      'tests/test_span.py': 'from datetime import date\nfrom dates.span import days_between\n\n\ndef test_same_day_counts_one():\n    assert days_between(date(2026, 1, 5), date(2026, 1, 5)) == 1\n\n\ndef test_week():\n    assert days_between(date(2026, 1, 1), date(2026, 1, 7)) == 7\n',
    });
    expect(fix).toContain('**Fix:** the check at line 6 of `tests/test_span.py` does not hold. The code under test is `dates/span.py` (below).');
    expect(fix).not.toContain('Decide which is right');
    expect(fix).toContain("I can't tell which side is wrong from the log");
    expect(checkCitations(fix, text.split('\n'))).toEqual([]);
  });
});

