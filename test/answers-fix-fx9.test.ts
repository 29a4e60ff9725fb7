/**
 * "How do I fix it?" reads what a type error means (helper fx9, issue 25 point 3): the message names the
 * expected and the found type, and the **Fix:** line of the source block turns them into the language's own
 * conversion on the marked line (backend/answer/local/typeConversion.ts), the line rewritten when the
 * message says which expression it is; both changes when two fit. Made-up projects read by the CLI's
 * reader, then real cases of the tuning data (rounds <= 18); every citation checked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixOfRealCase, fixOfShellLog } from './helpers/shellLogFix.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** The fix answer's **Fix:** line for a shell step's log over a project on disk (path -> text); citations checked. */
async function fixLine(files: Record<string, string>, lines: string[]): Promise<string> {
  return (await fixOfShellLog(lines, 'app', '/tmp/jenkins9.sh', project(files))).split('\n').find((l) => l.startsWith('**Fix:**')) ?? '';
}

/** A project on disk: path -> text. */
function project(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fx9-ws-'));
  made.push(dir);
  for (const [rel, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  }
  return dir;
}

describe('the expected and the found type, made concrete', () => {
  it('Go: two predeclared number types in one expression: both conversions, and that I cannot tell which', async () => {
    const fix = await fixLine({ 'stats/mean.go': 'package stats\n\nfunc Mean(sum float64, n int) float64 {\n\treturn sum / n\n}\n' }, ['+ go build ./...', '# example.com/m/stats', 'stats/mean.go:4:9: invalid operation: sum / n (mismatched types float64 and int)']);
    expect(fix).toContain('`sum` is a `float64` and `n` an `int`');
    expect(fix).toContain('`sum / float64(n)`: line 4 of `stats/mean.go` becomes `return sum / float64(n)`');
    expect(fix).toContain("`int(sum) / n` fits as well; I can't tell which is right");
  });

  it('printf: the conversion for the argument\'s type, in the line', async () => {
    const fix = await fixLine({ 'src/count.c': '#include <stdio.h>\nvoid show(long n)\n{\n    printf("seen %d\\n", n);\n}\n' }, ['+ make', 'cc -Wall -Werror -c -o src/count.o src/count.c', "src/count.c:4:19: error: format ‘%d’ expects argument of type ‘int’, but argument 2 has type ‘long int’ [-Werror=format=]", 'make: *** [Makefile:4: src/count.o] Error 1']);
    expect(fix).toContain('its conversion is `%ld`: line 4 of `src/count.c` becomes `printf("seen %ld\\n", n);`');
  });

  it('a type the table has no conversion for: the general sentence, nothing invented', async () => {
    const fix = await fixLine({ 'src/count.c': '#include <stdio.h>\nstruct s { int a; };\nvoid show(struct s v)\n{\n    printf("seen %d\\n", v);\n}\n' }, ['+ make', "src/count.c:5:19: error: format ‘%d’ expects argument of type ‘int’, but argument 2 has type ‘struct s’ [-Werror=format=]", 'make: *** [Makefile:4: src/count.o] Error 1']);
    expect(fix).not.toContain('its conversion is');
  });

  it('C++: a value an explicit constructor does not take implicitly', async () => {
    const fix = await fixLine({ 'src/timer.cpp': '#include "timer.hpp"\nint arm()\n{\n    return start(Millis{5}, 250);\n}\n' }, ['+ make', 'g++ -std=c++17 -c src/timer.cpp -o src/timer.o', "src/timer.cpp:4:29: error: could not convert ‘250’ from ‘int’ to ‘Millis’", 'make: *** [Makefile:3: src/timer.o] Error 1']);
    expect(fix).toContain('construct it, `Millis(250)`: line 4 of `src/timer.cpp` becomes `return start(Millis{5}, Millis(250));`');
  });

  it("Go: a method with a pointer receiver: the value's address", async () => {
    const fix = await fixLine({ 'cmd/app/main.go': 'package main\n\nfunc main() {\n\tvar s Sink = File{Path: "/tmp/x"}\n\t_ = s\n}\n' }, ['+ go build ./...', '# example.com/app/cmd/app', 'cmd/app/main.go:4:15: cannot use File{…} (value of type File) as Sink value in variable declaration: File does not implement Sink (Write method has pointer receiver)']);
    expect(fix).toContain('pass `&File{…}`: line 4 of `cmd/app/main.go` becomes `var s Sink = &File{Path: "/tmp/x"}`');
  });
});

describe('two definitions that collide', () => {
  const header = { 'include/color.h': 'enum color { RED, GREEN };\n', 'include/paint.h': '#include "color.h"\nvoid paint(enum color c);\n', 'src/app.c': '#include "color.h"\n#include "paint.h"\nint main(void) { return 0; }\n' };
  it("gcc's `redeclaration of enum` (another wording than the one read): no include-guard step is made up", async () => {
    const lines = ['+ make', 'cc -Iinclude -c -o src/app.o src/app.c', 'In file included from include/paint.h:1,', '                 from src/app.c:2:', "include/color.h:1:6: error: redeclaration of ‘enum color’", 'In file included from src/app.c:1:', 'include/color.h:1:6: note: originally defined here', 'make: *** [Makefile:3: src/app.o] Error 1'];
    expect(await fixOfShellLog(lines, 'app', '/tmp/jenkins9.sh', project(header))).not.toContain('include guard');
  });
  it('a redefinition whose note points to another file is two definitions, not one header read twice', async () => {
    const fix = await fixLine({ 'src/a.h': 'struct pt { int x; };\n', 'src/b.h': 'struct pt { long x; };\n', 'src/m.c': '#include "a.h"\n#include "b.h"\n' }, ['+ make', 'In file included from src/m.c:2:', "src/b.h:1:8: error: redefinition of ‘struct pt’", 'In file included from src/m.c:1:', 'src/a.h:1:8: note: originally defined here', 'make: *** [Makefile:3: src/m.o] Error 1']);
    expect(fix).toContain('one of the two declarations the compiler found disagreeing');
  });
});

describe('two names that collide (go vet and go build output made on this machine, go1.19)', () => {
  it("go vet: two struct fields with one json tag: both places, a name of its own for one, and that I can't tell which", async () => {
    const user = 'package api\n\n// User is what GET /users/{id} returns.\ntype User struct {\n\tID           int    `json:"id"`\n\tName         string `json:"name"`\n\tEmail        string `json:"email"`\n\tContactEmail string `json:"email"`\n}\n';
    const text = await fixOfShellLog(['+ go vet ./...', '# example.com/contacts/api', 'api/user.go:8:2: struct field ContactEmail repeats json tag "email" also at user.go:7'], 'app', '/tmp/jenkins9.sh', project({ 'go.mod': 'module example.com/contacts\n\ngo 1.19\n', 'api/user.go': user }));
    expect(text).toContain('Two fields carry the `json` tag `email`: `ContactEmail` [L5-L5] and the field at `user.go:7`');
    expect(text).toContain('for example `json:"contact_email"` on `ContactEmail`; I can\'t tell which of the two the change meant to keep as `email`');
  });
  it('go build: a function declared in two files of one package: both places cited (and a real row: a variable declared twice in a function)', async () => {
    expect(await fixOfRealCase('go-build-redeclared-in-block')).toContain('`err` is declared twice in one block: at `sync/pages.go:19` [L11-L11] and at `sync/pages.go:18` [L12-L12]');
    const text = await fixOfShellLog(['+ go build ./...', '# example.com/r/store', 'store/readonly.go:4:6: Open redeclared in this block', '\tstore/open.go:3:6: other declaration of Open'], 'app', '/tmp/jenkins9.sh', project({ 'go.mod': 'module example.com/r\n\ngo 1.19\n', 'store/open.go': 'package store\n\nfunc Open(path string) error { return nil }\n', 'store/readonly.go': 'package store\n\n// Open opens the store read-only.\nfunc Open(path string) error { return nil }\n' }));
    expect(text).toContain('`Open` is declared twice in one block: at `store/readonly.go:4` [L5-L5] and at `store/open.go:3` [L6-L6]');
  });
});

describe('real cases of the tuning data (rounds <= 18, the project as the workspace)', () => {
  const fixOf = fixOfRealCase;
  it('Go: a time.Duration times an int', async () => {
    expect(await fixOf('go-build-duration-int-mismatched-types')).toContain('`cfg.Backoff * time.Duration(attempt)`: line 18 of `retry/retry.go` becomes `wait := cfg.Backoff * time.Duration(attempt)`');
  });
  it('OCaml: the expression the carets mark, converted', async () => {
    expect(await fixOf('ocaml-type-error')).toContain('`string_of_int (seconds s.millis)`: line 5 of `src/report.ml` becomes');
  });
  it('Ada: both operands of the operator the column marks', async () => {
    expect(await fixOf('gnat-type-mismatch')).toContain("`Average := Float (Sum) / Float (Readings'Length);`");
  });
  it('clang: the declaration takes the wider type', async () => {
    expect(await fixOf('clang-werror-shorten-64-to-32')).toContain('`size_t len = frame_len(msg);`');
  });
  it('PHP: the argument the declaration types, cast where it is passed', async () => {
    const text = await fixOf('php-uncaught-typeerror');
    expect(text).toContain('`(float) $value`');
    expect(text).toContain('`is_numeric()`');
  });
  it("Java: Formatter's conversion for a Double", async () => {
    expect(await fixOf('java-illegalformatconversion-report')).toContain('format that value with `%f` (`%.2f` for two decimals)');
  });
  it('Java: an Optional where its value is needed is unwrapped, not cast', async () => {
    const text = await fixOf('gradle-compile-incompatible-types');
    expect(text).toContain('`.orElse(<default>)`');
    expect(text).not.toContain('a cast or rounding');
  });
  it('Scala: an Option where its value is needed', async () => {
    expect(await fixOf('scalac-type-mismatch')).toContain('`.getOrElse(<default>)`');
  });
  it('a member the type does not have: its member with a like name, from the file that declares the type', async () => {
    expect(await fixOf('ninja-c-error')).toContain('`balance` is not a member of `ledger`, where line 6 of `src/main.c` uses it. Its member of the same kind that fits is `balance_cents` (src/ledger.h line 3)');
    expect(await fixOf('go-build-unknown-struct-field')).toContain('Its member of the same kind that fits is `DueDate` (billing/invoice.go line 9)');
    expect(await fixOf('rustc-no-method-found')).toContain('Its member of the same kind that fits is `try_take` (src/lib.rs line 14)');
    expect(await fixOf('phpunit-undefined-method')).toContain('`netTotal` (src/Cart.php line 17)');
    expect(await fixOf('go-run-template-cant-evaluate-field')).toContain('`GrandTotal` (main.go line 17)');
    expect(await fixOf('pylint-no-member')).toContain('`timeout_s` (probe/config.py line 7)');
  });
  it("Go: a lower-case field of another package's type is never offered (it cannot be used from there)", async () => {
    expect(await fixOf('go-build-unexported-field')).not.toContain('fits is `total`');
  });
  it('a header read twice: the include guard, named after it', async () => {
    const text = await fixOf('gcc-header-no-include-guard');
    expect(text).toContain('`src/geometry.h` was read twice in one compilation (included from `src/shape.h:4` [L11-L11] and from `src/main.c:2` [L16-L16])');
    expect(text).toContain('`#ifndef GEOMETRY_H`');
    expect(text).not.toContain('found disagreeing');
  });
});
