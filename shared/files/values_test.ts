import assert from "node:assert/strict";
import { excelSerialToIso, parseDate, parseItemNumber, parseNumber } from "./values.ts";

Deno.test("parseNumber reads the forms numbers take in supplier files", () => {
  const cases: [string, boolean, number | string][] = [
    ["5", false, 5],
    [" 5 ", false, 5],
    ["1,234", false, 1234],
    ["1,234,567.89", false, 1234567.89],
    ["12.0", false, 12],
    ["-3.5", false, -3.5],
    ["(42)", false, -42],
    ["$1,250.00", false, 1250],
    ["15%", false, 15],
    ["1.5e3", false, 1500],
    ["2,5", true, 2.5],
    ["1.234,50", true, 1234.5],
    ["1 234,5", true, 1234.5],
    ["7", true, 7],
    ["", false, "empty"],
    ["   ", false, "empty"],
    ["N/A", false, "not_available"],
    ["#N/A", false, "not_available"],
    ["none", false, "not_available"],
    ["-", false, "not_available"],
    ["12abc", false, "invalid"],
    ["1,23", false, "invalid"],
    ["1.2.3", false, "invalid"],
    ["2.5", true, "invalid"],
  ];
  for (const [text, decimalComma, expected] of cases) {
    const got = parseNumber(text, { decimalComma });
    if (typeof expected === "number") assert.deepEqual(got, { ok: true, value: expected }, text);
    else {assert.equal(
        !got.ok && got.reason,
        expected,
        `${JSON.stringify(text)} → ${JSON.stringify(got)}`,
      );}
  }
});

Deno.test("parseDate reads ISO, US and Excel serial dates and refuses impossible ones", () => {
  const cases: [string, string | null][] = [
    ["2024-03-05", "2024-03-05"],
    ["2024-3-5", "2024-03-05"],
    ["2024-03-05T14:30:00Z", "2024-03-05T14:30:00"],
    ["2024-03-05 00:00:00", "2024-03-05"],
    ["3/5/2024", "2024-03-05"],
    ["03/05/24", "2024-03-05"],
    ["12/31/99", "1999-12-31"],
    ["3/5/2024 2:30 PM", "2024-03-05T14:30:00"],
    ["45356", "2024-03-05"],
    ["45356.5", "2024-03-05T12:00:00"],
    ["2/29/2024", "2024-02-29"],
    ["2024/03/05", "2024-03-05"],
    ["2024.3.5 08:15", "2024-03-05T08:15:00"],
    ["5-Mar-2024", "2024-03-05"],
    ["05-mar-24", "2024-03-05"],
    ["5 March 2024", "2024-03-05"],
    ["5-Sept-2024", "2024-09-05"],
    ["Mar 5, 2024", "2024-03-05"],
    ["March 5th 2024", "2024-03-05"],
    ["Tue, Mar 5, 2024 4:05 pm", "2024-03-05T16:05:00"],
    ["20240305", "2024-03-05"],
    ["20241305", null],
    ["5-Mrz-2024", null],
    ["Feb 30, 2024", null],
    ["5 May", null],
    ["2/29/2023", null],
    ["13/1/2024", null],
    ["2024-02-30", null],
    ["yesterday", null],
    ["0", null],
  ];
  for (const [text, expected] of cases) {
    const got = parseDate(text);
    assert.deepEqual(
      got,
      expected === null ? { ok: false, reason: "invalid", text } : { ok: true, value: expected },
      text,
    );
  }
  assert.equal(parseDate("N/A").ok, false);
});

Deno.test("Excel serials follow Excel's calendar, including the 1904 system", () => {
  assert.equal(excelSerialToIso(1), "1900-01-01");
  assert.equal(excelSerialToIso(59), "1900-02-28");
  assert.equal(excelSerialToIso(60), "1900-02-29");
  assert.equal(excelSerialToIso(61), "1900-03-01");
  assert.equal(excelSerialToIso(45356), "2024-03-05");
  assert.equal(excelSerialToIso(0, true), "1904-01-01");
  assert.equal(excelSerialToIso(43894, true), "2024-03-05");
});

Deno.test("item numbers stay text; leading zeros go only when asked", () => {
  assert.deepEqual(parseItemNumber(" 00123 "), { ok: true, value: "00123" });
  assert.deepEqual(parseItemNumber("00123", true), { ok: true, value: "123" });
  assert.deepEqual(parseItemNumber("000", true), { ok: true, value: "0" });
  assert.deepEqual(parseItemNumber("00A7", true), { ok: true, value: "A7" });
  assert.equal(parseItemNumber("").ok, false);
});
