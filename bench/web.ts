import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PACKAGE_ROOT } from '../cli/services.js';
import { flag, freePort, summarize } from './lib.js';

/**
 * `npm run bench -- web [--runs 10] [--json]`: the web page's first load in headless Chromium.
 *
 * `cichat serve` (what `npm start` runs: backend and controller processes, the page built from
 * the sources, the demo chat of the seed home, answered once before measuring) on free ports and
 * a fresh DATA_DIR. Each run is a new browser context (empty cache) opening `/chats/<demo>`:
 * - bytes over the wire: every response's encoded size (compressed body + headers, from the
 *   DevTools protocol) until the chat is shown: the page's own files, and with the API answers;
 * - time to interactive: from navigation start to the chat rendered with its answer and the
 *   question box enabled (the page's `cichat:chat-ready` mark), and the main thread's blocking
 *   time (long tasks over 50 ms) until then;
 * - the baseline, measured in the same run the same way: navigating to the controller's
 *   `/chatbot-api/healthz` (one small JSON document: network, server and browser floor).
 * Needs /usr/bin/chromium (apt-get install chromium).
 */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

interface Load {
  ms: number;
  bytes: number;
  pageBytes: number;
  blockingMs: number;
}

async function startServe(dataDir: string): Promise<{ child: ChildProcess; url: string; demoChat: number }> {
  const port = await freePort();
  const backendPort = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(PACKAGE_ROOT, 'cli', 'main.ts'), '--json', 'serve', '--port', String(port), '--backend-port', String(backendPort)], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, TYPING_DELAY_MS: '0', LOG_LEVEL: 'warn', CICHAT_WATCH: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const banner = await new Promise<{ web: string; demo_chat: { chat_id: number } | null }>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.trim().startsWith('{'));
      if (line) {
        try {
          resolve(JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1)) as { web: string; demo_chat: { chat_id: number } | null });
        } catch {
          // the JSON is not complete yet
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`cichat serve exited (${code}): ${err.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`cichat serve did not start within 90 s: ${err.slice(-2000)}`)), 90_000).unref();
  });
  if (!banner.demo_chat) throw new Error('cichat serve made no demo chat');
  return { child, url: banner.web.replace(/\/$/, ''), demoChat: banner.demo_chat.chat_id };
}

/** One cold load of `url` in a new context; `ready` says when the page counts as loaded. */
async function load(browser: Browser, url: string, ready: (page: Page) => Promise<number>): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const urls = new Map<string, string>();
    let bytes = 0;
    let pageBytes = 0;
    cdp.on('Network.responseReceived', (e: { requestId: string; response: { url: string } }) => urls.set(e.requestId, e.response.url));
    cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
      bytes += e.encodedDataLength;
      if (!(urls.get(e.requestId) ?? '').includes('/chatbot-api/')) pageBytes += e.encodedDataLength;
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __blocking: number };
      w.__blocking = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__blocking += Math.max(0, e.duration - 50);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(url, { waitUntil: 'commit' });
    const ms = await ready(page);
    // Responses still arriving when the page was ready count too.
    await page.waitForLoadState('networkidle');
    const blockingMs = await page.evaluate(() => (window as unknown as { __blocking: number }).__blocking);
    return { ms, bytes, pageBytes, blockingMs };
  } finally {
    await context.close();
  }
}

export async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, 'runs') ?? 10);
  const json = args.includes('--json');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium is not installed at ${CHROMIUM}: apt-get install chromium`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-bench-web-'));
  const { child, url, demoChat } = await startServe(dataDir);
  let browser: Browser | undefined;
  try {
    // The demo chat with its answer, as a new user sees it after one question.
    const ask = await fetch(`${url}/chatbot-api/messages/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: demoChat, content: 'Why did the build fail?' }),
    });
    await ask.text();
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    const chatUrl = `${url}/chats/${demoChat}`;
    const chatReady = async (page: Page) => {
      await page.locator('.answer button.citation').first().waitFor({ timeout: 30_000 });
      await page.getByRole('textbox', { name: 'Your question' }).waitFor();
      return page.evaluate(() => performance.getEntriesByName('cichat:chat-ready')[0]?.startTime ?? NaN);
    };
    const baselineReady = async (page: Page) => {
      await page.waitForLoadState('load');
      return page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
        return nav ? nav.loadEventEnd || nav.responseEnd : NaN;
      });
    };
    // One warm-up of each (the browser's own start, the server's first requests), not counted.
    await load(browser, chatUrl, chatReady);
    await load(browser, `${url}/chatbot-api/healthz`, baselineReady);
    const page: Load[] = [];
    const base: Load[] = [];
    for (let i = 0; i < runs; i++) {
      page.push(await load(browser, chatUrl, chatReady));
      base.push(await load(browser, `${url}/chatbot-api/healthz`, baselineReady));
    }
    const tti = summarize(page.map((l) => l.ms).sort((a, b) => a - b));
    const floor = summarize(base.map((l) => l.ms).sort((a, b) => a - b));
    const blocking = summarize(page.map((l) => l.blockingMs).sort((a, b) => a - b));
    const result = {
      runs,
      load_average: os.loadavg()[0] ?? 0,
      page_bytes_compressed: Math.max(...page.map((l) => l.pageBytes)),
      total_bytes_with_api: Math.max(...page.map((l) => l.bytes)),
      tti_ms: { p50: tti.p50, p90: tti.p90, max: tti.max },
      baseline_ms: { p50: floor.p50, p90: floor.p90, max: floor.max },
      tti_over_baseline_p50: tti.p50 / floor.p50,
      blocking_ms: { p50: blocking.p50, max: blocking.max },
    };
    if (json) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    console.log(`web page first load, ${runs} cold runs in headless Chromium (load average ${result.load_average.toFixed(1)})`);
    console.log(`  bytes over the wire: page ${(result.page_bytes_compressed / 1024).toFixed(1)} kB (html + js + css, compressed, with headers); with the API answers ${(result.total_bytes_with_api / 1024).toFixed(1)} kB (target < 150 kB)`);
    console.log(`  time to interactive (/chats/${demoChat}, answer shown, box enabled): p50 ${tti.p50.toFixed(0)} ms, p90 ${tti.p90.toFixed(0)} ms, max ${tti.max.toFixed(0)} ms (target < 1000 ms)`);
    console.log(`  baseline (navigating to /chatbot-api/healthz): p50 ${floor.p50.toFixed(0)} ms, p90 ${floor.p90.toFixed(0)} ms; ratio p50 ${result.tti_over_baseline_p50.toFixed(1)}x`);
    console.log(`  main-thread blocking (long tasks beyond 50 ms) until then: p50 ${blocking.p50.toFixed(0)} ms, max ${blocking.max.toFixed(0)} ms`);
  } finally {
    await browser?.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
