import assert from "node:assert/strict";
import { trimDescriptions, trimItemDescription } from "./description_trim.ts";
import { type OrderRow, SubmissionError } from "./vendor_split.ts";

for (
  const [description, pattern, expected] of [
    [" ABC-1 Hammer, steel ", "^[^,]+", "ABC-1 Hammer"],
    ["Widget (SKU 991)", "SKU (\\d+)", "991"],
    ["Plain", "\\d+", "Plain"], // no match: unchanged
    ["Plain ", "", "Plain"], // no pattern: only trimmed
    ["Item #  A-7 blue", "#\\s*(\\S+)", "A-7"],
    ["Gadget\u00a0- spare", "^(.+?)\\s-", "Gadget"], // JavaScript's \s takes the no-break space
    ["(x) y", "^\\(x\\)", "(x)"],
    ["  ", "^a", ""],
  ] as const
) {
  Deno.test(`trimItemDescription: ${JSON.stringify(pattern)} on ${JSON.stringify(description)}`, () => {
    assert.equal(trimItemDescription(description, pattern), expected);
  });
}

for (
  const [pattern, reason] of [
    ["(", /Invalid regular expression: missing closing \)/],
    ["(a)\\1", /Backreferences .* are not supported/],
    ["(?<=SKU )\\d+", /Lookahead and lookbehind .* are not supported/],
  ] as const
) {
  Deno.test(`trimItemDescription: stored pattern ${pattern} fails with a reason`, () => {
    assert.throws(() => trimItemDescription("anything", pattern), (error) => {
      assert.ok(error instanceof SubmissionError);
      assert.equal(error.code, "item_description_regex");
      assert.match(error.message, /^The vendor's item description regex ".*" cannot be used: /);
      assert.match(error.message, reason);
      assert.match(error.message, /Edit the vendor's regex/);
      return true;
    });
  });
}

const row = (n: number, description: string): OrderRow => ({
  rowNumber: n,
  cells: [`PO-${n}`, description],
  fields: { mapPo: `PO-${n}`, mapItemDescription: description },
  vendorName: "Acme",
});

Deno.test("trimDescriptions: trims every row only when the vendor wants it", async () => {
  const rows = [row(2, "Hammer, steel"), row(3, "Nails"), row(4, "")];
  const trimmed = await trimDescriptions(rows, {
    vendorWantsTrimmedItemDescription: true,
    vendorRegexForItemDescription: "^[^,]+",
  });
  assert.deepEqual(trimmed.map((r) => r.fields.mapItemDescription), ["Hammer", "Nails", ""]);
  assert.deepEqual(trimmed.map((r) => r.cells), rows.map((r) => r.cells), "cells unchanged");
  const off = await trimDescriptions(rows, {
    vendorWantsTrimmedItemDescription: false,
    vendorRegexForItemDescription: "(a)\\1",
  });
  assert.deepEqual(off, rows);
});

Deno.test("trimDescriptions: the hostile pattern of issue 28 on many rows keeps the loop free", async () => {
  // 400 descriptions of 29 a's and a "!" (59 s for four of them with JavaScript's RegExp).
  const rows = Array.from({ length: 400 }, (_, i) => row(i + 2, "a".repeat(29 + (i % 40)) + "!"));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const started = performance.now();
  const trimmed = await trimDescriptions(rows, {
    vendorWantsTrimmedItemDescription: true,
    vendorRegexForItemDescription: "^(a+)+$",
  });
  const ms = performance.now() - started;
  clearInterval(timer);
  assert.equal(trimmed[0].fields.mapItemDescription, "a".repeat(29) + "!"); // no match: kept
  assert.ok(ms < 5_000, `took ${ms.toFixed(0)} ms`);
  assert.ok(ms < 50 || ticks > 0, "other work ran while trimming");
});

Deno.test("trimDescriptions: past the time budget the vendor's part fails with a reason", async () => {
  const rows = Array.from({ length: 50 }, (_, i) => row(i + 2, "a".repeat(1_999) + "!"));
  const slow = "^(" + "a*".repeat(450) + ")$"; // linear, but ~50 ms a row of 2,000 characters
  await assert.rejects(
    trimDescriptions(rows, {
      vendorWantsTrimmedItemDescription: true,
      vendorRegexForItemDescription: slow,
    }, 1),
    (error) => {
      assert.ok(error instanceof SubmissionError);
      assert.equal(error.code, "item_description_regex_slow");
      assert.match(error.message, /took over 0 s \(1 of 50 rows\); simplify the regex\./);
      return true;
    },
  );
});
