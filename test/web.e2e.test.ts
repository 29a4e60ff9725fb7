/**
 * The web page in headless Chromium (Debian's `chromium`, driven by playwright-core) against the
 * real controller and backend (SQLite, the offline engine typing slowly enough to stop it):
 * a failed build written into a JENKINS_HOME is diagnosed by the watcher; the page lists it, opens
 * its chat, shows the diagnosis, a citation opens the log with the cited lines highlighted and the
 * file source opens the workspace file at its line; a question streams in and is stopped with
 * Esc, retried, edited; a log is uploaded by the file picker and by drag-and-drop (with
 * progress); the chat list renames and deletes (after confirming); the "new chat about a build"
 * form; in tokens mode a wrong token is refused. Markup in a log or an answer is never run, and
 * the page breaks no rule of its Content-Security-Policy. Screenshots of every page at 1280x800
 * and 390x844 (and dark) go to test-artifacts/web/.
 *
 * Chromium absent: skipped with a message, except under CI=true (.ci/run installs it), where it fails.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addToken } from '../controller/tokens.js';
import type { Chat, Page as ApiPage, QaPair, WatchedFailure } from '../protocol/types.js';
import { sqlite } from './helpers/databases.js';
import { startInProcessStack, type InProcessStack } from './helpers/inProcessStack.js';
import { until } from './helpers/poll.js';
import { makeHome, makeJob, writeBuild } from './helpers/watchHome.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const hasChromium = fs.existsSync(CHROMIUM);
// Under CI chromium is installed by .ci/run: its absence fails the run instead of skipping silently.
if (!hasChromium && (process.env.CI === 'true' || process.env.CI === '1')) throw new Error(`chromium is not installed at ${CHROMIUM} (.ci/run installs it)`);
if (!hasChromium) console.warn(`web.e2e: skipped: chromium is not installed at ${CHROMIUM} (apt-get install chromium)`);
const describeBrowser = hasChromium ? describe : describe.skip;

const ARTIFACTS = path.resolve('test-artifacts/web');
const SECRET = randomBytes(32).toString('hex');
const SIZES = [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** A log for the upload: the failure is on line 1203, with markup that must stay text. */
function uploadedLog(): { text: string; failLine: number } {
  const lines = Array.from({ length: 1200 }, (_, i) => `[INFO] compiling module ${i + 1} of 1200`);
  lines.push('<img src=x onerror="window.__pwned=1">', '<script>window.__pwned=2</script>');
  lines.push("src/main/c/parser.c:88:12: error: 'struct token' has no member named 'kind'");
  lines.push('make: *** [Makefile:42: parser.o] Error 1', 'Finished: FAILURE');
  return { text: `${lines.join('\n')}\n`, failLine: 1203 };
}

describeBrowser('the web page in Chromium', () => {
  let stack: InProcessStack;
  let tmp: string;
  let home: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const violations: string[] = [];
  const pageErrors: string[] = [];
  let failure: WatchedFailure;

  const api = async <T>(p: string, init?: RequestInit): Promise<T> => {
    const res = await fetch(`${stack.controller.url}/chatbot-api${p}`, init);
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };

  /** Screenshots of what the page shows now at both sizes (then back to the wide one). */
  async function shoot(name: string, p: Page = page): Promise<void> {
    for (const size of SIZES) {
      await p.setViewportSize({ width: size.width, height: size.height });
      await p.waitForTimeout(100);
      await p.screenshot({ path: path.join(ARTIFACTS, `${name}-${size.width}x${size.height}.png`) });
      // Nothing sticks out sideways at phone width either.
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(`${name} at ${size.width}px overflows by ${overflow}px`).toBe(`${name} at ${size.width}px overflows by 0px`);
    }
    await p.setViewportSize({ width: 1280, height: 800 });
  }

  /** Every control the page shows has an accessible name. */
  async function expectNamedControls(p: Page = page): Promise<void> {
    const unnamed = await p.evaluate(() => {
      const out: string[] = [];
      for (const el of Array.from(document.querySelectorAll('button, a[href], input, textarea, select, progress'))) {
        const e = el as HTMLElement & { labels?: NodeListOf<HTMLLabelElement> | null };
        const labelled = e.getAttribute('aria-labelledby');
        const name =
          e.getAttribute('aria-label') ||
          (labelled ? document.getElementById(labelled)?.textContent : '') ||
          (e.labels && e.labels.length > 0 ? e.labels[0]?.textContent : '') ||
          (e.tagName === 'INPUT' || e.tagName === 'TEXTAREA' ? '' : e.textContent) ||
          '';
        if (name.trim() === '') out.push(e.outerHTML.slice(0, 120));
      }
      return out;
    });
    expect(unnamed).toEqual([]);
  }

  /** The first highlighted line is scrolled into the viewer's box (at the width of the moment). */
  async function expectCitedInView(p: Page = page): Promise<void> {
    await p.waitForTimeout(100);
    const inView = await p.evaluate(() => {
      const row = document.querySelector('dialog[open] tr.cited');
      const box = row?.closest('.log');
      if (!row || !box) return 'no cited row';
      const r = row.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return r.top >= b.top && r.bottom <= b.bottom ? 'in view' : `row at ${r.top}-${r.bottom}, box ${b.top}-${b.bottom}`;
    });
    expect(inView).toBe('in view');
  }

  async function newPage(ctx: BrowserContext): Promise<Page> {
    const p = await ctx.newPage();
    p.on('pageerror', (e) => pageErrors.push(e.message));
    p.on('console', (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    await p.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`Refused to ${e.violatedDirective}: ${e.blockedURI}`));
    });
    return p;
  }

  beforeAll(async () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-web-e2e-'));
    home = path.join(tmp, 'home');
    makeHome(home);
    const job = makeJob(home, 'app');
    // The workspace file the diagnosis quotes (OrderTotalsTest.java:31, as in FAILING_LOG).
    const test = path.join(home, 'workspace', 'app', 'src', 'test', 'java', 'com', 'acme', 'OrderTotalsTest.java');
    fs.mkdirSync(path.dirname(test), { recursive: true });
    const lines = Array.from({ length: 40 }, (_, i) => `    // line ${i + 1}`);
    lines[30] = '        assertEquals(90.0, OrderTotals.total(100.0, 0.1), 0.001);';
    fs.writeFileSync(test, `${lines.join('\n')}\n`);
    writeBuild(job, { number: 1, result: 'SUCCESS' });
    stack = await startInProcessStack(sqlite, {
      dir: tmp,
      secret: SECRET,
      typingDelayMs: 40,
      controllerEnv: { CONTROLLER_USER: 'web-e2e', JENKINS_HOME: home, CICHAT_WATCH: 'on' },
    });
    await until('the first scan', () => ((stack.controller.watcher?.detector.stats.scans ?? 0) >= 1 ? true : undefined));
    writeBuild(job, { number: 2, result: 'FAILURE' });
    failure = await until(
      'the diagnosis of app #2',
      async () => (await api<{ items: WatchedFailure[] }>('/failures')).items.find((f) => f.chat_id !== null && f.build === 2),
      { timeoutMs: 30_000 },
    );
    // Listed once the diagnosis is stored; not opened yet, so unread (the API's GET of the chat would mark it read).
    expect(failure.unread).toBe(true);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await newPage(context);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  test('open a failure from the list, read the diagnosis, a citation opens the highlighted log lines, the file source opens the file', async () => {
    await page.goto(`${stack.controller.url}/failures`);
    const link = page.getByRole('link', { name: 'app #2', exact: true });
    await link.waitFor();
    expect(await page.getByRole('img', { name: 'unread' }).count()).toBe(1);
    await expect(page.locator('.failure .cause').first().textContent()).resolves.toBe(failure.cause);
    await expectNamedControls();
    await shoot('failures');

    await link.click();
    await page.waitForURL(`**/chats/${failure.chat_id}`);
    const answer = page.locator('.answer').first();
    await answer.getByText(/OrderTotalsTest/).first().waitFor();
    await expectNamedControls();
    await shoot('chat-diagnosis');

    // The citation: the log viewer opens with exactly the cited lines highlighted, context around.
    const citation = answer.locator('button.citation').first();
    const label = (await citation.textContent()) ?? '';
    const m = /L(\d+)(?:-L(\d+))?/.exec(label);
    expect(m).not.toBeNull();
    const start = Number(m?.[1]);
    const end = Number(m?.[2] ?? m?.[1]);
    await citation.click();
    const viewer = page.getByRole('dialog', { name: /Log line/ });
    await viewer.locator('tr.cited').first().waitFor();
    expect(await viewer.locator('tr.cited').count()).toBe(end - start + 1);
    expect(await viewer.locator('tr.cited th').first().textContent()).toBe(String(start));
    const stored = (await api<{ lines: { n: number; text: string }[] }>(`/context/${failure.chat_id}/log?from=${start}&to=${end}`)).lines;
    expect(await viewer.locator('tr.cited td').allTextContents()).toEqual(stored.map((l) => l.text));
    expect(await viewer.locator('tr').count()).toBeGreaterThan(end - start + 1);
    await expectNamedControls();
    await shoot('log-viewer');
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    // The workspace file of the answer's file source, at its lines.
    await page.getByRole('button', { name: /Open src\/test\/java\/com\/acme\/OrderTotalsTest\.java/ }).click();
    const file = page.getByRole('dialog', { name: /OrderTotalsTest\.java/ });
    await file.locator('tr.cited').first().waitFor();
    expect(await file.locator('tr.cited td').allTextContents()).toContain('        assertEquals(90.0, OrderTotals.total(100.0, 0.1), 0.001);');
    await shoot('file-viewer');
    await file.getByRole('button', { name: 'Close the file' }).click();

    // Opening the chat marked the failure read.
    await page.getByRole('link', { name: 'Failures' }).click();
    await page.getByRole('link', { name: 'app #2', exact: true }).waitFor();
    expect(await page.getByRole('img', { name: 'unread' }).count()).toBe(0);
  });

  test('a question streams in; Esc stops it; retry answers it again; edit replaces it', async () => {
    await page.goto(`${stack.controller.url}/chats/${failure.chat_id}`);
    const box = page.getByRole('textbox', { name: 'Your question' });
    await box.fill('Why did the build fail?');
    await box.press('Enter');
    // Streamed: the answer grows while it is busy.
    const live = page.locator('.answer[aria-busy="true"]');
    await live.waitFor();
    await until('a first piece', async () => (((await live.textContent()) ?? '').length > 20 ? true : undefined));
    const early = ((await live.textContent()) ?? '').length;
    await until('more pieces', async () => (((await live.textContent()) ?? '').length > early ? true : undefined));
    await shoot('chat-streaming');
    await page.getByRole('button', { name: 'Stop' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByText('Stopped before the end.').waitFor();
    const afterStop = await api<ApiPage<QaPair>>(`/chats/${failure.chat_id}`);
    expect(afterStop.items[0]?.answer?.status).toBe('interrupted');
    expect(afterStop.total_items).toBe(2);

    // Retry: the same question answered again to the end, as a new pair in place of the old.
    await page.getByRole('button', { name: 'Retry this answer', exact: true }).click();
    await page.locator('.answer[aria-busy="true"]').waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    await until('the retried answer stored', async () => {
      const pairs = await api<ApiPage<QaPair>>(`/chats/${failure.chat_id}`);
      return pairs.items[0]?.answer?.status === 'complete' && pairs.items[0].id !== afterStop.items[0]?.id ? pairs : undefined;
    });
    expect(await page.getByText('Stopped before the end.').count()).toBe(0);
    expect(await page.locator('.conversation > li.pair').count()).toBe(2);

    // Edit: the question is replaced and answered.
    await page.getByRole('button', { name: 'Edit the question', exact: true }).click();
    const edit = page.getByRole('textbox', { name: 'Edited question' });
    await edit.fill('Which test failed?');
    await edit.press('Enter');
    await page.locator('.question p', { hasText: 'Which test failed?' }).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    const edited = await until('the edited pair stored', async () => {
      const pairs = await api<ApiPage<QaPair>>(`/chats/${failure.chat_id}`);
      return pairs.items[0]?.question.content === 'Which test failed?' && pairs.items[0].answer?.status === 'complete' ? pairs : undefined;
    });
    expect(edited.total_items).toBe(2);
    expect(await page.locator('.question p', { hasText: /^Why did the build fail\?$/ }).count()).toBe(1);
    await expectNamedControls();
  });

  test('a log uploaded by the file picker (with progress) and by drag-and-drop; its markup stays text', async () => {
    const { text, failLine } = uploadedLog();
    await page.goto(`${stack.controller.url}/new`);
    await page.getByRole('textbox', { name: 'Title (optional)' }).fill('uploaded log');
    await expectNamedControls();
    await shoot('new-chat');
    await page.getByRole('button', { name: 'Start chat' }).click();
    await page.waitForURL(/\/chats\/\d+$/);
    const chatId = Number(/\/chats\/(\d+)$/.exec(page.url())?.[1]);
    await page.getByText('No job: upload a build log').waitFor();

    // The picker: progress shows while the controller reads and stores it.
    await page.evaluate(() => {
      (window as unknown as { __sawProgress: boolean }).__sawProgress = false;
      new MutationObserver(() => {
        if (document.querySelector('progress')) (window as unknown as { __sawProgress: boolean }).__sawProgress = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByLabel('Choose a build log to upload').setInputFiles({ name: 'build.log', mimeType: 'text/plain', buffer: Buffer.from(text.repeat(20)) });
    await page.getByText('Uploaded build.log').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { __sawProgress: boolean }).__sawProgress)).toBe(true);
    // A log without a job is said as such, not as "no job: upload a build log" (ux3, session 42).
    await page.getByText('A build log without a job, uploaded').waitFor();

    // Drag-and-drop: the short log replaces it.
    const dataTransfer = await page.evaluateHandle((content) => {
      const dt = new DataTransfer();
      dt.items.add(new File([content], 'dropped.log', { type: 'text/plain' }));
      return dt;
    }, text);
    await page.dispatchEvent('section.chat', 'dragover', { dataTransfer });
    await page.getByText('Drop the build log to upload it').waitFor();
    await shoot('upload-drop');
    await page.dispatchEvent('section.chat', 'drop', { dataTransfer });
    await page.getByText('Uploaded dropped.log').waitFor({ timeout: 30_000 });
    expect((await api<{ total_lines: number }>(`/context/${chatId}/log?from=1&to=1`)).total_lines).toBe(1205);
    // The file goes as the raw body (any size, issue 28): a gzip file as it is, decoded by the backend;
    // a blank one is refused with the backend's reason and the chat keeps its log.
    await page.getByLabel('Choose a build log to upload').setInputFiles({ name: 'build.log.gz', mimeType: 'application/gzip', buffer: gzipSync(Buffer.from(text)) });
    await page.getByText('Uploaded build.log.gz').waitFor({ timeout: 30_000 });
    expect((await api<{ total_lines: number }>(`/context/${chatId}/log?from=1&to=1`)).total_lines).toBe(1205);
    await page.getByLabel('Choose a build log to upload').setInputFiles({ name: 'blank.log', mimeType: 'text/plain', buffer: Buffer.from('\n  \n') });
    await page.getByText(/blank\.log.*(empty|blank|no log)/i).or(page.getByRole('alert').filter({ hasText: /empty|blank|no log/i })).first().waitFor({ timeout: 30_000 });
    expect((await api<{ total_lines: number }>(`/context/${chatId}/log?from=1&to=1`)).total_lines).toBe(1205);

    await page.getByRole('button', { name: 'Why did the build fail?' }).click();
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    const answer = page.locator('.answer').last();
    await answer.getByText(/parser\.c/).first().waitFor();
    // A citation of the failing line: the viewer shows it highlighted, the markup lines as text.
    const citation = answer.locator('button.citation', { hasText: new RegExp(`L${failLine}\\b|L\\d+-L\\d+`) }).first();
    await citation.click();
    const viewer = page.getByRole('dialog', { name: /Log line/ });
    await viewer.locator('tr.cited').first().waitFor();
    await expectCitedInView();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Close the log' }).click();
    await citation.click();
    await viewer.locator('tr.cited').first().waitFor();
    await expectCitedInView();
    await page.setViewportSize({ width: 1280, height: 800 });
    const rows = await viewer.locator('tr').allTextContents();
    expect(rows.some((r) => r.includes('<img src=x onerror="window.__pwned=1">'))).toBe(true);
    expect(rows.some((r) => r.includes('<script>window.__pwned=2</script>'))).toBe(true);
    expect(await viewer.locator('tr.cited td').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("has no member named 'kind'")]));
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('img[src="x"], main script').count()).toBe(0);
    await shoot('upload-citation');
    await page.keyboard.press('Escape');
  });

  test('chat list: job and build columns, rename, delete only after confirming', async () => {
    await page.goto(`${stack.controller.url}/chats`);
    const row = page.locator('tr', { hasText: 'app #2 failed' });
    await row.waitFor();
    expect(await row.locator('td[data-label="Job"]').textContent()).toBe('app');
    expect(await row.locator('td[data-label="Build"]').textContent()).toBe('#2');
    await expectNamedControls();
    await shoot('chats');

    await page.getByRole('button', { name: 'Rename uploaded log' }).click();
    const input = page.getByRole('textbox', { name: 'New title for uploaded log' });
    await input.fill('parser failure');
    await input.press('Enter');
    await page.getByRole('link', { name: 'parser failure' }).waitFor();

    await page.getByRole('button', { name: 'Delete parser failure' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete "parser failure"?' });
    await dialog.waitFor();
    await shoot('chats-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByRole('link', { name: 'parser failure' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Delete parser failure' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('link', { name: 'parser failure' }).waitFor({ state: 'detached' });
    const chats = await api<ApiPage<Chat>>('/chats/?limit=100');
    expect(chats.items.map((c) => c.title)).not.toContain('parser failure');
  });

  test('a new chat about a job and build; an unknown job is refused with the reason', async () => {
    await page.goto(`${stack.controller.url}/new`);
    await page.getByRole('textbox', { name: 'Job' }).fill('nope/nothing');
    await page.getByRole('button', { name: 'Start chat' }).click();
    await page.getByRole('alert').getByText(/No job nope\/nothing/).waitFor();
    const before = (await api<ApiPage<Chat>>('/chats/?limit=100')).total_items;

    await page.getByRole('textbox', { name: 'Job' }).fill('app');
    await page.getByRole('textbox', { name: 'Build number' }).fill('2');
    await page.getByRole('button', { name: 'Start chat' }).click();
    await page.waitForURL(/\/chats\/\d+$/);
    await page.getByRole('heading', { name: 'app #2' }).waitFor();
    await page.locator('.about', { hasText: 'app #2' }).waitFor();
    expect((await api<ApiPage<Chat>>('/chats/?limit=100')).total_items).toBe(before + 1);
  });

  test('dark theme follows the system; the page keeps to 360 px', async () => {
    const dark = await browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme: 'dark' });
    try {
      const p = await newPage(dark);
      await p.goto(`${stack.controller.url}/chats/${failure.chat_id}`);
      await p.locator('.answer').first().waitFor();
      const bg = await p.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg).toBe('rgb(22, 24, 28)');
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await p.screenshot({ path: path.join(ARTIFACTS, 'chat-dark-360x740.png') });
    } finally {
      await dark.close();
    }
  });
});

describeBrowser('the web page in tokens mode', () => {
  let stack: InProcessStack;
  let tmp: string;
  let browser: Browser;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-web-tokens-'));
    const tokens = path.join(tmp, 'tokens');
    await addToken(tokens, 'dana');
    stack = await startInProcessStack(sqlite, {
      dir: tmp,
      secret: SECRET,
      controllerEnv: { CONTROLLER_AUTH: 'tokens', CONTROLLER_TOKENS_FILE: tokens, JENKINS_HOME: path.resolve('seeds/jenkins-home') },
    });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('asks for the token, refuses a wrong one, keeps a right one for the tab session only', async () => {
    const token = await addToken(path.join(tmp, 'tokens'), 'erin');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/chatbot-api/')) sent.push(r.headers().authorization ?? '');
    });
    await page.goto(`${stack.controller.url}/chats`);
    const field = page.getByLabel('Token');
    await field.waitFor();
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.screenshot({ path: path.join(ARTIFACTS, `sign-in-${size.width}x${size.height}.png`) });
    }
    await field.fill('cichat_wrong-token-000000000000000000000000000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').getByText('This token was refused by the controller.').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('cichat-token'))).toBeNull();

    await field.fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Chats' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('cichat-token'))).toBe(token);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(sent.at(-1)).toBe(`Bearer ${token}`);
    // A reload in the same tab stays signed in; a new tab (a new session) asks again.
    await page.reload();
    await page.getByRole('heading', { name: 'Chats' }).waitFor();
    const other = await browser.newContext();
    const fresh = await other.newPage();
    await fresh.goto(`${stack.controller.url}/chats`);
    await fresh.getByLabel('Token').waitFor();
    await other.close();
    await context.close();
  });
});
