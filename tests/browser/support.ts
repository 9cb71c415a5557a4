/**
 * Page and set-up helpers shared by the browser tests: Radix select picks, the save button in
 * any of its states, an e-mail source saved over HTTP for the source pages to pick.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import type { TestClient } from "../support/http.ts";

/** Picks `option` in the Radix select labelled `label`. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** The edit pages' save button, whatever state (Save, Saving..., Saved!, Error) it shows. */
export const saveButton = (page: Page): Locator =>
  page.getByRole("button", { name: /^(Save|Saving\.\.\.|Saved!|Error - Try Again)$/ });

/** The path part of a URL. */
export const pathOf = (url: string): string => new URL(url).pathname;

/**
 * Saves an e-mail source (never polled: its servers point at a closed port) through the API and
 * returns its id and the name the source pages list it under (the first of the e-mail list).
 */
export async function saveOrderMailbox(
  admin: TestClient,
): Promise<{ mailboxId: number; mailboxName: string }> {
  const mailbox = await admin.post("/api/email-sources/email/save", {
    id: 0,
    username: "orders@example.test",
    email: "orders@example.test",
    password: "mailbox-secret",
    incomingServer: "127.0.0.1",
    outgoingServer: "127.0.0.1",
    incomingPort: 9,
    outgoingPort: 9,
    ssl: false,
    isMsal: false,
    msalClientId: "",
    msalTennentId: "",
  });
  assert.equal(mailbox.status, 200, JSON.stringify(mailbox.body));
  const pairs = (await admin.get("/api/email-sources/email-list")).body as {
    item1: string;
    item2: number;
  }[];
  return { mailboxName: pairs[0].item1, mailboxId: pairs[0].item2 };
}

/** Counts the requests to one path (`/api/...`, query aside) the page makes from now on. */
export function countRequests(page: Page, path: string): { count: number } {
  const counter = { count: 0 };
  page.on("request", (request) => {
    if (pathOf(request.url()) === path) counter.count++;
  });
  return counter;
}

/**
 * Starts timing, on the page's own clock, how long a button reads `text`. Call it before the
 * click; the returned function waits until the text has come and gone and gives the time in
 * between. Measured from the test process, a late `waitFor` on a loaded machine shortened a 3 s
 * reset to 1,878 ms. The page's own timers run late too when the machine is loaded (in CI, beside
 * the soak test, a 3 s reset took 4,446 ms), so a reference timer of `expectedMs`, started when
 * the text appears, measures that lateness and it is taken off the result.
 *
 * @example
 * const shown = await timeButtonText(page, "Saved!", 3000);
 * await saveButton(page).click();
 * assert.ok(Math.abs(await shown() - 3000) < 500);
 */
export async function timeButtonText(
  page: Page,
  text: string,
  expectedMs: number,
): Promise<() => Promise<number>> {
  type Times = { from?: number; to?: number; reference?: number };
  await page.evaluate(([label, expected]) => {
    const times: Times = {};
    (globalThis as unknown as { buttonTextTimes: Times }).buttonTextTimes = times;
    const showing = () =>
      [...document.querySelectorAll("button")].some((b) => b.textContent?.trim() === label);
    const observer = new MutationObserver(() => {
      if (times.from === undefined && showing()) {
        times.from = performance.now();
        setTimeout(() => times.reference = performance.now(), expected);
      } else if (times.from !== undefined && !showing()) {
        times.to = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, [text, expectedMs] as const);
  return async () => {
    const handle = await page.waitForFunction(
      () => {
        const t = (globalThis as unknown as { buttonTextTimes: Times }).buttonTextTimes;
        return t.to !== undefined && t.reference !== undefined && t;
      },
      undefined,
      { timeout: 15_000 },
    );
    const { from, to, reference } = await handle.jsonValue() as Required<Times>;
    const late = Math.max(0, reference - from - expectedMs);
    return to - from - late;
  };
}
