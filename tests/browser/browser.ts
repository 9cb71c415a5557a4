/**
 * Browser helpers for the end-to-end tests: Debian's Chromium driven by playwright-core.
 * Each test gets a new context (its own cookies and storage) from one shared browser.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

/** Flags from docs/design.md section 9. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Narrowest width that still shows the desktop menu; below it the drawer takes over. */
export const DESKTOP_VIEWPORT = { width: 1280, height: 800 };
/** A phone-sized window (under the 768 px breakpoint). */
export const MOBILE_VIEWPORT = { width: 500, height: 900 };

/**
 * Starts Chromium. `launch` gives every browser a fresh temporary user-data dir, removed on
 * close, so no profile state leaks between runs.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** A page in a fresh context whose relative URLs resolve against `baseURL`. */
export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Every console message of the page, in order. */
  console: string[];
}

/** Opens a new context and page; close it with `context.close()`. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<TestPage> {
  const context = await browser.newContext({
    baseURL,
    viewport: options.viewport ?? DESKTOP_VIEWPORT,
  });
  const page = await context.newPage();
  const console: string[] = [];
  page.on("console", (message) => console.push(message.text()));
  return { context, page, console };
}

/** Logs in through the login page like a user and waits until the home page shows. */
export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL("**/home");
  await page.getByRole("heading", { name: "Home", level: 1 }).waitFor();
}

/** A new page (as {@link newPage}) already logged in as `username` through the login page. */
export async function loggedInPage(
  browser: Browser,
  baseURL: string,
  username: string,
  password: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<TestPage> {
  const opened = await newPage(browser, baseURL, options);
  await logIn(opened.page, username, password);
  return opened;
}
