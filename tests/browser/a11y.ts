/**
 * The accessibility scan of the browser tests: axe-core injected into the page, run with the
 * WCAG 2.0/2.1/2.2 A and AA rules (issue 24). A finding is reported with its rule, its help text
 * and the first elements it names, so a failing test says what to fix.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
let source: string | undefined;

/** axe-core's browser script, read once from the npm package. */
function axeSource(): string {
  source ??= readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  return source;
}

/** The WCAG levels scanned. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

/** One finding of the scan, short enough to read in a failed assertion. */
export interface A11yFinding {
  rule: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe-core on the page as it is now; returns its violations (none is the goal). */
export async function scanA11y(page: Page): Promise<A11yFinding[]> {
  const loaded = await page.evaluate(() => "axe" in globalThis);
  // Evaluated, not added as a <script>: the server's CSP (script-src 'self') blocks inline scripts.
  if (!loaded) await page.evaluate(axeSource());
  return await page.evaluate(async (tags) => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: tags } });
    // deno-lint-ignore no-explicit-any
    return result.violations.map((v: any) => ({
      rule: v.id,
      impact: v.impact ?? null,
      help: v.help,
      // deno-lint-ignore no-explicit-any
      targets: v.nodes.slice(0, 5).map((n: any) => n.target.join(" ")),
    }));
  }, WCAG_TAGS);
}
