/**
 * A Go linter passing on the compiler's error (session 55, helper t30; docs/notes/analyzer.md "Session 55 (helper t30)"):
 * go vet, staticcheck and golangci-lint build or type-check a package before they analyse it, and a package that does
 * not build is reported in the compiler's words, not as a finding of theirs: the failure is a compile error.
 */
/** go vet type-checks the package first: its `vet: file:line:col: msg` is the compiler's error (the package does not build), not a vet finding. */
const VET_TYPE_CHECK = /^vet: \S+\.go:\d+/;
/** The Go linters that build or type-check the package before they analyse it. */
const GO_LINTER = /^(?:go vet|golangci-lint|staticcheck)$/;
/** golangci-lint's and staticcheck's own label on the compiler's errors they pass on (`... (typecheck)`, `... (compile)`). */
const GO_COMPILER_LABEL = /\((?:typecheck|compile)\)$/;
/**
 * The Go type checker's own verdicts (cmd/compile and go/types word them alike): no analyzer of go vet, staticcheck or
 * golangci-lint words a finding so (theirs: `fmt.Sprintf format %s has arg x of wrong type`, `unreachable code`,
 * `self-assignment of x to x`, `impossible type assertion: no type can implement both`, ...).
 */
const GO_TYPE_ERROR = /^(?:vet: )?(?:\S+\.go:\d+(?::\d+)?: )?(?:undefined: |invalid operation: |cannot use .+ as .+ in |\S+ declared (?:and|but) not used|declared and not used: |"[^"]+" imported (?:and|but) not used|missing return$|(?:too many|not enough) (?:arguments in call|return values)|cannot convert |.+ does not implement |cannot assign to |invalid argument: |non-boolean condition |mismatched types |\S+ redeclared in this block|.+ has no field or method |syntax error: |could not import |assignment mismatch: |cannot compare )/;

/**
 * Whether a Go linter's line is the compiler's error, passed on, not a finding of the linter's (session 55, t30: round
 * 29): the package does not build. `go vet ./...` has the compiler build a package another one imports, and prints the
 * compiler's `# pkg` block as `go build` would (`svc.go:16:12: invalid operation: have == want (struct containing
 * []string cannot be compared)`, no `vet:`); golangci-lint labels the compiler's errors `(typecheck)` ("typecheck is not
 * a linter", its FAQ), staticcheck `(compile)`.
 */
export function goCompilerSaid(linter: string | undefined, message: string): boolean {
  if (linter === undefined || !GO_LINTER.test(linter)) return false;
  const text = message.trim();
  return VET_TYPE_CHECK.test(text) || GO_COMPILER_LABEL.test(text) || GO_TYPE_ERROR.test(text);
}

