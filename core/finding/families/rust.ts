/**
 * Rust: rustc and cargo: evidence rules of the tuning rounds 4, 9, 10, 11, 13, 16 (issue 25; docs/notes/analyzer.md, each
 * round's "opened" section), kept by tool family (rv3, session 43). Each is a tool's own wording for one cause,
 * never a case's words. Tried with RULES (rules.ts): `RUST_FIRST_RULES` before the general rules (each is
 * narrower than a general rule that matches the same line), `RUST_RULES` after the general rules and the cross-tool families' (rules.ts).
 */
import type { Rule, RuleHit } from '../ruleTypes.js';

/** rustc's place line under its `error[E....]:` heading (` --> src/main.rs:2:36`). */
const RUSTC_PLACE = /^\s*--> ((?:[A-Za-z]:)?[^\s:]+):(\d+):(\d+)\s*$/;
const rustcAt = (below: RegExpExecArray | undefined): RuleHit => (below ? { file: below[1] as string, line: Number(below[2]), column: Number(below[3]) } : {});

/** cargo: a git dependency's tag or branch its repository does not have (`failed to find tag `v1.1.0``, under `Caused by:`); the ref in group 1. */
export const CARGO_GIT_REF = /^\s*failed to find (?:tag|branch) `([^`]+)`$/;

export const RUST_FIRST_RULES: Rule[] = [
  // cargo's missing git ref (ux18). An excerpt whose finding is cargo's `failed to get` line above it takes this line as
  // its message through the `Caused by:` chain (causes.ts `withCause`, session 57 fx21).
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: CARGO_GIT_REF, read: (m) => ({ tool: 'cargo', symbol: m[1] as string }) },
  // rustc's E0554 (`#![feature]` may not be used on the stable release channel): the crate needs a nightly
  // toolchain the build does not have, a missing tool; the ` --> ` line under it is the attribute's place.
  { cls: 'missing-tool', priority: 28, confidence: 'high', re: /^error\[E0554\]: /, below: RUSTC_PLACE, read: (_m, _line, below) => ({ tool: 'rustc', code: 'E0554', symbol: 'nightly', ...rustcAt(below) }) },
  // rustc's const evaluator out of memory (`error[E0080]: tried to allocate more memory than available to compiler`):
  // the compiler hit its memory limit (ulimit, container) evaluating a large constant.
  {
    cls: 'out-of-memory',
    priority: 20,
    confidence: 'high',
    re: /^error(?:\[E\d+\])?: tried to allocate more memory than available to compiler/,
    below: RUSTC_PLACE,
    read: (_m, _line, below) => ({ tool: 'rustc', exception: 'tried to allocate more memory than available', ...rustcAt(below) }),
  },
  // rustc without a linker (`error: linker `cc` not found`): the toolchain lacks the C linker, a missing tool.
  { cls: 'missing-tool', priority: 28, confidence: 'high', re: /^error: linker `([^`]+)` not found/, read: (m) => ({ tool: 'rustc', symbol: m[1] as string }) },
  // cargo's resolver refusing a dependency graph with a cycle (`error: cyclic package dependency: package `a v0.1.0
  // (...)` depends on itself. Cycle:`): the manifests' dependencies, before anything compiles.
  { cls: 'dependency-resolution', priority: 15, confidence: 'high', re: /^error: cyclic package dependency: package `/, read: () => ({ tool: 'cargo' }) },
  // A thread's stack overflow is said first by the thread (`thread 'main' (20940) has overflowed its stack`), then by the runtime.
  { cls: 'runtime-exception', priority: 52, confidence: 'high', re: /^thread '[^']+'(?: \(\d+\))? has overflowed its stack$/, read: () => ({ tool: 'rust', exception: 'stack overflow' }) },
  // cargo's reason under `failed to select a version`: a feature the dependency does not have.
  { cls: 'dependency-resolution', priority: 44, confidence: 'high', re: /^package `[^`]+` depends on `([^`]+)` with feature `[^`]+` but `[^`]+` does not have that feature\.?$/, read: (m) => ({ tool: 'cargo', dependency: m[1] as string }) },
];

export const RUST_RULES: Rule[] = [
  // cargo refusing a package whose `rust-version` is newer than the toolchain (`error: rustc 1.75.0 is
  // not supported by the following package:` over `x@1.2.0 requires rustc 1.80`; older cargo: `package
  // `x` cannot be built because it requires rustc 1.80 or newer`): the tool's version is wrong.
  { cls: 'missing-tool', priority: 44, confidence: 'high', re: /^error: rustc \S+ is not supported by the following packages?:|^error: package [`'‘][^'’`]+['’`] cannot be built because it requires rustc \S+ or newer/, read: () => ({ tool: 'cargo' }) },
  // rustc without the standard library of the target it was asked to build for (`error[E0463]: can't find
  // crate for `std`` or `core`, `alloc`, `proc_macro`, `test`; its note `the `x` target may not be installed`):
  // the toolchain lacks the target, no source line is wrong. A missing crate of the project's own stays a compile error.
  {
    cls: 'missing-tool',
    priority: 30,
    confidence: 'high',
    re: /^error\[E0463\]: can't find crate for `(?:std|core|alloc|proc_macro|test)`/,
    read: () => ({ tool: 'rustc' }),
  },
  // cargo: a path dependency whose manifest is not there (`failed to load manifest for dependency `x`` ... `failed
  // to read `/ws/crates/x/Cargo.toml``), and a vendored crate whose files differ from its checksum file (`the listed
  // checksum of `vendor/x/src/lib.rs` has changed:` over `expected:` / `actual:` hashes, no test's values).
  { cls: 'dependency-resolution', priority: 30, confidence: 'high', re: /^\s*failed to read `[^`]*\/Cargo\.toml`/, read: () => ({ tool: 'cargo' }) },
  { cls: 'dependency-resolution', priority: 20, confidence: 'high', re: /^error: the listed checksum of `[^`]+` has changed:?$/, read: () => ({ tool: 'cargo' }) },
];
