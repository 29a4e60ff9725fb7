import { expectFinding, realFinding as real, topFinding as top, type FindingRow } from '../../test/helpers/findingCases.js';

/** General evidence from round 5's batch B once opened for tuning (round 5b's rules, now in families/; refineStepCause.ts), each on a real log of test/fixtures/realfail. */

describe('general evidence of round 5, batch B', () => {
  it.each<FindingRow>([
    // A package manager without the package; a build's unmet dependencies; a pinned commit the remote lacks.
    ['apt-get-unable-to-locate', 'dependency-resolution', 'E: Unable to locate package libyaml-cpp-devel', undefined, undefined],
    ['dpkg-unmet-build-deps', 'dependency-resolution', 'Unmet build dependencies: libjansson-dev', undefined, undefined],
    ['git-submodule-missing-commit', 'dependency-resolution', "but it did not contain b84806b0a521be8e7ad2d6a2f317eb3d163e9435", undefined, undefined],
    // An add-on a tool cannot load, at make's verdict on the rules file that ran it.
    ['dh-addon-missing', 'missing-tool', 'dh: error: unable to load addon python3', 'debian/rules', 3],
    // A name that already exists; the shell's ambiguous redirect; a CRLF shebang, at the script's line 1.
    ['git-tag-already-exists', 'ci-script', "fatal: tag 'v1.4.0' already exists", undefined, undefined],
    ['bash-ambiguous-redirect', 'ci-script', 'ci.sh: line 4: $REPORT_FILE: ambiguous redirect', 'ci.sh', 4],
    ['bash-crlf-line-endings', 'ci-script', "/usr/bin/env: ‘bash\\r’: No such file or directory", 'scripts/release-notes.sh', 1],
    // A signature that cannot be checked.
    ['gpg-no-public-key', 'permission-credentials', "gpg: Can't check signature: No public key", undefined, undefined],
    // A linker's memory region overflow.
    ['ld-region-overflow', 'link-error', "region `FLASH' overflowed by 2080 bytes", undefined, undefined],
    // A wait that timed out.
    ['expect-prompt-timeout', 'timeout-aborted', 'timed out waiting for the admin> prompt', undefined, undefined],
    // The abort's reason above the shell's `Aborted`.
    ['gcc-stack-smashing', 'runtime-exception', '*** stack smashing detected ***: terminated', undefined, undefined],
    ['gpp-uncaught-out-of-range', 'runtime-exception', "terminate called after throwing an instance of 'std::out_of_range'", undefined, undefined],
    // An interpreter's uncaught exception while the command runs a test file.
    ['polyml-test-exception', 'test-error', 'Exception- Fail "not a port: " raised', undefined, undefined],
    // A packager's missing file; a test's output that did not match its pattern.
    ['rpmbuild-file-not-found', 'ci-script', 'error: File not found: /tmp/b5b/rpmtop/BUILDROOT/healthcheck-0.4-1.x86_64/usr/bin/healthcheck', undefined, undefined],
    ['ctest-regex-not-found', 'test-assertion', 'Required regular expression not found.', undefined, undefined],
    // A failed write in a step whose `df` then shows the filesystem full.
    ['curl-write-disk-full', 'disk-full', 'curl: (23) Failure writing output to destination', undefined, undefined],
    // A validator's and a linter's error-level lines.
    ['desktop-file-validate-error', 'lint', 'data/org.example.Ledger.desktop: error: action "import" is defined', undefined, undefined],
    ['lintian-error-tags', 'lint', 'E: purge-cache: shell-script-fails-syntax-check [usr/bin/purge-cache]', undefined, undefined],
    // An unknown interpreter's undefined word at a line of the file it was given.
    ['gforth-undefined-word', 'compile-error', 'checksum.fs:4: Undefined word', 'checksum.fs', 4],
    // The connection's failure under a fetch's conclusion; Go's verdict under its failed allocation.
    ['git-lfs-batch-refused', 'network', 'connect: connection refused', undefined, undefined],
    ['go-test-oom-ulimit', 'out-of-memory', 'fatal error: out of memory', 'index/index.go', 12],
  ])('%s', (...row) => expectFinding(real(row[0]), row));

  it('claims nothing the log does not establish', () => {
    // Other package managers' words for a package they do not have.
    expect(top('+ brew install libfoo\nError: No available formula with the name "libfoo".\nexit 1').class).toBe('dependency-resolution');
    expect(top('+ dnf install -y libfoo\nError: Unable to find a match: libfoo\nexit 1').class).toBe('dependency-resolution');
    // A signature warning is not the failure.
    expect(top('+ rpm -i x.rpm\nwarning: x.rpm: Header V4 RSA/SHA256 Signature, key ID 1234abcd: NO_PUBKEY 1234ABCD\nerror: Failed dependencies:\nexit 1').class).not.toBe('permission-credentials');
    // A write failure with no full filesystem shown stays unknown.
    expect(top('+ curl -o /out/x.bin http://h/x\ncurl: (23) Failure writing output to destination\n+ exit 1').class).not.toBe('disk-full');
    // A linter's warning-level line is not its error, and a CI's `ERROR:` exit line is not a linter's.
    expect(top('+ lintian ../x.deb\nW: x: no-manual-page [usr/bin/x]\nERROR: script returned exit code 2').class).not.toBe('lint');
    // A wait for a connection that timed out is the network's.
    expect(top('+ ./wait.sh\nerror: timed out waiting for connection to db:5432\nexit 1').class).not.toBe('timeout-aborted');
    // An uncaught exception of a program that is not a test stays a runtime exception.
    expect(top('+ poly --script src/main.sml\nException- Fail "bad" raised\nexit 1').class).toBe('runtime-exception');
    // std::bad_alloc is out of memory, not a runtime exception.
    expect(top("+ ./report\nterminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\nci.sh: line 2: 24436 Aborted                 ./report\nexit 134").class).toBe('out-of-memory');
  });
});
