/**
 * Places of session 43 (helper loc3, docs/notes/analyzer.md "Locations, session 43"): forms and choices of a place
 * read without naming a tool, on made-up logs of tools and projects no case has, each with counter-examples.
 */
import { analyze } from '../log/analyze.js';
import { placeIn } from './places.js';

const locationOf = (log: string[]) => analyze(log.join('\n'))[0]?.finding?.location;

describe("a YAML parser's mark in an exception's message", () => {
  const traceback = (message: string[]) => [
    '+ python3 -m deployer render',
    'Traceback (most recent call last):',
    '  File "/srv/app/deployer/render.py", line 41, in <module>',
    '    main()',
    '  File "/srv/app/deployer/render.py", line 17, in main',
    '    values = yaml.safe_load(fh)',
    '  File "/usr/lib/python3/dist-packages/yaml/__init__.py", line 125, in safe_load',
    '    return load(stream, SafeLoader)',
    ...message,
    "Build step 'Execute shell' marked build as failure",
  ];

  it("is the place, over the project's frame that called the parser; of two marks, the problem's (the last)", () => {
    const loc = locationOf(traceback([
      'yaml.parser.ParserError: while parsing a block mapping',
      '  in "charts/web/values.yaml", line 2, column 1',
      "expected <block end>, but found '-'",
      '  in "charts/web/values.yaml", line 9, column 3',
    ]));
    expect(loc).toMatchObject({ file: 'charts/web/values.yaml', line: 9, column: 3 });
    // The trace stays in the chain.
    expect(loc?.frames?.project).toMatchObject({ file: '/srv/app/deployer/render.py', line: 17 });
  });

  it("is the one mark under pytest's `E` lines", () => {
    const loc = locationOf([
      '____________________________ test_defaults ____________________________',
      'tests/test_settings.py:6: in test_defaults',
      '    assert read_settings()["port"] == 8080',
      'app/settings.py:11: in read_settings',
      '    return yaml.safe_load(fh)',
      "E   yaml.constructor.ConstructorError: could not determine a constructor for the tag '!secret'",
      'E     in "conf/settings.yaml", line 5, column 11',
      '=========================== short test summary info ===========================',
      'FAILED tests/test_settings.py::test_defaults - yaml.constructor.ConstructorError: could not determine a constructor',
    ]);
    expect(loc).toMatchObject({ file: 'conf/settings.yaml', line: 5, column: 11 });
  });

  it("leaves the frame when the message names no mark, or the mark is another report's (past a blank line)", () => {
    expect(locationOf(traceback(['KeyError: \'replicas\'']))).toMatchObject({ file: '/srv/app/deployer/render.py', line: 17 });
    expect(locationOf(traceback(["KeyError: 'replicas'", '', '  in "charts/web/values.yaml", line 2, column 1']))).toMatchObject({ file: '/srv/app/deployer/render.py', line: 17 });
  });
});

describe("a Rust panic's backtrace", () => {
  const panic = (frames: string[]) => [
    '+ ./target/debug/indexer',
    "thread 'main' (4411) panicked at /rustc/0123456789abcdef0123456789abcdef01234567/library/core/src/slice/index.rs:61:5:",
    'range end index 9 out of range for slice of length 4',
    'stack backtrace:',
    '   0: __rustc::rust_begin_unwind',
    '             at /rustc/0123456789abcdef0123456789abcdef01234567/library/std/src/panicking.rs:689:5',
    ...frames,
    'note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.',
    "Build step 'Execute shell' marked build as failure",
  ];

  it("gives the project's frame when the panic is in the standard library", () => {
    const loc = locationOf(panic([
      '   1: core::slice::index::slice_end_index_len_fail',
      '             at /rustc/0123456789abcdef0123456789abcdef01234567/library/core/src/slice/index.rs:61:5',
      '   2: indexer::tokens::window',
      '             at ./src/tokens.rs:27:18',
      '   3: indexer::main',
      '             at ./src/main.rs:9:5',
    ]));
    expect(loc).toMatchObject({ file: 'src/tokens.rs', line: 27, column: 18 });
  });

  it("gives no place when every frame is the standard library's or a dependency's", () => {
    const loc = locationOf(panic([
      '   1: serde_json::de::from_str',
      '             at /home/ci/.cargo/registry/src/index.crates.io-6f17d22bba15001f/serde_json-1.0.120/src/de.rs:2677:5',
    ]));
    expect(loc).toBeUndefined();
  });
});

describe("make's verdict on a link step whose link driver failed", () => {
  it('gives no place: collect2 failing itself names no line of the Makefile or of the source', () => {
    const loc = locationOf([
      '+ make',
      'cc -O2 -c src/ring.c -o src/ring.o',
      'cc -fuse-ld=lld -o ringd src/ring.o',
      'collect2: fatal error: cannot find \u2018ld\u2019',
      'compilation terminated.',
      'make: *** [Makefile:9: ringd] Error 1',
      "Build step 'Execute shell' marked build as failure",
    ]);
    expect(loc).toBeUndefined();
  });
});

describe("Maven's list of model problems under its heading", () => {
  const maven = (problem: string) => [
    '+ mvn -B -q package',
    '[ERROR] [ERROR] Some problems were encountered while processing the POMs:',
    problem,
    ' @ ',
    '[ERROR] The build could not read 1 project -> [Help 1]',
    '[ERROR]   ',
    '[ERROR]   The project org.tidewater:tide-api:0.3.0 (/srv/ci/ws/tides/api/pom.xml) has 1 error',
    `[ERROR]     ${problem.replace(/^\[ERROR\] /, '')}`,
    '[ERROR] ',
    "Build step 'Execute shell' marked build as failure",
  ];

  it("gives the first problem's line of the POM the summary names", () => {
    const loc = locationOf(maven("[ERROR] 'dependencies.dependency.scope' for org.slf4j:slf4j-api:jar must be one of [provided, compile, runtime, test, system] but is 'tset'. @ line 31, column 20"));
    expect(loc).toMatchObject({ file: '/srv/ci/ws/tides/api/pom.xml', line: 31, column: 20, log_line: 3 });
  });

  it('gives no place when the problem names no line', () => {
    expect(locationOf(maven('[ERROR] Child module /srv/ci/ws/tides/web of /srv/ci/ws/tides/pom.xml does not exist'))).toBeUndefined();
  });
});

describe('forms of a place of widely used tools no case has', () => {
  it.each([
    ["kubectl: the file it was parsing, the YAML parser's line further on", 'error: error parsing k8s/web.yaml: error converting YAML to JSON: yaml: line 14: did not find expected key', { file: 'k8s/web.yaml', line: 14 }],
    ["helm: the template's file, the parser's line", 'Error: YAML parse error on web/templates/svc.yaml: error converting YAML to JSON: yaml: line 12: mapping values are not allowed in this context', { file: 'web/templates/svc.yaml', line: 12 }],
    ['Ansible: a single-quoted path, its line and column', "The error appears to be in '/srv/ci/roles/web/tasks/main.yml': line 7, column 12, but may", { file: '/srv/ci/roles/web/tasks/main.yml', line: 7, column: 12 }],
    ["a CI runner's annotation", "::error file=src/cart.js,line=12,col=5,endLine=12,endColumn=9,title=no-undef::'totl' is not defined.", { file: 'src/cart.js', line: 12, column: 5 }],
    ["an annotation's fields in another order", '::warning title=W291,file=src/app.py,line=4::trailing whitespace', { file: 'src/app.py', line: 4 }],
    ["codespan's pointer to the source", '  ┌─ doc/main.typ:12:3', { file: 'doc/main.typ', line: 12, column: 3 }],
    ['dart analyze: the place between dashes', "  error - lib/src/cart.dart:12:5 - Undefined name 'totl'. - undefined_identifier", { file: 'lib/src/cart.dart', line: 12, column: 5 }],
    ["dart analyze's older bullets", "  error • Undefined name 'totl' • lib/src/cart.dart:12:5 • undefined_identifier", { file: 'lib/src/cart.dart', line: 12, column: 5 }],
    ["GHC's span of lines and columns: its start", 'src/Cart.hs:(12,5)-(13,20): error: [GHC-83865]', { file: 'src/Cart.hs', line: 12, column: 5 }],
  ])('%s', (_what, line, place) => {
    expect(placeIn(line)).toEqual(place);
  });

  it.each([
    ['a file read with no line', 'error: error parsing k8s/web.yaml: error converting YAML to JSON: unexpected EOF'],
    ["a parser's line with no file", 'yaml: line 4: mapping values are not allowed in this context'],
    ['a severity and a sentence with no place', 'error - the build failed - see above'],
    ['an annotation with no line', '::error file=src/cart.js::lint failed'],
  ])('takes no place from %s', (_what, line) => {
    expect(placeIn(line)).toBeUndefined();
  });

  it("takes no place from the code `node -e` was given (`[eval]`'s frames)", () => {
    const loc = locationOf(['+ node -e "JSON.parse(x)"', '[eval]:1', 'JSON.parse(x)', '^', '', 'ReferenceError: x is not defined', '    at [eval]:1:12', '    at runScriptInThisContext (node:internal/vm:209:10)', '', 'Node.js v20.20.2']);
    expect(loc).toBeUndefined();
  });
});
