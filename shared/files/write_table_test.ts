import assert from "node:assert/strict";
import fc from "fast-check";
import { readTable } from "./read_table.ts";
import { type CellValue, type WriteFormat, writeTable } from "./write_table.ts";
import { escapeFormula } from "./formula_escape.ts";
import { isBlankRow } from "./grid_rows.ts";
import { numberText } from "./xlsx_reader.ts";

Deno.test("formula-like text is escaped, plain numbers are not", () => {
  const cases: [string, string][] = [
    ["=SUM(A1:A2)", "'=SUM(A1:A2)"],
    ["+1+2", "'+1+2"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["\rcmd", "'\rcmd"],
    ["-5", "-5"],
    ["+1.5e3", "+1.5e3"],
    ["a=b", "a=b"],
    ["", ""],
  ];
  for (const [text, expected] of cases) {
    assert.equal(escapeFormula(text), expected, JSON.stringify(text));
  }
});

Deno.test("written files hold escaped formulas in every format", async () => {
  for (const format of ["csv", "xlsx", "xls"] as const) {
    const bytes = writeTable(["Item", "Note"], [["1", "=cmd|' /C calc'!A0"], ["2", "-5"]], format);
    const t = await readTable(bytes, { type: format, headerRow: 1 });
    assert.deepEqual(t.rows, [["1", "'=cmd|' /C calc'!A0"], ["2", "-5"]], format);
  }
});

/** What a cell value reads back as: the text the feeds receive. */
function expectedText(v: CellValue): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return escapeFormula(v);
  if (typeof v === "number") return numberText(v);
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  return v.toISOString().slice(0, 10);
}

// Characters XML 1.0 cannot hold at all, and lone surrogates, are not text a producer sends.
const text = fc.string({ unit: "grapheme", maxLength: 12 }).filter((s) =>
  // deno-lint-ignore no-control-regex -- these control characters are what the filter is about
  !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s)
);
const value: fc.Arbitrary<CellValue> = fc.oneof(
  text,
  text.map((s) => "00" + s.replace(/\D/g, "") + "7"),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.integer({ min: -1e8, max: 1e8 }).map((n) => n / 100),
  fc.date({ min: new Date("1901-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }).map((
    d,
  ) => new Date(d.toISOString().slice(0, 10))),
  fc.constant(null),
);

for (const format of ["csv", "xlsx", "xls"] as WriteFormat[]) {
  Deno.test(`property: a written ${format} reads back to the same table`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }).chain((width) =>
          fc.tuple(
            fc.uniqueArray(
              fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 8 }).filter((h) =>
                /^[A-Za-z][\w ]*[A-Za-z0-9]$|^[A-Za-z]$/.test(h)
              ),
              { minLength: width, maxLength: width, selector: (h) => h.trim().toLowerCase() },
            ),
            fc.array(fc.array(value, { minLength: width, maxLength: width }), { maxLength: 8 }),
          )
        ),
        async ([headers, rows]) => {
          const bytes = writeTable(headers, rows, format);
          const t = await readTable(bytes, { type: format, headerRow: 1 });
          const expected = rows.map((r) => r.map(expectedText)).filter((r) => !isBlankRow(r));
          assert.deepEqual(t.headers, headers);
          assert.deepEqual(t.rows, expected);
          assert.deepEqual(t.errors, []);
        },
      ),
      { numRuns: format === "csv" ? 200 : 60 },
    );
  });
}
