/**
 * Which writes forget which seek points: a note only those of searches sorted by notes, any other
 * write every search's, and a read that a write overtook leaves none.
 */
import assert from "node:assert/strict";
import {
  forgetSeekPoints,
  knownAbove,
  nearestPoint,
  rememberAbove,
  rememberPoints,
  seekGeneration,
  type SeekSearch,
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

Deno.test("a count past the bound is kept and forgotten as the points are", () => {
  const db = {};
  const cases: [string, SeekSearch, () => void, number][] = [
    ["no write", byName, () => {}, 10_000],
    ["a note, sorted by name", byName, () => forgetSeekPoints("notes"), 10_000],
    ["a note, sorted by notes", byNotes, () => forgetSeekPoints("notes"), 0],
    ["an import or a delete", byName, () => forgetSeekPoints(), 0],
  ];
  for (const [label, search, write, expected] of cases) {
    forgetSeekPoints();
    rememberAbove(db, search, 10_000, seekGeneration());
    write();
    assert.equal(knownAbove(db, search), expected, label);
  }
  // Counted before an import that committed meanwhile: not kept.
  const seen = seekGeneration();
  forgetSeekPoints();
  rememberAbove(db, byName, 10_000, seen);
  assert.equal(knownAbove(db, byName), 0);
});
