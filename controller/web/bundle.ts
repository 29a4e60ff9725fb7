/**
 * The web page's files (issue 30): `index.html`, one JavaScript bundle and one style sheet,
 * built from `web/` with esbuild. A compiled package ships them built (`npm run build` writes
 * `dist/web-page/`); from the sources (`npm start`, tests) they are built in memory on the
 * controller's first need and kept, so there is no extra step and nothing can be stale.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface WebAsset {
  /** The URL path it is served at, e.g. `/assets/app.3f2a9c1e.js`. */
  path: string;
  type: string;
  body: Buffer;
}

export interface WebAssets {
  index: WebAsset;
  /** The script and the style sheet, named by their content's hash (cached for a year). */
  files: WebAsset[];
  /** Where they came from: `built` (dist/web-page) or `sources` (built now with esbuild). */
  origin: 'built' | 'sources';
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The folder `npm run build` writes (dist/web-page, beside dist/controller). */
export const BUILT_DIR = path.resolve(here, '../../web-page');
/** The page's sources (web/ at the repository root). */
export const SOURCE_DIR = path.resolve(here, '../../web');

const MANIFEST = 'manifest.json';

function hashed(name: string, ext: string, body: Buffer): string {
  return `/assets/${name}.${createHash('sha256').update(body).digest('hex').slice(0, 12)}.${ext}`;
}

/** The HTML shell: no inline script or style, so the page works under `script-src 'self'`. */
export function indexHtml(scriptPath: string, stylePath: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<title>cichat</title>',
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="${stylePath}">`,
    `<script type="module" src="${scriptPath}"></script>`,
    '</head>',
    '<body>',
    '<div id="root"><noscript>cichat needs JavaScript to show chats and diagnoses.</noscript></div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Builds the bundle and the style sheet from `sourceDir` with esbuild (minified, no source map). */
export async function buildFromSources(sourceDir = SOURCE_DIR): Promise<WebAssets> {
  // Imported here only: a compiled package serves the built files and never needs esbuild.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(sourceDir, 'main.tsx')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome111', 'firefox115', 'safari16'],
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    outdir: '/out',
    tsconfig: path.join(sourceDir, 'tsconfig.json'),
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  if (!js) throw new Error('esbuild produced no JavaScript for the web page');
  const css = fs.readFileSync(path.join(sourceDir, 'app.css'));
  const script: WebAsset = { path: hashed('app', 'js', Buffer.from(js.contents)), type: 'text/javascript; charset=utf-8', body: Buffer.from(js.contents) };
  const style: WebAsset = { path: hashed('app', 'css', css), type: 'text/css; charset=utf-8', body: css };
  const index: WebAsset = { path: '/', type: 'text/html; charset=utf-8', body: Buffer.from(indexHtml(script.path, style.path)) };
  return { index, files: [script, style], origin: 'sources' };
}

/** Writes built assets to `dir` (what `npm run build` ships), with a manifest of their paths. */
export function writeAssets(assets: WebAssets, dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  const manifest = [assets.index, ...assets.files].map((a) => ({ path: a.path, type: a.type, file: a.path === '/' ? 'index.html' : a.path.slice(1) }));
  for (const [i, a] of [assets.index, ...assets.files].entries()) fs.writeFileSync(path.join(dir, manifest[i]!.file), a.body);
  fs.writeFileSync(path.join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Reads assets written by writeAssets; undefined when `dir` holds none. */
export function readBuiltAssets(dir = BUILT_DIR): WebAssets | undefined {
  let manifest: { path: string; type: string; file: string }[];
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  const all = manifest.map((m) => ({ path: m.path, type: m.type, body: fs.readFileSync(path.join(dir, m.file)) }));
  const index = all.find((a) => a.path === '/');
  if (!index) return undefined;
  return { index, files: all.filter((a) => a !== index), origin: 'built' };
}

let loaded: Promise<WebAssets> | undefined;

/**
 * The built files when the package ships them, else the sources built now; once per process
 * (every controller a process starts shares them). A failed build is tried again next time.
 */
export function loadWebAssets(): Promise<WebAssets> {
  loaded ??= (async () => readBuiltAssets() ?? buildFromSources())().catch((err: unknown) => {
    loaded = undefined;
    throw err;
  });
  return loaded;
}

// `tsx controller/web/bundle.ts <out-dir>` (npm run build): writes the built page.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: tsx controller/web/bundle.ts <out-dir>');
    process.exit(2);
  }
  const assets = await buildFromSources();
  writeAssets(assets, path.resolve(out));
  console.error(`web page written to ${out}: ${assets.files.map((f) => `${f.path} ${f.body.length} B`).join(', ')}`);
}
