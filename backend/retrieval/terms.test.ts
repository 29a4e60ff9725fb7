import { containsTerm, extractTerms, hybridRank } from './terms.js';

describe('extractTerms', () => {
  test('finds error codes, paths, dotted and camel/snake names, and not plain words or numbers', () => {
    const terms = extractTerms(
      'error[E0425] and TS2345, ORA-00942 in src/api/client.ts at com.acme.UserService.load(UserService.java:42): ' +
        'NullPointerException, MAX_RETRIES, my_func, compileJava; the build failed after 3.21 s on 2024-01-02, v1.2.3',
    );
    for (const t of ['e0425', 'ts2345', 'ora-00942', 'src/api/client.ts', 'client.ts', 'com.acme.userservice.load', 'userservice.java', 'userservice', 'nullpointerexception', 'max_retries', 'my_func', 'compilejava']) {
      expect(terms).toContain(t);
    }
    for (const t of ['the', 'build', 'failed', 'after', '3.21', '2024-01-02', 'and']) expect(terms).not.toContain(t);
  });

  test('cuts runs at 201 characters, trims trailing punctuation, takes last segments and stems, stops at max', () => {
    const text = `${'a'.repeat(205)}_X9 C:\\ws\\app\\Main.java done. path/to/dir/ com.acme.Foo.kt x.y.z a_b. Ab-9 --flag_x 9_9`;
    expect(extractTerms(text)).toEqual([
      'aaaa_x9',
      'ws\\app\\main.java',
      'main.java',
      'path/to/dir',
      'dir',
      'com.acme.foo.kt',
      'foo',
      'x.y.z',
      'a_b',
      'ab-9',
      'flag_x',
    ]);
    expect(extractTerms(text, 3)).toEqual(['aaaa_x9', 'ws\\app\\main.java', 'main.java']);
    expect(extractTerms('Foo.Bar.java foo.BarBaz ..a_b... $HOME_DIR/x9 a1 ab1')).toEqual([
      'foo.bar.java',
      'bar',
      'foo.barbaz',
      'barbaz',
      'a_b',
      '$home_dir/x9',
      'ab1',
    ]);
  });

  test('a question in prose has no terms', () => {
    expect(extractTerms('Why did my build fail?')).toEqual([]);
  });
});

describe('containsTerm', () => {
  test('matches whole names only', () => {
    expect(containsTerm('error[e0425]: x', 'e0425')).toBe(true);
    expect(containsTerm('code e04251', 'e0425')).toBe(false);
    expect(containsTerm('src/api/client.ts(12,7)', 'client.ts')).toBe(true);
    expect(containsTerm('myclient.ts', 'client.ts')).toBe(false);
    expect(containsTerm('x myclient.ts client.ts', 'client.ts')).toBe(true);
  });
});

describe('hybridRank', () => {
  const candidates = [
    { id: 'a', text: 'Downloading dependencies from central', similarity: 0.62 },
    { id: 'b', text: 'error[E0425]: cannot find value `conifg` in this scope', similarity: 0.4 },
    { id: 'c', text: 'warning: unused variable, code E04251 elsewhere', similarity: 0.5 },
    { id: 'd', text: 'Compiling app v0.1.0', similarity: 0.55 },
  ];

  test('an exact identifier match outranks a higher vector similarity', () => {
    const ranked = hybridRank('what does E0425 mean?', candidates);
    expect(ranked[0]!.id).toBe('b');
    expect(ranked[0]!.matchedTerms).toEqual(['e0425']);
    expect(ranked.find((r) => r.id === 'a')!.matchedTerms).toEqual([]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked.find((r) => r.id === 'a')!.score);
  });

  test('without identifiers in the question, similarity alone orders the candidates', () => {
    expect(hybridRank('why did it fail', candidates).map((r) => r.id)).toEqual(['a', 'd', 'c', 'b']);
  });

  test('a rarer term weighs more than one every candidate holds', () => {
    const logs = [
      { text: 'at com.acme.Foo.run(Foo.java:1) in build_step', similarity: 0.5 },
      { text: 'MissingResourceException in build_step', similarity: 0.5 },
      { text: 'plain build_step line', similarity: 0.5 },
    ];
    const ranked = hybridRank('build_step MissingResourceException', logs);
    expect(ranked[0]!.text).toContain('MissingResourceException');
  });

  test('an empty candidate list ranks to nothing', () => {
    expect(hybridRank('E0425', [])).toEqual([]);
  });
});
