import assert from "node:assert/strict";
import { isActiveByQuantity, statusLists, statusVerdict } from "./rules.ts";
import { itemKey, parseCatalogue, parseItemList, parseStatusList } from "./items.ts";

Deno.test("active rule: at least the minimum, or above 0 when unset", () => {
  const cases: [number, number | null, boolean][] = [
    [0, null, false],
    [0.5, null, true],
    [1, null, true],
    [-3, null, false],
    [4, 5, false],
    [5, 5, true],
    [6, 5, true],
    [0, 0, true],
  ];
  for (const [qty, min, want] of cases) {
    assert.equal(isActiveByQuantity(qty, min), want, `${qty} with minimum ${min}`);
  }
});

Deno.test("status verdicts: trimmed, case-insensitive, available wins, else the quantity rule", () => {
  const lists = statusLists(" In Stock, Available ,,", "out of stock,DISCONTINUED, available");
  const cases: [string, string | null][] = [
    ["in stock", "available"],
    ["  AVAILABLE ", "available"],
    ["Discontinued", "out_of_stock"],
    ["Out Of Stock", "out_of_stock"],
    ["backorder", null],
    ["", null],
    ["   ", null],
  ];
  for (const [status, want] of cases) assert.equal(statusVerdict(status, lists), want, status);
  assert.deepEqual([...parseStatusList(" a, B ,,c ")], ["a", "b", "c"]);
  assert.equal(parseStatusList(null).size, 0);
});

Deno.test("item keys: trimmed first, then leading zeros stripped when asked", () => {
  const cases: [string, boolean, string][] = [
    ["00A7", true, "A7"],
    ["0000", true, "0"],
    ["  0012 ", true, "12"],
    ["00A7", false, "00A7"],
    [" 00A7 ", false, "00A7"],
    ["A007", true, "A007"],
    ["0", true, "0"],
    ["a7", true, "a7"],
  ];
  for (const [text, strip, want] of cases) assert.equal(itemKey(text, strip), want, text);
});

Deno.test("catalogue lists: commas and line breaks, trimmed, duplicates once", () => {
  const cases: [string, boolean, string[]][] = [
    ["A1, B2\nC3\r\n\n, ,D4", false, ["A1", "B2", "C3", "D4"]],
    ["A1,A1, A1 ", false, ["A1"]],
    ["007, 7, 0007", true, ["007"]],
    ["007, 7", false, ["007", "7"]],
    ["", false, []],
  ];
  for (const [text, strip, want] of cases) assert.deepEqual(parseItemList(text, strip), want);
});

Deno.test("catalogue: parseItemList's items, their keys and positions", () => {
  const text = " 00A7, b2\n007,A7\r\n\n0000, B2";
  const c = parseCatalogue(text, true);
  assert.deepEqual(c.items, parseItemList(text, true));
  assert.deepEqual(c.keys, c.items.map((i) => itemKey(i, true)));
  assert.deepEqual([...c.indexOf], c.keys.map((k, i) => [k, i]));
});
