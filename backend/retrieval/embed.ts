/**
 * Text embeddings behind one interface: `local` (offline, deterministic, in-process feature
 * hashing) and `openai` (any OpenAI-compatible embeddings endpoint). Every index records the
 * embedder's `id` and `dim`, so vectors of different embedders are never mixed.
 */
// Type only: the `openai` package (~70 ms to load) is imported when an OpenAI embedder is made,
// so a backend on the default local embedder never loads it (issue 31).
import type OpenAI from 'openai';

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
const STOP_WORDS = hashSet(
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
/** Stop words have at most this many characters: longer tokens skip the lookup. */
const MAX_STOP_WORD = 8;

/**
 * A set of 32-bit hashes as an open-addressing table (a JS Set of numbers above 2^30 hashes
 * heap numbers: several times slower on this path, run for every token).
 */
function hashSet(hashes: number[]): { has(h: number): boolean } {
  let size = 16;
  while (size < hashes.length * 4) size *= 2;
  const keys = new Int32Array(size);
  const used = new Uint8Array(size);
  const mask = size - 1;
  for (const h of hashes) {
    let i = fmix32(h) & mask;
    while (used[i] && keys[i] !== h) i = (i + 1) & mask;
    used[i] = 1;
    keys[i] = h;
  }
  return {
    has(h: number): boolean {
      let i = fmix32(h) & mask;
      while (used[i]) {
        if (keys[i] === h) return true;
        i = (i + 1) & mask;
      }
      return false;
    },
  };
}

/** Character kinds: 1 = letter or digit (any non-ASCII too), 2 = joins a term (`_ . - / $ #`). */
const KIND = new Uint8Array(128);
for (let c = 48; c <= 57; c++) KIND[c] = 1;
for (let c = 65; c <= 90; c++) KIND[c] = 1;
for (let c = 97; c <= 122; c++) KIND[c] = 1;
for (const ch of '_.-/$#') KIND[ch.charCodeAt(0)] = 2;
const kindOf = (c: number): number => (c < 128 ? KIND[c]! : 1);

/**
 * The dimension of a feature hash `f` (an unsigned 32-bit integer): `f % dim`, as a mask when
 * `dim` is a power of two (a modulo of a number above 2^31 is a floating-point division).
 */
const slotOf = (f: number, dim: number): number => ((dim & (dim - 1)) === 0 ? f & (dim - 1) : f % dim);

/** Math.log1p of 0..4095 (the n-gram sums of a chunk are small integers). */
const LOG1P = Float64Array.from({ length: 4096 }, (_, i) => Math.log1p(i));

/** Sublinear term frequency (1 + ln tf) that stays continuous for the fractional weights below 1. */
const sublinear = (x: number): number => (x <= 1 ? x : 1 + Math.log(x));

/**
 * Counts of hashed token features of one text: open addressing over typed arrays, cleared in
 * O(1) by a generation stamp, grown when a long text needs it.
 */
/**
 * An open-addressing table over typed arrays whose slots are cleared all at once by a
 * generation stamp: a slot is in use when its stamp is the current generation.
 */
abstract class StampedTable {
  stamps = new Uint32Array(0);
  used: number[] = [];
  protected generation = 0;

  constructor(private readonly minSize: number) {}

  /** Makes the arrays `size` slots long (empty). */
  protected abstract allocate(size: number): void;

  /** New empty arrays of `size` slots, stamps included. */
  protected resize(size: number): void {
    this.allocate(size);
    this.stamps = new Uint32Array(size);
  }

  /** Empties the table in O(1), large enough for `expected` keys at half load. */
  reset(expected: number): void {
    let size = this.minSize;
    while (size < expected * 2) size *= 2;
    if (size > this.stamps.length) {
      this.resize(size);
      this.generation = 0;
    }
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
    this.used.length = 0;
  }
}

class FeatureCounts extends StampedTable {
  keys = new Int32Array(0);
  values = new Float64Array(0);

  constructor() {
    super(1024);
  }

  protected allocate(size: number): void {
    this.keys = new Int32Array(size);
    this.values = new Float64Array(size);
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
    this.resize(this.keys.length * 2);
    this.generation = 1;
    this.used.length = 0;
    for (const [h, w] of entries) this.add(h, w);
  }
}

/**
 * The distinct tokens of one text that get character n-grams, with how often each occurs: a
 * log chunk repeats its words (`INFO`, `Downloading`, a package name on every line), and the
 * n-grams of a token are the same every time, so they are hashed once per distinct token and
 * added `count` times (integer sums: the vector is exactly the one of hashing every occurrence).
 * Keyed by the token's hash, checked character by character; cleared in O(1) like FeatureCounts.
 */
class DistinctTokens extends StampedTable {
  hashes = new Int32Array(0);
  from = new Int32Array(0);
  length = new Int32Array(0);
  count = new Int32Array(0);

  constructor() {
    super(256);
  }

  protected allocate(size: number): void {
    this.hashes = new Int32Array(size);
    this.from = new Int32Array(size);
    this.length = new Int32Array(size);
    this.count = new Int32Array(size);
  }

  /** Counts one occurrence of the token text[from, from + len) (lowercased), of hash `h`. */
  add(text: string, h: number, from: number, len: number): void {
    const mask = this.hashes.length - 1;
    let i = fmix32(h) & mask;
    for (;;) {
      if (this.stamps[i] !== this.generation) {
        this.stamps[i] = this.generation;
        this.hashes[i] = h;
        this.from[i] = from;
        this.length[i] = len;
        this.count[i] = 1;
        this.used.push(i);
        if (this.used.length * 2 > this.hashes.length) this.grow();
        return;
      }
      if (this.hashes[i] === h && this.length[i] === len && sameLowered(text, this.from[i]!, from, len)) {
        this.count[i]!++;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  private grow(): void {
    const entries = this.used.map((i) => [this.hashes[i]!, this.from[i]!, this.length[i]!, this.count[i]!] as const);
    const generation = this.generation;
    this.resize(this.hashes.length * 2);
    this.generation = Math.max(1, generation);
    this.used.length = 0;
    const mask = this.hashes.length - 1;
    for (const [h, from, len, count] of entries) {
      let i = fmix32(h) & mask;
      while (this.stamps[i] === this.generation) i = (i + 1) & mask;
      this.stamps[i] = this.generation;
      this.hashes[i] = h;
      this.from[i] = from;
      this.length[i] = len;
      this.count[i] = count;
      this.used.push(i);
    }
  }
}

/** True when text[a, a + len) and text[b, b + len) are equal lowercased. */
function sameLowered(text: string, a: number, b: number, len: number): boolean {
  if (a === b) return true;
  for (let k = 0; k < len; k++) if (lower(text.charCodeAt(a + k)) !== lower(text.charCodeAt(b + k))) return false;
  return true;
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
  private readonly distinct = new DistinctTokens();
  /** Hashes of the camelCase pieces of the current token. */
  private readonly pieces = new Int32Array(MAX_TERM);
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
    this.distinct.reset(Math.min(text.length >> 3, 1 << 20));
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
    const distinct = this.distinct;
    for (const slot of distinct.used) this.ngrams(text, distinct.from[slot]!, distinct.length[slot]!, distinct.count[slot]!);
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
      v[slotOf(f, dim)]! += f & 0x80000000 ? -value : value;
    }
    let tokenNorm = 0;
    for (let i = 0; i < dim; i++) tokenNorm += v[i]! * v[i]!;
    const grams = this.grams;
    let gramNorm = 0;
    for (let i = 0; i < dim; i++) {
      // The n-gram sums are integers: their log1p mostly comes from a table.
      const g = grams[i]!;
      const m = g < 0 ? -g : g;
      const l = m < LOG1P.length ? LOG1P[m]! : Math.log1p(m);
      const s = g < 0 ? -l : l;
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

  /**
   * Features of one term text[from, to): each alphanumeric token, then the compound whole
   * (hashed in the same pass over the characters).
   */
  private term(text: string, from: number, to: number): void {
    let compound = false;
    let start = -1;
    let whole = FNV_OFFSET;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      whole = Math.imul(whole ^ lower(c), FNV_PRIME);
      if (kindOf(c) === 1) {
        if (start < 0) start = i;
        continue;
      }
      compound = true;
      if (start >= 0) {
        this.tokenFeatures(text, start, i);
        start = -1;
      }
    }
    if (start >= 0) this.tokenFeatures(text, start, to);
    if (compound) this.counts.add(whole, W_COMPOUND);
  }

  /**
   * Features of one alphanumeric token, in one pass over its characters: the token, its
   * camelCase / HTTPServer pieces (letters followed by digits stay together: E0425, TS2345),
   * and its n-grams later (once per distinct token, see ngrams).
   */
  private tokenFeatures(text: string, from: number, to: number): void {
    const len = to - from;
    const pieces = this.pieces;
    let h = FNV_OFFSET;
    let piece = FNV_OFFSET;
    let pieceStart = from;
    let pieceCount = 0;
    let allDigits = true;
    let prev = 0;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) allDigits = false;
      if (
        i > from &&
        isUpper(c) &&
        (isLowerLetter(prev) || (isUpper(prev) && i + 1 < to && isLowerLetter(text.charCodeAt(i + 1))))
      ) {
        if (i - pieceStart > 1) pieces[pieceCount++] = piece;
        pieceStart = i;
        piece = FNV_OFFSET;
      }
      const l = lower(c);
      h = Math.imul(h ^ l, FNV_PRIME);
      piece = Math.imul(piece ^ l, FNV_PRIME);
      prev = c;
    }
    if (allDigits) {
      // Line numbers, durations and counters: little meaning on their own, and no n-grams.
      this.counts.add(h, W_NUMBER);
      return;
    }
    if (len <= MAX_STOP_WORD && STOP_WORDS.has(h)) {
      this.counts.add(h, W_STOP);
      return;
    }
    this.counts.add(h, W_TOKEN);
    for (let k = 0; k < pieceCount; k++) this.counts.add(pieces[k]!, W_PIECE);
    if (pieceStart > from && to - pieceStart > 1) this.counts.add(piece, W_PIECE);
    // Short tokens are their own feature already; longer ones also give character n-grams.
    if (len >= MIN_NGRAM_TOKEN) this.distinct.add(text, h, from, len);
  }

  /**
   * Character 3-, 4- and 5-grams of `<token>` (the token text[from, from + len) lowercased),
   * each added `times`: one running hash per start, emitted at 3, 4 and 5 characters. A long
   * token gives the n-grams of its start.
   */
  private ngrams(text: string, from: number, len: number, times: number): void {
    const buf = this.token;
    const capped = Math.min(len, MAX_NGRAM_TOKEN);
    buf[0] = 60; // <
    for (let k = 0; k < capped; k++) buf[k + 1] = lower(text.charCodeAt(from + k));
    const marked = capped + 2;
    buf[marked - 1] = 62; // >
    const grams = this.grams;
    const dim = this.dim;
    for (let s = 0; s + 3 <= marked; s++) {
      let g = FNV_OFFSET ^ NGRAM_SEED;
      const end = Math.min(s + 5, marked);
      for (let k = s; k < end; k++) {
        g = Math.imul(g ^ buf[k]!, FNV_PRIME);
        if (k - s >= 2) {
          const f = fmix32(g);
          grams[slotOf(f, dim)]! += f & 0x80000000 ? -times : times;
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
      options.client ?? new (await import('openai')).default({ apiKey: options.apiKey ?? 'unused', baseURL: options.baseURL, maxRetries: 2 });
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
