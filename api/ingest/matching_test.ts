import assert from "node:assert/strict";
import type { MailRule } from "./feeds.ts";
import { chooseAttachment, fileTypes, ruleMatches } from "./matching.ts";

const rule: MailRule = {
  sourceId: 1,
  sourceName: "Stock",
  emailSourceId: 1,
  fromEmail: "Supplier@Example.test",
  subjectValue: "Stock Update",
  containsNotExact: false,
  attachmentName: "stock",
  fileType: "CSV",
  expectedAttachmentCount: null,
};

for (
  const [name, changes, from, subject, expected] of [
    ["exact subject, sender in another case", {}, "supplier@example.TEST", " stock update ", true],
    [
      "exact subject does not accept more text",
      {},
      "supplier@example.test",
      "Stock Update 2",
      false,
    ],
    [
      "contains accepts more text",
      { containsNotExact: true },
      "supplier@example.test",
      "Re: stock update 2",
      true,
    ],
    ["another sender", {}, "other@example.test", "Stock Update", false],
    [
      "one of several senders",
      { fromEmail: "a@x.test; supplier@example.test" },
      "supplier@example.test",
      "Stock Update",
      true,
    ],
    [
      "no sender configured matches nothing",
      { fromEmail: "" },
      "supplier@example.test",
      "Stock Update",
      false,
    ],
  ] as const
) {
  Deno.test(`ruleMatches: ${name}`, () => {
    assert.equal(ruleMatches({ ...rule, ...changes }, { from: [from], subject }), expected);
  });
}

const files = (...names: string[]) => names.map((filename) => ({ filename, size: 1 }));

for (
  const [name, attachmentName, fileType, names, expected] of [
    ["exact name wins over contains", "stock", "csv", ["my_stock.csv", "STOCK.csv"], {
      index: 1,
      kind: "exact name",
    }],
    ["exact name with extension", "stock.csv", "csv", ["a.csv", "stock.csv"], {
      index: 1,
      kind: "exact name",
    }],
    ["name contains", "stock", "csv", ["logo.png", "daily_stock_1.csv"], {
      index: 1,
      kind: "name contains",
    }],
    ["wildcard", "inv_*_2024.csv", "csv", ["inv.csv", "inv_03_2024.csv"], {
      index: 1,
      kind: "wildcard",
    }],
    ["type only when no name fits", "stock", "csv", ["logo.png", "other.csv", "more.csv"], {
      index: 1,
      kind: "type only",
    }],
    ["the type must fit", "stock", "xlsx", ["stock.csv"], null],
    ["any type when none is set", "stock", "", ["stock.pdf"], { index: 0, kind: "exact name" }],
    ["several types", "", "CSV, XLSX", ["a.pdf", "b.xlsx"], { index: 1, kind: "type only" }],
    ["no attachments", "stock", "csv", [], null],
    ["wildcard in another case", "INV_*.CSV", "csv", ["a.csv", "Inv_7.csv"], {
      index: 1,
      kind: "wildcard",
    }],
    ["a wildcard dot is a dot", "inv.*", "", ["invXcsv", "inv.csv"], {
      index: 1,
      kind: "wildcard",
    }],
  ] as const
) {
  Deno.test(`chooseAttachment: ${name}`, () => {
    assert.deepEqual(chooseAttachment({ attachmentName, fileType }, files(...names)), expected);
  });
}

Deno.test("chooseAttachment: a hostile wildcard against long names answers at once", () => {
  // Issue 28: as a regex this stalled the server 4.5 s (6 stars) and over 115 s (8 stars).
  const names = [`${"a".repeat(60)}.csv`, `${"a".repeat(240)}.csv`];
  for (const attachmentName of ["*a*a*a*a*a*a*b", "*a*a*a*a*a*a*a*a*b", "*a".repeat(60) + "*b"]) {
    const started = performance.now();
    const choice = chooseAttachment({ attachmentName, fileType: "csv" }, files(...names));
    const ms = performance.now() - started;
    assert.deepEqual(choice, { index: 0, kind: "type only" });
    assert.ok(ms < 500, `${attachmentName}: ${ms.toFixed(0)} ms`);
  }
});

Deno.test("fileTypes reads lists, dots and aliases", () => {
  assert.deepEqual(fileTypes("CSV, .xlsx"), ["csv", "xlsx"]);
  assert.deepEqual(fileTypes("Excel"), ["xls", "xlsx"]);
  assert.deepEqual(fileTypes(""), []);
});
