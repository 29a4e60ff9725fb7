/**
 * LogIngest cuts an upload's bytes as `cichat analyze` does (ByteLineSplitter, the analyzer's hints
 * from the bytes, lines given to the analyzer a piece at a time): the same summary as the text
 * path (TextDecoder and LineSplitter, no hints) whatever the pieces, masked lines included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LogIngest, type ChunkRow, type LogIngestOptions } from './logIngest.js';

const FIXTURES = path.resolve('test/fixtures/logs');
const OPTIONS: LogIngestOptions = { storedMaxChars: 2 << 20, tailLines: 1000, lineMaxChars: 2000 };

function ingest(feed: (ingest: LogIngest) => void, options = OPTIONS): unknown {
  const rows: ChunkRow[] = [];
  const ingest = new LogIngest(options, (batch) => rows.push(...batch));
  feed(ingest);
  return { summary: ingest.end(), rows };
}

/** `bytes` in pieces of 1..max bytes (a fixed sequence: cuts inside lines and UTF-8 characters). */
function inPieces(bytes: Buffer, max: number): Buffer[] {
  const out: Buffer[] = [];
  let seed = 7;
  for (let at = 0; at < bytes.length; ) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const n = 1 + (seed % max);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

const SECRETS = [
  'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'curl -H "Authorization: Bearer ghp_errorfailure0123456789abcdefABCDEF0123" https://api.example.com',
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEowIBAAKCAQEAerrorFAILEDpanic0123456789abcdefghijklmnopqrstuvwx',
  '-----END RSA PRIVATE KEY-----',
  '\u001b[31mpassword=Error:Failed123\u001b[0m',
];

const logs = (): [string, Buffer][] => {
  const files = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.log'));
  const out: [string, Buffer][] = files.map((f) => [f, fs.readFileSync(path.join(FIXTURES, f))]);
  // Secrets among failing lines: the mask changes those lines, their hints are read again.
  const first = out[0]![1].toString('utf8').split('\n');
  out.push(['with secrets', Buffer.from(['\ufeffStarted', ...SECRETS, ...first.slice(0, 40), ...SECRETS, ...first.slice(40), 'é\r\n'].join('\n'))]);
  return out;
};

test.each(logs())('%s: bytes in pieces give the summary and rows of the text', (_name, bytes) => {
  const expected = ingest((i) => i.pushText(new TextDecoder().decode(bytes)));
  expect(ingest((i) => i.pushBytes(bytes))).toEqual(expected);
  expect(ingest((i) => inPieces(bytes, 300).forEach((p) => i.pushBytes(p)))).toEqual(expected);
  expect(ingest((i) => inPieces(bytes, 3).forEach((p) => i.pushBytes(p)))).toEqual(expected);
});

test('a bounded store keeps the same lines from bytes in pieces as from the text', () => {
  const bytes = fs.readFileSync(path.join(FIXTURES, fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.log'))[0]!));
  const options = { ...OPTIONS, keep: { headChars: 200, tailChars: 300, middleChars: 400 } };
  const expected = ingest((i) => i.pushText(bytes.toString('utf8')), options) as { summary: { notKept?: unknown } };
  expect(expected.summary.notKept).toBeDefined();
  expect(ingest((i) => inPieces(bytes, 500).forEach((p) => i.pushBytes(p)), options)).toEqual(expected);
});
