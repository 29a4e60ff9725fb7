import { definitionsIn, missingSymbolOf, ownerTypeOf } from './symbols.js';

describe('symbols: the missing name and its owner type, per compiler', () => {
  it('scalac: a value or method that is not a member of a type', () => {
    const m = 'src/Main.scala:4: error: value nextRun is not a member of Schedule';
    expect(missingSymbolOf(m)).toBe('nextRun');
    expect(ownerTypeOf(m)).toBe('Schedule');
    expect(ownerTypeOf('error: method plan is not a member of object com.acme.Planner')).toBe('Planner');
  });
  it('the forms known before stay as they were', () => {
    expect(missingSymbolOf("src/a.ts(3,7): error TS2304: Cannot find name 'Duration'.")).toBe('Duration');
    expect(ownerTypeOf("src/a.ts(3,7): error TS2339: Property 'email' does not exist on type 'User'.")).toBe('User');
    expect(missingSymbolOf('hello')).toBeUndefined();
  });
});

describe('symbols: definitions, not statements', () => {
  it('a statement that calls a name does not define it (return, yield, throw, new...)', () => {
    for (const line of ['    return sum(values) / len(values)', 'return foo(a);', 'return x;', '    yield make(x)', 'throw new Error(x)', 'else { run(x) }', '    raise ValueError(msg)']) {
      expect([line, definitionsIn([line])]).toEqual([line, []]);
    }
  });
  it('declarations still count, with a keyword or in C shape', () => {
    expect(definitionsIn(['int ring_push(ring *r, int v) {', 'def mean(values):', 'return function helper() {', 'public static int total(int[] xs) {']).map((d) => d.name)).toEqual(['ring_push', 'mean', 'helper', 'total']);
  });
});

describe("symbols: go vet's missing package member", () => {
  it('`Load not declared by package config`: the name, the package as its owner, and the package file\'s like member', async () => {
    const { likelyMembers, membersOf } = await import('./symbols.js');
    const m = 'vet: cmd/server/main.go:10:16: Load not declared by package config';
    expect(missingSymbolOf(m)).toBe('Load');
    expect(ownerTypeOf(m)).toBe('config');
    const file = ['package config', '', 'type Config struct {', '\tAddr string', '}', '', 'func LoadFromEnv() Config {', '\treturn Config{}', '}'];
    expect(likelyMembers('Load', 'callable', 0, membersOf('config', file)).map((x) => x.name)).toEqual(['LoadFromEnv']);
  });
});

describe('symbols: a member the type does not have, in more wordings and declarations (fx9)', () => {
  it('the missing member and its owner: Go struct literal and template, pylint, PHP, a C typedef and a const struct', () => {
    const cases: [string, string, string][] = [
      ["cmd/remind/main.go:15:3: unknown field 'Due' in struct literal of type billing.Invoice", 'Due', 'Invoice'],
      ['render: template: report.tmpl:4:11: executing "report.tmpl" at <.Total>: can\'t evaluate field Total in type main.Summary', 'Total', 'Summary'],
      ["probe/check.py:29:43: E1101: Instance of 'ProbeConfig' has no 'timeout' member (no-member)", 'timeout', 'ProbeConfig'],
      ['Error: Call to undefined method App\\Cart::subtotal()', 'subtotal', 'Cart'],
      ['../src/main.c:6:31: error: ‘ledger’ has no member named ‘balance’', 'balance', 'ledger'],
      ['checksum.c:6:29: error: ‘const struct frame’ has no member named ‘len’', 'len', 'frame'],
    ];
    for (const [m, missing, owner] of cases) expect([m, missingSymbolOf(m), ownerTypeOf(m)]).toEqual([m, missing, owner]);
  });
  it("members: a one-line C typedef, Rust's impl blocks, Go's struct fields and methods; a parameter's `struct T` opens no block", async () => {
    const { membersOf } = await import('./symbols.js');
    const names = (owner: string, lines: string[]): string[] => membersOf(owner, lines).map((x) => x.name);
    expect(names('ledger', ['#ifndef LEDGER_H', 'typedef struct { long balance_cents; } ledger;', 'void ledger_add(ledger *l, double amount);'])).toEqual(['balance_cents']);
    expect(names('TokenBucket', ['pub struct TokenBucket {', '    tokens: u32,', '}', '', 'impl TokenBucket {', '    pub fn try_take(&mut self) -> bool {', '        true', '    }', '}'])).toEqual(expect.arrayContaining(['try_take']));
    expect(names('Invoice', ['package billing', '', 'type Invoice struct {', '\tNumber  string', '\tDueDate time.Time', '}', '', 'func (i *Invoice) Sum() int { return 0 }'])).toEqual(['Number', 'DueDate', 'Sum']);
    expect(names('queue', ['void push(struct queue *q, int v) {', '    int used = 1;', '}'])).toEqual([]);
  });
});
