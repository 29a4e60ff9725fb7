/**
 * Places of session 43 (helper loc3, docs/notes/analyzer.md "Locations, session 43"): forms and choices of a place
 * read without naming a tool, on made-up logs of tools and projects no case has, each with counter-examples.
 */
import { analyze } from '../log/analyze.js';

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
    expect(loc).toMatchObject({ file: '/srv/ci/ws/tides/api/pom.xml', line: 31, column: 20 });
  });

  it('gives no place when the problem names no line', () => {
    expect(locationOf(maven('[ERROR] Child module /srv/ci/ws/tides/web of /srv/ci/ws/tides/pom.xml does not exist'))).toBeUndefined();
  });
});
