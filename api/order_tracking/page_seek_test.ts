/**
 * Which writes forget which seek points: a note only those of searches sorted by notes, any other
 * write every search's, and a read that a write overtook leaves none; which deep pages are walked
 * again after a write.
 */
import assert from "node:assert/strict";
import {
  forgetSeekPoints,
  knownAbove,
  knownEnd,
  nearestPoint,
  noteDeepVisit,
  rememberAbove,
  rememberEnd,
  rememberPoints,
  seekGeneration,
  type SeekSearch,
  walksDone,
} from "./page_seek.ts";

const byName: SeekSearch = { key: "by customer name", readsNotes: false };
const byNotes: SeekSearch = { key: "by notes", readsNotes: true };
const point = (id: number) => ({ id, nulls: [false] });

/** The position of the nearest point before page 3 of 50 (100 when remembered, 0 when not). */
const nearest = (db: object, search: SeekSearch) => nearestPoint(db, search, 100).position;

Deno.test("seek points: a note forgets only the searches sorted by notes", () => {
  const db = {};
  rememberPoints(db, byName, [[100, point(7)]], seekGeneration());
  rememberPoints(db, byNotes, [[100, point(8)]], seekGeneration());
  assert.equal(nearest(db, byName), 100);
  assert.equal(nearest(db, byNotes), 100);

  forgetSeekPoints("notes");
  assert.equal(nearest(db, byName), 100);
  assert.equal(nearest(db, byNotes), 0);

  // Remembered again after the note, they are trusted again.
  rememberPoints(db, byNotes, [[100, point(9)]], seekGeneration());
  assert.deepEqual(nearestPoint(db, byNotes, 100).point, point(9));
});

Deno.test("seek points: an import or a delete forgets every search's", () => {
  const db = {};
  rememberPoints(db, byName, [[100, point(7)]], seekGeneration());
  rememberPoints(db, byNotes, [[100, point(8)]], seekGeneration());
  forgetSeekPoints();
  assert.equal(nearest(db, byName), 0);
  assert.equal(nearest(db, byNotes), 0);
});

Deno.test("seek points: a page read before a write is not remembered after it", () => {
  const db = {};
  const cases: [string, SeekSearch, () => void, number][] = [
    ["a note, sorted by notes", byNotes, () => forgetSeekPoints("notes"), 0],
    ["a note, sorted by name", byName, () => forgetSeekPoints("notes"), 100],
    ["an import", byName, () => forgetSeekPoints(), 0],
  ];
  for (const [label, search, write, expected] of cases) {
    forgetSeekPoints();
    const seen = seekGeneration();
    write(); // commits while the page is being read
    rememberPoints(db, search, [[100, point(7)]], seen);
    assert.equal(nearest(db, search), expected, label);
  }
});

Deno.test("a count past the bound and an exact end are kept and forgotten as the points are", () => {
  const db = {};
  const cases: [string, SeekSearch, () => void, boolean][] = [
    ["no write", byName, () => {}, true],
    ["a note, sorted by name", byName, () => forgetSeekPoints("notes"), true],
    ["a note, sorted by notes", byNotes, () => forgetSeekPoints("notes"), false],
    ["an import or a delete", byName, () => forgetSeekPoints(), false],
  ];
  for (const [label, search, write, kept] of cases) {
    forgetSeekPoints();
    rememberAbove(db, search, 10_000, seekGeneration());
    rememberEnd(db, search, 6_000, seekGeneration());
    write();
    assert.equal(knownAbove(db, search), kept ? 10_000 : 0, label);
    assert.equal(knownEnd(db, search), kept ? 6_000 : null, label);
  }
  // Counted before an import that committed meanwhile: not kept.
  const seen = seekGeneration();
  forgetSeekPoints();
  rememberAbove(db, byName, 10_000, seen);
  rememberEnd(db, byName, 6_000, seen);
  assert.equal(knownAbove(db, byName), 0);
  assert.equal(knownEnd(db, byName), null);
});

Deno.test("after an import or a delete, the deepest page of each search read lately is walked again", async () => {
  const minute = 60_000;
  type Visit = [search: string, offset: number, minutesAgo: number];
  const cases: [string, Visit[], "orders" | "notes", string[]][] = [
    ["one deep page", [["a", 9_950, 1]], "orders", ["a@9950"]],
    ["a note walks nothing", [["a", 9_950, 1]], "notes", []],
    ["read 6 minutes ago: not walked", [["a", 9_950, 6]], "orders", []],
    ["the deepest page of a search", [["a", 9_950, 2], ["a", 5_000, 1]], "orders", ["a@9950"]],
    [
      "at most four searches, the most recent first",
      [["a", 1_000, 5], ["b", 1_000, 4], ["c", 1_000, 3], ["d", 1_000, 2], ["e", 1_000, 1]],
      "orders",
      ["e@1000", "d@1000", "c@1000", "b@1000"],
    ],
  ];
  for (const [label, visits, write, expected] of cases) {
    forgetSeekPoints(); // no visit left from the case before
    await walksDone();
    const walked: string[] = [];
    const db = {};
    for (const [key, offset, minutesAgo] of visits) {
      const search = { key, readsNotes: false };
      const walk = () => Promise.resolve(walked.push(`${key}@${offset}`));
      noteDeepVisit(db, search, offset, walk, Date.now() - minutesAgo * minute);
    }
    forgetSeekPoints(write);
    await walksDone();
    assert.deepEqual(walked, expected, label);
    // Walked once: a second write walks them again only once they are read again.
    forgetSeekPoints(write);
    await walksDone();
    assert.deepEqual(walked, expected, `${label}, a second write`);
  }
});

Deno.test("a walk that fails leaves the others to run", async () => {
  forgetSeekPoints();
  await walksDone();
  const walked: string[] = [];
  const db = {};
  noteDeepVisit(
    db,
    { key: "a", readsNotes: false },
    2_000,
    () => Promise.reject(new Error("gone")),
  );
  noteDeepVisit(
    db,
    { key: "b", readsNotes: false },
    2_000,
    () => Promise.resolve(walked.push("b")),
  );
  forgetSeekPoints();
  await walksDone();
  assert.deepEqual(walked, ["b"]);
});
