import type { Browser } from 'playwright-core';

/**
 * A real headless Chromium from npm alone: @sparticuz/chromium's binary (decompressed into the
 * temp folder on first use, ~2 s) driven by playwright-core. Its `--single-process` argument is
 * left out: with it, closing a browser context that had a page kills the browser.
 */
export async function launchBrowser(): Promise<Browser> {
  const { default: chromium } = await import('@sparticuz/chromium');
  const { chromium: playwright } = await import('playwright-core');
  const executablePath = await chromium.executablePath();
  return playwright.launch({ executablePath, args: chromium.args.filter((a: string) => a !== '--single-process'), headless: true });
}
