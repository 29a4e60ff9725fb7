/**
 * `LineBatch` (reread.ts re-exports it): here, without the analyzer's module, so that prime.ts can push its made-up
 * log through the same kind of batch as a real read (a call site of the splitter that has met another callback is
 * compiled as a polymorphic call, not inlined).
 */
/**
 * The lines a `ByteLineSplitter` cuts from a piece (`add` is its `onLine`), given to the analyzer
 * once the piece is cut (`into`), not one by one from inside the splitter's loop. Same lines in the
 * same order; the splitter's loop and the analyzer's `push` are then two small hot loops, where the
 * call to `push` inside the splitter's loop made V8 compile one large function again at each of the
 * analyzer's warm-up deopts: 0.90x the CPU on the LogChunks logs as one stream, 0.89x on a generated
 * log (alternating rounds, analyze.md "Tenth session").
 */
export class LineBatch {
  /**
   * The lines added since the last `into` are the first `count`; the arrays keep their length
   * between pieces (`length = 0` freed their storage, which V8 then grew again, in steps, for
   * each piece's few thousand lines), and a slot past `count` holds a line already pushed.
   */
  private readonly lines: string[] = [];
  private readonly hints: number[] = [];
  private count = 0;

  readonly add = (line: string, _length: number, hints: number): void => {
    // At most one past the end: the arrays stay packed.
    const k = this.count++;
    this.lines[k] = line;
    this.hints[k] = hints;
  };

  /** Pushes the lines added so far into `analyzer`, in order, and forgets them. */
  into(analyzer: { push(line: string, hints: number): void }): void {
    const lines = this.lines;
    const hints = this.hints;
    const count = this.count;
    // Reset before the loop, not after it: V8 compiles this loop on its first, long run (OSR),
    // before anything after it has run, and entered that code again at every piece only to
    // deoptimize at the code after the loop that had no type feedback (`--trace-deopt`: up to
    // one deopt a piece, 364 in one run over the real logs).
    this.count = 0;
    for (let k = 0; k < count; k++) analyzer.push(lines[k]!, hints[k]!);
  }
}

