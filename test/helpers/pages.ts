// The checks every page passes in the browser tests, at a desktop and a phone width:
//   - axe-core finds no serious or critical accessibility violation (WCAG 2.x A/AA rules),
//   - the page does not scroll sideways,
//   - buttons and form fields are at least 44 px tall (touch targets),
//   - visually hidden text stays hidden,
// and a full-page screenshot of each width goes to test-results/screenshots/<name>-<width>.png
// for a person to look at. CI (CI=true) takes none, as no one looks at them there and they were a
// tenth of the page tests' time; SCREENSHOTS=1 takes them anyway, SCREENSHOTS=0 never.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');
export const WIDTHS = [1280, 390] as const;
const TAKE_SCREENSHOTS = process.env.SCREENSHOTS
  ? process.env.SCREENSHOTS === '1'
  : process.env.CI !== 'true';

/** Saves a screenshot of `page` as test-results/screenshots/<file>.png (unless screenshots are off). */
export async function screenshot(page: Page, file: string, fullPage = true): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${file}.png`), fullPage });
}

interface Findings {
  violations: { id: string; impact: string | null; help: string; targets: string[] }[];
  overflow: number;
  smallTargets: string[];
  visibleHidden: string[];
}

async function inspect(page: Page): Promise<Findings> {
  // page.evaluate runs through the DevTools protocol, so the page's CSP does not block axe.
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(AXE_SOURCE);
  // axe waits on timers, which never fire in a page whose context has script off
  // (javaScriptEnabled: false): say so rather than wait for ever (evaluate has no timeout).
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new Error('axe did not finish in 60 s: is script off in this page? check a page with script')),
      60_000,
    );
  });
  try {
    return await Promise.race([page.evaluate(INSPECT) as Promise<Findings>, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

// Runs in the page (plain JavaScript: the tests are compiled without the DOM's types).
const INSPECT = `(async () => {
  const result = await window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    resultTypes: ['violations'],
  });
  const describe = (el) =>
    el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.getAttribute('name') ? '[name=' + el.getAttribute('name') + ']' : '') +
    ' "' + (el.textContent || el.value || '').trim().slice(0, 30) + '"';
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden' &&
      !el.closest('.visually-hidden, .sr-only');
  };
  const small = [...document.querySelectorAll(
    'button, select, textarea, input:not([type=hidden]):not([type=checkbox]):not([type=radio]), .button',
  )].filter((el) => visible(el) && el.getBoundingClientRect().height < 43.5);
  const shown = [...document.querySelectorAll('.visually-hidden, .sr-only')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 1 || r.height > 1;
  });
  return {
    violations: result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    })),
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    smallTargets: small.map(describe),
    visibleHidden: shown.map(describe),
  };
})()`;

/**
 * Checks the page now open in `page` at 1280 and 390 px wide (the viewport is restored afterwards)
 * and saves its screenshots under `name`.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  try {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 });
      const found = await inspect(page);
      await screenshot(page, `${name}-${width}`);
      const serious = found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious, `${name} at ${width}px: axe violations`).toEqual([]);
      expect(found.overflow, `${name} at ${width}px: the page scrolls sideways`).toBeLessThanOrEqual(0);
      expect(found.smallTargets, `${name} at ${width}px: touch targets under 44px`).toEqual([]);
      expect(found.visibleHidden, `${name} at ${width}px: visually hidden text shows`).toEqual([]);
    }
  } finally {
    await page.setViewportSize(before);
  }
}
