/**
 * Text embeddings behind one interface: `local` (offline, deterministic, in-process feature
 * hashing) and `openai` (any OpenAI-compatible embeddings endpoint). Every index records the
 * embedder's `id` and `dim`, so vectors of different embedders are never mixed.
 */
import OpenAI from 'openai';

export interface Embedder {
  /** Names the embedder and its parameters, e.g. `local-hash-v2-512` or `openai:text-embedding-3-small`. */
  readonly id: string;
  readonly dim: number;
  /** One L2-normalised vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

// --- local: feature hashing -----------------------------------------------------------------

/** 32-bit finaliser of MurmurHash3: spreads FNV's weak low bits over the whole word. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const lower = (c: number): number => (c >= 65 && c <= 90 ? c | 0x20 : c);
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLowerLetter = (c: number): boolean => c >= 97 && c <= 122;

/** FNV-1a of text[from, to) lowercased, under `seed`. */
function hashRange(text: string, from: number, to: number, seed: number): number {
  let h = FNV_OFFSET ^ seed;
  for (let i = from; i < to; i++) h = Math.imul(h ^ lower(text.charCodeAt(i)), FNV_PRIME);
  return h;
}

/** Weights of the feature kinds: whole compound terms and tokens count most, n-grams least. */
const W_COMPOUND = 1.0;
const W_TOKEN = 1.0;
const W_PIECE = 0.6;
const W_NUMBER = 0.25;
/** Share of the character n-gram part in the final vector (the token part has 1). */
const NGRAM_SHARE = 0.45;
const NGRAM_SEED = 0x9e3779b9;
/** Tokens shorter than this get no n-grams; longer than MAX only those of their first characters. */
const MIN_NGRAM_TOKEN = 4;
const MAX_NGRAM_TOKEN = 32;
/** Longest term looked at whole; longer runs (base64 blobs) only give their n-grams of a prefix. */
const MAX_TERM = 256;

const W_STOP = 0.05;

/**
 * Words of questions and prose that say nothing about a build ("why does the test fail here?"):
 * nearly weightless, so a short chunk sharing only "does" with a question does not win.
 */
const STOP_WORDS = new Set(
  (
    'a an the and or but if then else of in on at to for from by with without as is are was were be been being ' +
    'do does did done doing have has had can could should would will shall may might must not no yes this that ' +
    'these those there here it its i me my we our you your he she they them their what which who whom whose why ' +
    'how when where all any some each every more most other such only own same so than too very just about into ' +
    'over under again further once up down out off also please tell explain mean means show give get got'
  )
    .split(' ')
    .map((w) => hashRange(w, 0, w.length, 0)),
);

/** Character kinds: 1 = letter or digit (any non-ASCII too), 2 = joins a term (`_ . - / $ #`). */
const KIND = new Uint8Array(128);
for (let c = 48; c <= 57; c++) KIND[c] = 1;
for (let c = 65; c <= 90; c++) KIND[c] = 1;
for (let c = 97; c <= 122; c++) KIND[c] = 1;
for (const ch of '_.-/$#') KIND[ch.charCodeAt(0)] = 2;
const kindOf = (c: number): number => (c < 128 ? KIND[c]! : 1);

/** Sublinear term frequency (1 + ln tf) that stays continuous for the fractional weights below 1. */
const sublinear = (x: number): number => (x <= 1 ? x : 1 + Math.log(x));

/**
 * Counts of hashed token features of one text: open addressing over typed arrays, cleared in
 * O(1) by a generation stamp, grown when a long text needs it.
 */
class FeatureCounts {
  keys = new Int32Array(0);
  stamps = new Uint32Array(0);
  values = new Float64Array(0);
  used: number[] = [];
  private generation = 0;

  reset(expected: number): void {
    let size = 1024;
    while (size < expected * 2) size *= 2;
    if (size > this.keys.length) {
      this.keys = new Int32Array(size);
      this.stamps = new Uint32Array(size);
      this.values = new Float64Array(size);
      this.generation = 0;
    }
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
    this.used.length = 0;
  }

  add(h: number, w: number): void {
    const mask = this.keys.length - 1;
    let i = fmix32(h) & mask;
    for (;;) {
      if (this.stamps[i] !== this.generation) {
        this.stamps[i] = this.generation;
        this.keys[i] = h;
        this.values[i] = w;
        this.used.push(i);
        if (this.used.length * 2 > this.keys.length) this.grow();
        return;
      }
      if (this.keys[i] === h) {
        this.values[i]! += w;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const entries = this.used.map((i) => [this.keys[i]!, this.values[i]!] as const);
    this.keys = new Int32Array(this.keys.length * 2);
    this.stamps = new Uint32Array(this.keys.length);
    this.values = new Float64Array(this.keys.length);
    this.generation = 1;
    this.used.length = 0;
    for (const [h, w] of entries) this.add(h, w);
  }
}

/**
 * Offline embeddings by signed feature hashing, tuned for build logs: the words, identifiers
 * (whole, and split at `_ . - /` and camelCase: `UserServiceTest` -> user, service, test),
 * error codes (`E0425`, `TS2345`, `ORA-00942`) and paths of a text, with sublinear term
 * weights, plus character 3-5-grams of each token (so `NullPointerException` is close to
 * `NullPointer`), all L2-normalised. Deterministic, no download, one pass over the characters.
 */
export class LocalEmbedder implements Embedder {
  readonly id: string;
  private readonly counts = new FeatureCounts();
  /** The current token, lowercased, between `<` and `>` marks (for its n-grams). */
  private readonly token = new Int32Array(MAX_TERM + 2);
  private grams: Float64Array;

  constructor(readonly dim = 256) {
    if (!Number.isInteger(dim) || dim < 16) throw new Error('dim must be an integer >= 16');
    this.id = `local-hash-v2-${dim}`;
    this.grams = new Float64Array(dim);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const text of texts) {
      signal?.throwIfAborted();
      out.push(this.embedOne(text));
    }
    return out;
  }

  /** The vector of one text, synchronously. */
  embedOne(text: string): Float32Array {
    const counts = this.counts;
    counts.reset(Math.min(text.length, 1 << 22));
    this.grams.fill(0);
    const length = text.length;
    let i = 0;
    while (i < length) {
      // Skip to the next term, then find its end.
      while (i < length && kindOf(text.charCodeAt(i)) === 0) i++;
      let from = i;
      while (i < length && kindOf(text.charCodeAt(i)) !== 0) i++;
      let to = i;
      // Trim joiners around a term (`done.`, `-Dfoo`, `./gradlew`, `__init__`).
      while (from < to && kindOf(text.charCodeAt(from)) === 2) from++;
      while (to > from && kindOf(text.charCodeAt(to - 1)) === 2) to--;
      if (from >= to) continue;
      if (to - from > MAX_TERM) to = from + MAX_TERM;
      this.term(text, from, to);
    }
    return this.vector();
  }

  /** Folds the counts and n-grams into one unit vector. */
  private vector(): Float32Array {
    const dim = this.dim;
    const counts = this.counts;
    const v = new Float32Array(dim);
    for (const slot of counts.used) {
      const f = fmix32(counts.keys[slot]!);
      const value = sublinear(counts.values[slot]!);
      v[f % dim]! += f & 0x80000000 ? -value : value;
    }
    let tokenNorm = 0;
    for (let i = 0; i < dim; i++) tokenNorm += v[i]! * v[i]!;
    const grams = this.grams;
    let gramNorm = 0;
    for (let i = 0; i < dim; i++) {
      const g = grams[i]!;
      const s = g < 0 ? -Math.log1p(-g) : Math.log1p(g);
      grams[i] = s;
      gramNorm += s * s;
    }
    const a = tokenNorm > 0 ? 1 / Math.sqrt(tokenNorm) : 0;
    const b = gramNorm > 0 ? NGRAM_SHARE / Math.sqrt(gramNorm) : 0;
    let norm = 0;
    for (let i = 0; i < dim; i++) {
      const x = v[i]! * a + grams[i]! * b;
      v[i] = x;
      norm += x * x;
    }
    if (norm > 0) {
      const k = 1 / Math.sqrt(norm);
      for (let i = 0; i < dim; i++) v[i]! *= k;
    }
    return v;
  }

  /** Features of one term text[from, to): the compound whole, then each alphanumeric token. */
  private term(text: string, from: number, to: number): void {
    let compound = false;
    let start = -1;
    for (let i = from; i <= to; i++) {
      const alnum = i < to && kindOf(text.charCodeAt(i)) === 1;
      if (alnum) {
        if (start < 0) start = i;
        continue;
      }
      if (i < to) compound = true;
      if (start >= 0) {
        this.tokenFeatures(text, start, i);
        start = -1;
      }
    }
    if (compound) this.counts.add(hashRange(text, from, to, 0), W_COMPOUND);
  }

  private tokenFeatures(text: string, from: number, to: number): void {
    const buf = this.token;
    const len = to - from;
    let h = FNV_OFFSET;
    let allDigits = true;
    buf[0] = 60; // <
    for (let k = 0; k < len; k++) {
      const c = text.charCodeAt(from + k);
      if (c < 48 || c > 57) allDigits = false;
      const l = lower(c);
      buf[k + 1] = l;
      h = Math.imul(h ^ l, FNV_PRIME);
    }
    buf[len + 1] = 62; // >
    if (allDigits) {
      // Line numbers, durations and counters: little meaning on their own, and no n-grams.
      this.counts.add(h, W_NUMBER);
      return;
    }
    if (STOP_WORDS.has(h)) {
      this.counts.add(h, W_STOP);
      return;
    }
    this.counts.add(h, W_TOKEN);
    // camelCase and HTTPServer pieces; letters followed by digits stay together (E0425, TS2345).
    let pieceStart = from;
    for (let i = from + 1; i < to; i++) {
      const c = text.charCodeAt(i);
      if (!isUpper(c)) continue;
      const prev = text.charCodeAt(i - 1);
      const next = i + 1 < to ? text.charCodeAt(i + 1) : 0;
      if (isLowerLetter(prev) || (isUpper(prev) && isLowerLetter(next))) {
        if (i - pieceStart > 1) this.counts.add(hashRange(text, pieceStart, i, 0), W_PIECE);
        pieceStart = i;
      }
    }
    if (pieceStart > from && to - pieceStart > 1) this.counts.add(hashRange(text, pieceStart, to, 0), W_PIECE);
    // Character 3-, 4- and 5-grams of `<token>`: one running hash per start, emitted at 3, 4, 5.
    // Short tokens are their own feature already; a long one gives the n-grams of its start.
    if (len < MIN_NGRAM_TOKEN) return;
    const grams = this.grams;
    const dim = this.dim;
    const marked = Math.min(len, MAX_NGRAM_TOKEN) + 2;
    if (len > MAX_NGRAM_TOKEN) buf[marked - 1] = 62;
    for (let s = 0; s + 3 <= marked; s++) {
      let g = FNV_OFFSET ^ NGRAM_SEED;
      const end = Math.min(s + 5, marked);
      for (let k = s; k < end; k++) {
        g = Math.imul(g ^ buf[k]!, FNV_PRIME);
        if (k - s >= 2) {
          const f = fmix32(g);
          grams[f % dim]! += f & 0x80000000 ? -1 : 1;
        }
      }
    }
  }
}

// --- openai ----------------------------------------------------------------------------------

/** Known output sizes; any other model's size is learned from one probe request. */
const KNOWN_DIMS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

export interface OpenAIEmbedderOptions {
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** Texts per request (default 128). */
  batchSize?: number;
  /** Characters of one text sent at most (default 8000, about 2000 tokens): chunks are small anyway. */
  maxChars?: number;
  /** An OpenAI client to use (tests point one at a local stand-in server). */
  client?: OpenAI;
}

function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  if (norm > 0 && Math.abs(norm - 1) > 1e-6) {
    const k = 1 / Math.sqrt(norm);
    for (let i = 0; i < v.length; i++) v[i]! *= k;
  }
  return v;
}

/**
 * Embeddings from an OpenAI-compatible server (`EMBEDDING_MODEL`), in batches, floats
 * requested explicitly (some compatible servers do not speak base64), re-normalised because
 * not every server returns unit vectors.
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  private readonly client: OpenAI;
  private readonly batchSize: number;
  private readonly maxChars: number;

  private constructor(
    private readonly options: OpenAIEmbedderOptions,
    readonly dim: number,
    client: OpenAI,
  ) {
    this.id = `openai:${options.model}`;
    this.client = client;
    this.batchSize = options.batchSize ?? 128;
    this.maxChars = options.maxChars ?? 8000;
  }

  /** An embedder whose `dim` is known: from the model name, or by embedding one probe text. */
  static async create(options: OpenAIEmbedderOptions, signal?: AbortSignal): Promise<OpenAIEmbedder> {
    const client =
      options.client ?? new OpenAI({ apiKey: options.apiKey ?? 'unused', baseURL: options.baseURL, maxRetries: 2 });
    const known = KNOWN_DIMS[options.model];
    if (known !== undefined) return new OpenAIEmbedder(options, known, client);
    const probe = new OpenAIEmbedder(options, 0, client);
    const [v] = await probe.request(['dimension probe'], signal);
    if (!v || v.length === 0) throw new Error(`The embeddings server returned no vector for model ${options.model}`);
    return new OpenAIEmbedder(options, v.length, client);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const vectors = await this.request(texts.slice(i, i + this.batchSize), signal);
      for (const v of vectors) {
        if (this.dim !== 0 && v.length !== this.dim) {
          throw new Error(`The embeddings server returned ${v.length} dimensions, expected ${this.dim}`);
        }
        out.push(v);
      }
    }
    return out;
  }

  private async request(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    // An empty input is refused by the API; a single space embeds as "nothing here".
    const input = texts.map((t) => (t.length > this.maxChars ? t.slice(0, this.maxChars) : t) || ' ');
    const response = await this.client.embeddings.create(
      { model: this.options.model, input, encoding_format: 'float' },
      { signal },
    );
    const vectors: Float32Array[] = new Array<Float32Array>(texts.length);
    for (const item of response.data) vectors[item.index] = normalise(Float32Array.from(item.embedding));
    for (let i = 0; i < texts.length; i++) {
      if (!vectors[i]) throw new Error(`The embeddings server returned no vector for input ${i}`);
    }
    return vectors;
  }
}

/** The embedder the configuration asks for (`EMBEDDINGS`). */
export async function createEmbedder(config: {
  embeddings: 'local' | 'openai';
  embeddingModel: string;
  openaiApiKey?: string | undefined;
  openaiBaseUrl?: string | undefined;
}): Promise<Embedder> {
  if (config.embeddings === 'local') return new LocalEmbedder();
  return OpenAIEmbedder.create({
    model: config.embeddingModel,
    apiKey: config.openaiApiKey,
    baseURL: config.openaiBaseUrl,
  });
}
