import assert from "node:assert/strict";
import { choosePieces, pieceCode, sampleColumn, trigramPieces } from "./trigram_choice.ts";

Deno.test("trigramPieces: three ASCII letters or digits in a row, lower case, once each", () => {
  const cases: [string, string[]][] = [
    ["PO-00012", ["000", "001", "012"]],
    ["1ZA7F3", ["1za", "za7", "a7f", "7f3"]],
    ["ab", []],
    ["Ab-Cd e", []],
    ["Müller", ["lle", "ler"]],
    ["aaaa", ["aaa"]],
    ["100%_OFF", ["100", "off"]],
    ["", []],
  ];
  for (const [term, pieces] of cases) assert.deepEqual(trigramPieces(term), pieces, term);
});

Deno.test("sampleColumn: each piece lists the values containing it, once, in order", () => {
  const sample = sampleColumn(["xABCx abc", null, "ab c", "zabcz", ""]);
  assert.equal(sample.size, 5);
  assert.deepEqual(sample.postings.get(pieceCode("abc")), [0, 3]);
  assert.deepEqual(sample.postings.get(pieceCode("xab")), [0]);
  assert.equal(sample.postings.get(pieceCode("b c")), undefined);
});

// 2,000 PO numbers "PO-0000000".."PO-0001999" and customer names built from common syllables:
// "po"/"000" are in (nearly) every value, "stovelwald" in a few.
const pos = Array.from({ length: 2000 }, (_, i) => `PO-${String(i).padStart(7, "0")}`);
const syllables = ["sto", "vel", "wald", "ka", "lo", "mi"];
const names = Array.from(
  { length: 2000 },
  (_, i) => `Ada ${syllables[i % 6]}${syllables[Math.floor(i / 6) % 6]}${syllables[(i * 7) % 6]}`,
);

Deno.test("choosePieces: the rare pieces that narrow the candidates, rarest first", () => {
  const poSample = sampleColumn(pos);
  const nameSample = sampleColumn(names);
  const cases: [string, string, ReturnType<typeof sampleColumn>, string[]][] = [
    // "012" is the rarest; "001" and "000" (every value) rule out too few to be worth reading
    ["a PO prefix", "PO-00012", poSample, ["012"]],
    ["a full PO number", "PO-0001234", poSample, ["234", "123"]],
    ["no piece at all", "PO-1", poSample, []],
    ["an empty sample", "PO-00012", sampleColumn([]), []],
    ["pieces no sampled value has", "zzz-qqq", poSample, ["zzz"]],
  ];
  for (const [what, term, sample, expected] of cases) {
    assert.deepEqual(choosePieces(term, sample), expected, what);
  }
  const chosen = choosePieces("stovelwald", nameSample);
  // never "sto", "vel" or "wal" alone: each is in a third of the names
  const third = (piece: string) =>
    (nameSample.postings.get(pieceCode(piece))?.length ?? 0) > names.length / 4;
  assert.ok(chosen.length > 0 && !chosen.every(third), JSON.stringify(chosen));
  const candidates = names.filter((name) => chosen.every((p) => name.toLowerCase().includes(p)));
  const matches = names.filter((name) => name.toLowerCase().includes("stovelwald"));
  assert.ok(candidates.length <= matches.length * 2, `${candidates.length} candidates`);
});
