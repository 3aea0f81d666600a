import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { appendToJournal } from '../../src/memory/journal.js';
import { storePaths } from '../../src/memory/store-paths.js';
import { CHROMIUM } from '../support/ensure-chromium.mjs';
import { makeRepo, type Repo } from '../support/git-fixture.js';
import { useIsolatedGit } from '../support/isolated-git-suite.js';
import { runCliInProcess } from '../support/run-cli-in-process.js';
import { makeTempDir } from '../support/temp-dir.js';

/** Where screenshots go for a person to look at (git-ignored). */
const OUTPUT = resolve('test-output');
const HOSTILE_REASON = '</script><script>window.pwned = 1</script>';
const HOSTILE_FILE = 'src/<img src=x onerror=window.pwned=2>.ts';

const POLICY = [
  'version: 1',
  'budgets:',
  '  change:',
  '    warn: 40',
  '    block: 60',
  'forbidden_patterns:',
  '  god_class:',
  '    severity: error',
  '    max_loc: 30',
  '',
].join('\n');

function classWith(name: string, methods: number): string {
  const body = Array.from(
    { length: methods },
    (_, i) => `  m${i}(): number {\n    return ${i};\n  }`,
  );
  return `export class ${name} {\n${body.join('\n')}\n}\n`;
}

describe('aureus report in a browser', () => {
  useIsolatedGit();
  let repo: Repo & { remove(): Promise<void> };
  let profile: Awaited<ReturnType<typeof makeTempDir>>;
  let browser: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  const errors: string[] = [];
  let pageUrl: string;

  beforeAll(async () => {
    repo = await makeRepo('report-browser');
    const check = async (...args: string[]) =>
      (await runCliInProcess(['check', '--commit', 'HEAD', ...args], repo.dir)).code;
    repo.write('.aureus/policy.yaml', POLICY);
    repo.write('src/util.ts', 'export function twice(n: number): number {\n  return n * 2;\n}\n');
    repo.commit('base');
    expect(await check()).toBe(0);
    repo.write('src/big.ts', classWith('Big', 12));
    repo.commit('a god class');
    expect(await check('--override', HOSTILE_REASON)).toBe(0);
    repo.write(HOSTILE_FILE, 'export const hostile = 1;\n');
    repo.write('src/more.ts', 'export const more = [1, 2, 3].map((n) => n + 1);\n');
    repo.commit('two small files');
    expect(await check()).toBe(0);
    // The god class goes: the next check no longer finds what the one before it did, a fix.
    repo.git('rm', '--quiet', 'src/big.ts');
    repo.commit('drop the god class');
    expect(await check()).toBe(0);
    // What `aureus implement` appends after a run: its estimate, its actual cost, its spend.
    await appendToJournal(storePaths(repo.dir).ledger, {
      kind: 'builder-run',
      id: 'run-1',
      status: 'done',
      estimatedPoints: 40,
      points: 52,
      variance: 12,
      modelSpend: { calls: 3, inputTokens: 5000, outputTokens: 800, usd: 0.042 },
    });
    const html = join(repo.dir, 'report.html');
    const run = await runCliInProcess(['report', '--output', html], repo.dir);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    pageUrl = pathToFileURL(html).href;

    profile = await makeTempDir('chromium-profile');
    browser = await chromium.launchPersistentContext(profile.path, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    await browser.route('**/*', (route) => {
      const url = route.request().url();
      requests.push(url);
      return url === pageUrl ? route.continue() : route.abort();
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(pageUrl, { waitUntil: 'load' });
  });

  afterAll(async () => {
    await browser?.close();
    await profile?.remove();
    await repo?.remove();
  });

  /** Runs `expression` in the page (the test is type-checked without the DOM's types). */
  const inPage = <T>(expression: string): Promise<T> => page.evaluate<T>(expression);

  it('renders with no console error and asks for nothing but its own file', async () => {
    expect(errors).toEqual([]);
    expect(requests).toEqual([pageUrl]);
    expect(await inPage('document.documentElement.lang')).toBe('en');
  });

  it('runs no ledger string: a hostile reason and file name show as text', async () => {
    expect(await inPage('window.pwned')).toBeUndefined();
    const text = await inPage<string>('document.body.textContent');
    expect(text).toContain(HOSTILE_REASON);
    expect(text).toContain(HOSTILE_FILE);
    expect(await page.locator('img').count()).toBe(0);
  });

  it('draws every chart with data and labelled axes', async () => {
    const charts = await inPage<
      ChartSeen[]
    >(`[...document.querySelectorAll('[data-chart]')].map((chart) => {
      const canvas = chart.querySelector('canvas');
      let painted = 0;
      if (canvas !== null) {
        const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) painted += 1;
      }
      const axis = (name) =>
        chart.dataset[name + 'Label'] ?? chart.querySelector('[data-axis="' + name + '"]')?.textContent ?? '';
      return {
        id: chart.dataset.chart,
        kind: canvas === null ? 'svg' : 'canvas',
        points: Number(chart.dataset.points),
        painted,
        marks: chart.querySelectorAll('rect').length,
        x: axis('x'),
        y: axis('y'),
      };
    })`);
    expect(charts.map((chart) => chart.id)).toEqual([
      'r0-cost',
      'r0-core',
      'r0-rules',
      'r0-fixes',
      'r0-files',
      'r0-overrides',
      'r0-prediction',
      'r0-spend',
    ]);
    for (const chart of charts) {
      expect(chart.points).toBeGreaterThan(0);
      expect(chart.x).not.toBe('');
      expect(chart.y).not.toBe('');
      if (chart.kind === 'canvas') expect(chart.painted).toBeGreaterThan(1000);
      else expect(chart.marks).toBeGreaterThan(0);
    }
  });

  it('reaches every control by Tab, each with a visible focus ring', async () => {
    const controls = await inPage<number>(`(() => {
      const found = [...document.querySelectorAll('a[href], summary')];
      found.forEach((element, index) => { element.dataset.control = String(index); });
      return found.length;
    })()`);
    const reached = new Set<string>();
    for (let press = 0; press < controls + 2; press += 1) {
      await page.keyboard.press('Tab');
      const focus = await inPage<{ control: string | null; ring: boolean }>(`(() => {
        const element = document.activeElement;
        const style = getComputedStyle(element);
        return {
          control: element.dataset?.control ?? null,
          ring: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
        };
      })()`);
      if (focus.control === null) continue;
      expect(focus.ring).toBe(true);
      reached.add(focus.control);
    }
    expect(reached.size).toBe(controls);
    // A table behind a chart opens from the keyboard, and its scrolling region takes focus.
    await page.focus('summary');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await inPage("document.activeElement.getAttribute('role')")).toBe('region');
  });

  it('fits a desktop and a phone screen: screenshots for a person to look at', async () => {
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'report-1280x800.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await inPage('new Promise((done) => requestAnimationFrame(done))');
    expect(await inPage<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(OUTPUT, 'report-390x844.png'), fullPage: true });
  });
});

interface ChartSeen {
  readonly id: string;
  readonly kind: 'svg' | 'canvas';
  readonly points: number;
  readonly painted: number;
  readonly marks: number;
  readonly x: string;
  readonly y: string;
}
