import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { LocalEmbedder, OpenAIEmbedder } from './embed.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

describe('LocalEmbedder', () => {
  const embedder = new LocalEmbedder();

  test('gives deterministic unit vectors of its dimension, named by an id holding the dimension', async () => {
    const [a, b] = await embedder.embed(['BUILD FAILED in 3s', 'BUILD FAILED in 3s']);
    expect(a).toHaveLength(256);
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(embedder.id).toBe('local-hash-v2-256');
    expect(new LocalEmbedder(64).id).toBe('local-hash-v2-64');
    expect((await new LocalEmbedder(64).embed(['x y']))[0]).toHaveLength(64);
  });

  test('its vectors do not change under the same id (stored contexts and index files rely on it)', () => {
    // Repeated tokens (n-grams hashed once per distinct token), camelCase pieces, a token over
    // 32 characters, non-ASCII, stop words, numbers: any change here needs a new embedder id.
    const texts = [
      'BUILD FAILED in 3s',
      '[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.pom\n[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.jar',
      'java.lang.NullPointerException at com.acme.user.UserService.load(UserService.java:42) HTTPServerError E0425 TS2345 ORA-00942',
      `${'x'.repeat(300)} ${'AbcDef'.repeat(20)} Ünïcødé 漢字 😀 does the build fail why 12345 __init__ ./gradlew -Dfoo=bar`,
    ];
    const hash = createHash('sha1');
    for (const text of texts) hash.update(embedder.embedOne(text));
    expect(embedder.id).toBe('local-hash-v2-256');
    expect(hash.digest('hex')).toBe('5ea5c057851a2e123f4dbd49f1becec9db1499c5');
  });

  test('an empty text is the zero vector (no NaN)', async () => {
    const [v] = await embedder.embed(['']);
    expect(Array.from(v!).every((x) => x === 0)).toBe(true);
  });

  test('ranks the chunk holding the asked identifier, error code or path first', async () => {
    const chunks = [
      '[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/slf4j/slf4j-api/2.0.9/slf4j-api-2.0.9.pom\n[INFO] Building jar: /ws/target/app.jar',
      'java.lang.NullPointerException: Cannot invoke "String.length()" because "name" is null\n\tat com.acme.user.UserService.load(UserService.java:42)',
      "error[E0425]: cannot find value `conifg` in this scope\n --> src/main.rs:14:5",
      "src/api/client.ts(12,7): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
      'ORA-00942: table or view does not exist\nat oracle.jdbc.driver.T4CTTIoer11.processError',
      '> Task :app:compileKotlin FAILED\ne: file:///ws/app/src/main/kotlin/Main.kt:3:5 Unresolved reference: foo',
    ];
    const vectors = await embedder.embed(chunks);
    const best = async (query: string) => {
      const [q] = await embedder.embed([query]);
      const scores = vectors.map((v) => dot(q!, v));
      return scores.indexOf(Math.max(...scores));
    };
    expect(await best('Why is there a NullPointerException in UserService?')).toBe(1);
    expect(await best('what does E0425 mean')).toBe(2);
    expect(await best('TS2345 in client.ts')).toBe(3);
    expect(await best('ORA-00942')).toBe(4);
    expect(await best('compileKotlin failed')).toBe(5);
    expect(await best('user service null pointer')).toBe(1);
    expect(await best('slf4j download')).toBe(0);
  });

  test('stops at an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(['x'], controller.signal)).rejects.toThrow();
  });
});

describe('OpenAIEmbedder', () => {
  let server: http.Server;
  let url: string;
  const requests: { model: string; input: string[]; encoding_format: string }[] = [];

  beforeAll(async () => {
    // A small stand-in for an OpenAI-compatible server: 3-dimensional, not normalised vectors.
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const parsed = JSON.parse(body) as { model: string; input: string[]; encoding_format: string };
        requests.push(parsed);
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            object: 'list',
            model: parsed.model,
            data: parsed.input
              .map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1, 0] }))
              .reverse(),
            usage: { prompt_tokens: 1, total_tokens: 1 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('learns the dimension of an unknown model, batches, asks for floats and normalises', async () => {
    requests.length = 0;
    const client = new OpenAI({ apiKey: 'test', baseURL: url, maxRetries: 0 });
    const embedder = await OpenAIEmbedder.create({ model: 'nomic-embed-text', client, batchSize: 2 });
    expect(embedder.dim).toBe(3);
    expect(embedder.id).toBe('openai:nomic-embed-text');
    const vectors = await embedder.embed(['a', 'bbb', 'cc', '']);
    expect(requests).toHaveLength(3); // probe + two batches of two
    expect(requests.every((r) => r.encoding_format === 'float' && r.model === 'nomic-embed-text')).toBe(true);
    expect(requests[2]!.input).toEqual(['cc', ' ']);
    expect(vectors.map((v) => Array.from(v).map((x) => Number(x.toFixed(4))))).toEqual([
      [0.7071, 0.7071, 0],
      [0.9487, 0.3162, 0],
      [0.8944, 0.4472, 0],
      [0.7071, 0.7071, 0],
    ]);
  });

  test('knows the dimension of OpenAI models without a probe', async () => {
    requests.length = 0;
    const client = new OpenAI({ apiKey: 'test', baseURL: url, maxRetries: 0 });
    const embedder = await OpenAIEmbedder.create({ model: 'text-embedding-3-small', client });
    expect(embedder.dim).toBe(1536);
    expect(requests).toHaveLength(0);
    await expect(embedder.embed(['x'])).rejects.toThrow(/3 dimensions, expected 1536/);
  });
});
