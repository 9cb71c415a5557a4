import assert from "node:assert/strict";
import { globMatch } from "./glob.ts";

/** What the wildcard regex (`*` → `.*`, the rest literal, whole name, `i`) answered. */
function oldWildcard(pattern: string, name: string): boolean {
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(".*")}$`, "i").test(name);
}

const ORDINARY: [string, string, boolean][] = [
  ["orders_*.csv", "orders_2026-11-24.csv", true],
  ["orders_*.csv", "orders_.csv", true],
  ["orders_*.csv", "orders_2026.xlsx", false],
  ["*stock*", "Daily STOCK report.xlsx", true],
  ["*.xlsx", "report.xlsx", true],
  ["*.xlsx", "report.xlsx.pdf", false],
  ["stock*", "stock", true],
  ["*", "", true],
  ["*", "anything at all", true],
  ["**", "x", true],
  ["a*b*c", "abc", true],
  ["a*b*c", "aXbYc", true],
  ["a*b*c", "acb", false],
  ["a*a", "a", false],
  ["*a*a", "aa", true],
  ["file(1)?.csv", "file(1)?.csv", true], // only `*` is special
  ["file(1)?.csv", "file(1)x.csv", false],
  ["price[eu]*", "price[eu] list", true],
  ["[a-z]*", "b", false],
  ["report.*", "report_csv", false], // the dot is a dot
  ["Report*.CSV", "report 7.csv", true],
  ["", "", true],
  ["", "x", false],
];

for (const [pattern, name, expected] of ORDINARY) {
  Deno.test(`globMatch: ${JSON.stringify(pattern)} on ${JSON.stringify(name)}`, () => {
    assert.equal(globMatch(pattern, name, { ignoreCase: true }), expected);
    assert.equal(oldWildcard(pattern, name), expected, "the regex it replaces answered the same");
  });
}

Deno.test("globMatch: case matters unless ignoreCase", () => {
  assert.equal(globMatch("Stock*", "stock.csv"), false);
  assert.equal(globMatch("Stock*", "stock.csv", { ignoreCase: true }), true);
});

// Issue 28: `*a*a*a*a*a*a*b` against a 60-character name stalled the server 4.5 s as a regex;
// with 8 stars it had not finished after 115 s.
const HOSTILE: [string, string][] = [
  ["*a*a*a*a*a*a*a*a*b", "a".repeat(60)],
  ["*a*a*a*a*a*a*b", "a".repeat(60) + ".csv"],
  ["*a".repeat(100) + "*b", "a".repeat(255)],
  ["*" + "a*".repeat(99), "a".repeat(98)],
];

for (const [pattern, name] of HOSTILE) {
  Deno.test(`globMatch: ${pattern.slice(0, 24)} on ${name.length} characters is quick`, () => {
    const started = performance.now();
    const matched = globMatch(pattern, name, { ignoreCase: true });
    const ms = performance.now() - started;
    assert.equal(matched, false);
    assert.ok(ms < 500, `took ${ms.toFixed(0)} ms`);
  });
}
