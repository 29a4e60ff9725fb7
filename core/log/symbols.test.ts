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
