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
