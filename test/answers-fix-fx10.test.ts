/**
 * "How do I fix it?" names what the fix needs (helper fx10, issue 25 point 3; backend/answer/local/fixWhatNeeds.ts):
 * on a full disk, the write it stopped, the build directory that write lies in, and the flags that make the
 * output larger on the commands writing there; a version asked for against the versions found. Made-up logs
 * of a shell step first (each with a case where nothing may be said), then real cases of the tuning rounds
 * (<= 19); every citation checked.
 */
import { fixOfRealCase, fixOfShellLog } from './helpers/shellLogFix.js';

describe('a full disk: what filled it', () => {
  it('names a size-growing flag on the command whose output hit the full filesystem', async () => {
    const fix = await fixOfShellLog(['+ make', 'cc -c -o build/app.o src/app.c', 'gcc -static -o /srv/out/app build/app.o', '/usr/bin/ld: final link failed: No space left on device', 'collect2: error: ld returned 1 exit status', 'make: *** [Makefile:3: /srv/out/app] Error 1'], 'app');
    expect(fix).toContain('`-static` is on the command that writes `/srv/out/app` [L5-L5], on the full filesystem');
    expect(fix).toContain('link dynamically');
  });

  it("names -g3 on the compiles that wrote beside the archive ar could not write, once", async () => {
    const compiles = Array.from({ length: 4 }, (_, i) => `gcc -O2 -g3 -c src/f${i}.c -o /vol/lib/f${i}.o`);
    const fix = await fixOfShellLog(['+ make', ...compiles, 'ar rcs /vol/lib/libf.a /vol/lib/f0.o /vol/lib/f1.o /vol/lib/f2.o /vol/lib/f3.o', 'ar: /vol/lib/libf.a: No space left on device', 'make: *** [Makefile:9: /vol/lib/libf.a] Error 1'], 'lib');
    expect(fix).toContain('`-g3` is on the command that writes `/vol/lib/f0.o` [L4-L4]');
    expect(fix.split('`-g3` is on').length).toBe(2);
  });

  it('says nothing of a flag on a command that wrote to another filesystem', async () => {
    const fix = await fixOfShellLog(['+ gcc -static -o /opt/tools/gen gen.c', "+ cp data.bin /mnt/small/data.bin", "cp: error writing '/mnt/small/data.bin': No space left on device"], 'copy');
    expect(fix).not.toContain('`-static` is on');
  });

  it("names the file Gradle was copying and a build directory moved out of the project", async () => {
    const fix = await fixOfShellLog(
      [
        '+ gradle --offline assemble',
        '> Task :processResources FAILED',
        '',
        'FAILURE: Build failed with an exception.',
        '',
        '* What went wrong:',
        "Execution failed for task ':processResources'.",
        "> Could not copy file '/ws/app/src/main/resources/geo/cells.bin' to '/mnt/fast/app-build/resources/main/geo/cells.bin'.",
        '',
        '* Exception is:',
        "org.gradle.api.tasks.TaskExecutionException: Execution failed for task ':processResources'.",
        "Caused by: org.gradle.api.GradleException: Could not copy file '/ws/app/src/main/resources/geo/cells.bin' to '/mnt/fast/app-build/resources/main/geo/cells.bin'.",
        'Caused by: java.io.IOException: No space left on device',
        '',
        'BUILD FAILED in 3s',
      ],
      'app',
    );
    expect(fix).toContain('Gradle was copying `cells.bin`');
    expect(fix).toContain('`/mnt/fast/app-build` is the project\'s build directory');
    expect(fix).toContain('outside the project (the directory the copied file comes from), `/ws/app`');
    expect(fix).toContain('`buildDir`');
  });
});

describe('the version asked for and the versions found', () => {
  it("CMake's config search: the requested version against the one considered", async () => {
    const fix = await fixOfShellLog(
      [
        '+ cmake -S . -B build',
        'CMake Error at CMakeLists.txt:7 (find_package):',
        '  Could not find a configuration file for package "Frob" that is',
        '  compatible with requested version "3.1".',
        '',
        '  The following configuration files were considered but not accepted:',
        '',
        '    /opt/frob/lib/cmake/Frob/FrobConfig.cmake, version: 2.9.0',
        '',
        '-- Configuring incomplete, errors occurred!',
      ],
      'cm',
    );
    expect(fix).toContain('The project asks for `Frob` `3.1`');
    expect(fix).toContain('the only version CMake found is `2.9.0`');
    expect(fix).toContain('`find_package(Frob 2.9.0 ...)`');
    expect(fix).toContain('the log does not say which the code needs');
  });

  it("a Find module's unsuitable version: the one found against the one required", async () => {
    const fix = await fixOfShellLog(
      ['+ cmake -S . -B build', 'CMake Error at /usr/share/cmake-3.25/Modules/FindPackageHandleStandardArgs.cmake:230 (message):', '  Could NOT find ZLIB: Found unsuitable version "1.2.11", but required is at', '  least "1.3" (found /usr/lib/x86_64-linux-gnu/libz.so)', '-- Configuring incomplete, errors occurred!'],
      'cz',
    );
    expect(fix).toContain('CMake found `ZLIB` `1.2.11` and the project requires');
  });

  it("Gradle's module conflict: both versions, and that the log does not choose", async () => {
    const fix = await fixOfShellLog(
      [
        '+ gradle build',
        'FAILURE: Build failed with an exception.',
        '',
        '* What went wrong:',
        "Could not resolve all dependencies for configuration ':app:runtimeClasspath'.",
        '> A conflict was found between the following modules:',
        '   - org.slf4j:slf4j-api:2.0.9',
        '   - org.slf4j:slf4j-api:1.7.36',
        '',
        'BUILD FAILED in 2s',
      ],
      'gr',
    );
    expect(fix).toContain('Two versions of `slf4j-api` (`org.slf4j:slf4j-api`) meet on one classpath, `2.0.9` and `1.7.36`');
    expect(fix).toContain("`resolutionStrategy.force 'org.slf4j:slf4j-api:2.0.9'` for the newest");
    expect(fix).toContain('the log does not say which version the code needs');
  });
});

describe('real cases of the tuning rounds', () => {
  it.each([
    ['ld-output-no-space', ['-static', '/tmp/b9b/dist']],
    ['ar-static-lib-tmpfs-no-space', ['-g3']],
    ['gradle-jar-enospc', ['base-z0-z8.pack', 'build/libs']],
    ['gradle-builddir-tmpfs-full', ['rules.csv', 'buildDir']],
    ['cmake-find-package-config-version-incompatible', ['1.4.2', 'third_party/ringbuf']],
    ['gradle-fail-on-version-conflict', ['gson', '2.11.0']],
  ])('%s: the fix names %j', async (id, tokens) => {
    const fix = await fixOfRealCase(id);
    for (const t of tokens) expect(fix).toContain(t);
  });
});

describe('the tests that ran before a failed test', () => {
  it('unittest -v: the tests before it, as a condition on running it alone', async () => {
    const fix = await fixOfShellLog(
      [
        '+ python3 -m unittest -v',
        'test_a_writes (tests.test_cache.CacheTest.test_a_writes) ... ok',
        'test_b_reads (tests.test_cache.CacheTest.test_b_reads) ... FAIL',
        '',
        '======================================================================',
        'FAIL: test_b_reads (tests.test_cache.CacheTest.test_b_reads)',
        '----------------------------------------------------------------------',
        'Traceback (most recent call last):',
        '  File "/ws/tests/test_cache.py", line 12, in test_b_reads',
        '    self.assertEqual(cache.size(), 0)',
        'AssertionError: 1 != 0',
        '',
        '----------------------------------------------------------------------',
        'Ran 2 tests in 0.001s',
        '',
        'FAILED (failures=1)',
      ],
      'py',
    );
    expect(fix).toContain('In this run, `test_a_writes` ran before `test_b_reads` [L4-L5]. If `test_b_reads` passes when it runs alone');
  });

  it('nothing when the failed test ran first', async () => {
    const fix = await fixOfShellLog(
      ['+ python3 -m unittest -v', 'test_b_reads (tests.test_cache.CacheTest.test_b_reads) ... FAIL', 'test_c (tests.test_cache.CacheTest.test_c) ... ok', '', '======================================================================', 'FAIL: test_b_reads (tests.test_cache.CacheTest.test_b_reads)', '----------------------------------------------------------------------', 'Traceback (most recent call last):', '  File "/ws/tests/test_cache.py", line 12, in test_b_reads', '    self.assertEqual(cache.size(), 0)', 'AssertionError: 1 != 0', '', 'Ran 2 tests in 0.001s', '', 'FAILED (failures=1)'],
      'py',
    );
    expect(fix).not.toContain('In this run,');
  });

  it.each([
    ['maven-junit5-static-state-order', 'In this run, `app.notify.CustomTemplateTest` ran before `app.notify.RegistryDefaultsTest`'],
    ['unittest-shared-state-order', '`test_can_override_a_flag`, `test_dark_mode_defaults_on` ran before `test_new_checkout_defaults_off`'],
  ])('%s (a tuning case)', async (id, said) => {
    expect(await fixOfRealCase(id)).toContain(said);
  });
});
