import { LogSink } from './logSink.js';

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });

describe('LogSink', () => {
  const sinks: LogSink[] = [];
  afterEach(() => sinks.splice(0).forEach((s) => s.end()));
  const make = (writeSync: (fd: number, data: Buffer) => number, blockMs = 50): LogSink => {
    const s = new LogSink(99, 1 << 20, 60_000, blockMs, writeSync);
    sinks.push(s);
    return s;
  };

  it('writes what was gathered, in one write, partial writes continued', () => {
    const seen: string[] = [];
    const sink = make((_fd, data) => {
      const n = Math.min(3, data.length);
      seen.push(data.subarray(0, n).toString());
      return n;
    });
    sink.write('ab');
    sink.write('cdé\n');
    expect(seen).toEqual([]);
    sink.flush();
    expect(seen.join('')).toBe('abcdé\n');
  });

  it('stops writing after EPIPE instead of retrying forever (the reader is gone)', () => {
    let calls = 0;
    const sink = make(() => {
      calls += 1;
      throw errno('EPIPE');
    });
    sink.write('line\n');
    const started = Date.now();
    sink.flush();
    sink.write('more\n');
    sink.flush();
    expect(calls).toBe(1);
    expect(sink.broken).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits on a full pipe (EAGAIN) at most blockMs, then keeps the rest for later', () => {
    let full = true;
    const out: string[] = [];
    const sink = make((_fd, data) => {
      if (full) throw errno('EAGAIN');
      out.push(data.toString());
      return data.length;
    }, 30);
    sink.write('kept\n');
    const started = Date.now();
    sink.flush();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(sink.broken).toBe(false);
    full = false;
    sink.flush();
    expect(out.join('')).toBe('kept\n');
  });
});
