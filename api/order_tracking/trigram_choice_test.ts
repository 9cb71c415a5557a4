import assert from "node:assert/strict";
import {
  choosePieces,
  mayContain,
  pieceCode,
  sampleColumn,
  sampleColumnInSlices,
  trigramPieces,
} from "./trigram_choice.ts";

Deno.test("trigramPieces: three ASCII letters or digits in a row, and a word's edges inside the term, lower case, once each", () => {
  const cases: [string, string[]][] = [
    ["PO-00012", ["po-", "-0", "-00", "000", "001", "012"]],
    ["1ZA7F3", ["1za", "za7", "a7f", "7f3"]],
    ["ab", []],
    ["Ab-Cd e", ["ab-", "-c", "-cd", "cd ", " e"]],
    ["Brand 42", ["bra", "ran", "and", "nd ", " 4", " 42"]],
    ["Store #12, Spring", [
      "sto",
      "tor",
      "ore",
      "re ",
      "#1",
      "#12",
      "12,",
      " s",
      " sp",
      "spr",
      "pri",
      "rin",
      "ing",
    ]],
    // After a letter beyond ASCII the word goes on for pg_trgm: no word start there.
    ["Müller", ["lle", "ler"]],
    ["aaaa", ["aaa"]],
    // A LIKE wildcard is no literal character before a word.
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
  // Word starts, whatever the character before: a word starts with "ab" in values 0 (after the
  // space) and 2 (at the value's start, which pg_trgm pads too); "zabcz" only with "za".
  assert.deepEqual(sample.postings.get(pieceCode(" ab")), [0, 2]);
  assert.deepEqual(sample.postings.get(pieceCode("#a")), [0, 2]);
  assert.deepEqual(sample.postings.get(pieceCode(" za")), [3]);
  // Word ends, the value's end included: "bc" ends a word in 0 (at its end) and 3 ("cz" too).
  assert.deepEqual(sample.postings.get(pieceCode("bc,")), [0]);
  assert.deepEqual(sample.postings.get(pieceCode("cz ")), [3]);
});

Deno.test("sampleColumnInSlices: the same sample as sampleColumn, with timers run between slices", async () => {
  const values = Array.from(
    { length: 1234 },
    (_, i) => i % 7 ? `PO-${i}, ${i % 11 ? "Store" : "Störe"} #${i % 90}` : null,
  );
  let timers = 0;
  const ticking = setInterval(() => timers++, 0);
  try {
    const sliced = await sampleColumnInSlices(values, 100);
    const whole = sampleColumn(values);
    assert.equal(sliced.size, whole.size);
    assert.deepEqual(sliced.values, whole.values);
    assert.deepEqual([...sliced.postings].sort(), [...whole.postings].sort());
    assert.deepEqual(sliced.beyondAscii, whole.beyondAscii);
    assert.equal(whole.beyondAscii.length, 96);
    // 13 slices: other work (a request's handler) ran between them.
    assert.ok(timers >= 6, `${timers} timer turns while sampling`);
  } finally {
    clearInterval(ticking);
  }
});

Deno.test("mayContain: every value containing the term is among the candidates, which are few for a rare term", () => {
  const values = [
    ...Array.from({ length: 400 }, (_, i) => `PO-${String(i * 37).padStart(7, "0")}`),
    "Store #12, Springfield",
    "STORE #120",
    "a_b%c\\d 12",
    // Lower-cased, the Kelvin sign is an ASCII "k" and the dotted capital I is "i" and a mark:
    // read off the value itself, neither gives the pieces its lower case holds.
    "\u212a12 Store",
    "\u0130x12",
    "Müller 12-34",
    null,
    "",
  ];
  const sample = sampleColumn(values);
  const terms = [
    "0001221",
    "po-0001221",
    "-00",
    "store #12",
    "#12,",
    "k12",
    "ix12",
    "i\u0307x12",
    "ller 12",
    "12-3",
    "_b%",
    "c\\d 1",
    "zzz",
    "12",
    "e #1",
  ];
  for (const term of terms) {
    const containing = values.flatMap((value, i) => value?.toLowerCase().includes(term) ? [i] : []);
    const lists = mayContain(sample, term);
    if (lists === null) continue;
    const candidates = new Set(lists.flat());
    for (const i of containing) assert.ok(candidates.has(i), `"${term}" in "${values[i]}"`);
  }
  // A rare term: the values with its rarest piece ("PO-0001221" and "PO-0012210" hold "221") and
  // the three beyond ASCII, not all 408.
  const rare = mayContain(sample, "0001221")!;
  assert.deepEqual(rare.flat().sort((a, b) => a - b), [33, 330, 403, 404, 405]);
  // No piece ("12" has no character before it in the term), or a common one: every value is read.
  assert.equal(mayContain(sample, "12"), null);
  assert.equal(mayContain(sample, "po-"), null);
});

// 2,000 PO numbers "PO-0000000".."PO-0001999" and customer names built from common syllables:
// "po"/"000" are in (nearly) every value, "stovelwald" in a few.
const pos = Array.from({ length: 2000 }, (_, i) => `PO-${String(i).padStart(7, "0")}`);
const syllables = ["sto", "vel", "wald", "ka", "lo", "mi"];
// 100 brands "Brand 0".."Brand 99" and 900 stores "Store #0".."Store #899", evenly spread.
const brands = Array.from({ length: 2000 }, (_, i) => `Brand ${i % 100}`);
const stores = Array.from({ length: 2000 }, (_, i) => `Store #${(i * 31) % 900}, Springfield`);
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
    ["no piece at all", "PO", poSample, []],
    // "1" starts a word after "-": no sampled PO number has a word starting with 1
    ["a word start no sampled value has", "PO-1", poSample, ["-1"]],
    ["an empty sample", "PO-00012", sampleColumn([]), []],
    ["pieces no sampled value has", "zzz-qqq", poSample, ["zzz"]],
    // The number is the rare part; "bra", "ran", "and" are in every brand (read alone, the
    // index returned every order: 0.7 s at 1M orders).
    ["a short number after a word", "Brand 42", sampleColumn(brands), [" 42"]],
    ["a short number after a sign", "Store #12", sampleColumn(stores), ["#12"]],
    // "12" ends a word in 1 % of the stores (#12, #112, … #812)
    ["a short number before a sign", "12, Springfield", sampleColumn(stores), ["12,"]],
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
