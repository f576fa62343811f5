import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, vi } from 'vitest';

/** Debian's Chromium with the flags this closed network needs (no background connections). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
}

export const baseUrl = () => inject('baseUrl');

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1360, height: 860 } });
  const page = await context.newPage();
  return { context, page };
}

export async function signInThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the API and stores the session the way the app does, before any page script runs. */
export async function signInByApi(context: BrowserContext, username: string, password: string) {
  const answer = await apiCall<{
    accessToken: string;
    refreshToken: string;
    userData: { userid: string };
    settings: unknown;
  }>('POST', '/api/login', { username, password });
  await context.addInitScript((session) => {
    if (sessionStorage.getItem('e2e-seeded')) return;
    sessionStorage.setItem('e2e-seeded', '1');
    localStorage.setItem('accessToken', session.accessToken);
    localStorage.setItem('refreshToken', session.refreshToken);
    localStorage.setItem('userData', JSON.stringify(session.userData));
    localStorage.setItem('settings', JSON.stringify(session.settings));
  }, answer);
  return answer;
}

export async function apiCall<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(baseUrl() + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; message: string; data: T };
  if (envelope.code !== 200) throw new Error(`${method} ${path}: ${envelope.code} ${envelope.message}`);
  return envelope.data;
}

let clientCounter = 0;
/** A fresh account with the built-in client role, created by the admin through the API. */
export async function createUser(role: string): Promise<{ username: string; password: string }> {
  const admin = await apiCall<{ accessToken: string }>('POST', '/api/login', {
    username: 'admin',
    password: inject('adminPassword'),
  });
  clientCounter += 1;
  const username = `${role}${clientCounter}${Date.now().toString(36)}`;
  const password = `pw-${username}-secret`;
  await apiCall(
    'POST',
    '/api/users',
    { username, email: `${username}@example.test`, role, password },
    admin.accessToken,
  );
  return { username, password };
}

/** Where browser tests leave screenshots (kept by CI as artefacts). */
export const artifactsDir = new URL('../artifacts/', import.meta.url).pathname;

/** Launches Chromium before the suite and closes it after; read `.browser` inside tests. */
export function useBrowser(): { browser: Browser } {
  const state = {} as { browser: Browser };
  beforeAll(async () => {
    mkdirSync(artifactsDir, { recursive: true });
    state.browser = await launchChromium();
  });
  afterEach(async ({ task }) => {
    const failed = task.result?.state === 'fail';
    for (const [c, context] of (state.browser?.contexts() ?? []).entries()) {
      if (failed) await reportPages(context, `${task.name.slice(0, 40)}-${c}`);
      await context.close();
    }
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return state;
}

/** What a failed test left on screen: each open page's address and text in the log, and a screenshot. */
async function reportPages(context: BrowserContext, label: string): Promise<void> {
  for (const [p, page] of context.pages().entries()) {
    const name = `failed-${label}-${p}`.replace(/[^\w-]+/g, '-');
    const text = await page
      .locator('body')
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what the test saw
      .innerText({ timeout: 2000 })
      .catch((e: unknown) => `(no text: ${String(e)})`);
    console.error(`--- ${name}: ${page.url()}\n${text.slice(0, 2000)}`);
    await page.screenshot({ path: `${artifactsDir}${name}.png`, fullPage: true }).catch(() => undefined);
  }
}

/**
 * Chooses an option of the open dialog's select labelled `label`, until the select shows it: a
 * click while the dialog still zooms in can land beside the dropdown, which moves with it.
 */
export async function chooseInDialog(page: Page, label: string, option: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  const dropdown = page.locator('.ant-select-dropdown:visible');
  for (let attempt = 1; ; attempt++) {
    if (!(await dropdown.isVisible())) await dialog.getByLabel(label).click();
    await dropdown.getByTitle(option, { exact: true }).click();
    try {
      await dialog.getByTitle(option, { exact: true }).waitFor({ timeout: 5000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** A report read again until its pipeline ends; the wait fails unless it ends in SUCCESS. */
export async function reportWhenDone<T extends { status: string }>(id: string, token: string): Promise<T> {
  let report: T | undefined;
  await vi.waitFor(
    async () => {
      report = await apiCall<T>('GET', `/api/getReport?reportId=${id}`, undefined, token);
      if (report.status !== 'SUCCESS' && !/FAIL/.test(report.status)) throw new Error(`still ${report.status}`);
      expect(report.status).toBe('SUCCESS');
    },
    { timeout: 180_000, interval: 1000 },
  );
  return report as T;
}

/** A fresh access token of the administrator (a sign-in through the API). */
export async function adminToken(): Promise<string> {
  const answer = await apiCall<{ accessToken: string }>('POST', '/api/login', {
    username: 'admin',
    password: inject('adminPassword'),
  });
  return answer.accessToken;
}
