/**
 * Seek points of the order list (docs/order_tracking.md, "Deep pages"): for a search (its terms
 * and sort), where pages start, as the id of the order just before the start. A page at offset
 * 9,950 is then read as "the 50 orders after order X" from the nearest point before it, an index
 * seek that costs about what the first page costs, instead of walking 9,950 matches.
 *
 * Points are remembered from the pages served and from every `SEEK_STRIDE`-th row of a deeper
 * walk, so one deep jump makes every page before it a seek. They are forgotten when orders are
 * written (`forgetSeekPoints`): every search's for an import that wrote orders or a delete, only
 * those of searches sorted by notes for a note (an import of unchanged orders writes none). This
 * process forgets at once; a write by another process (the worker's import on PostgreSQL) is seen
 * within a second through the counts of `list_versions.ts`, and until then a remembered page
 * continues after the order it remembered, as keyset paging does. `SEEK_TTL_MS` bounds the rest.
 *
 * After a write forgot them, the deep pages read in the last minutes are walked again in the
 * background (`noteDeepVisit`), so that the person paging there does not wait for the walk.
 *
 * With the points, a search keeps what its last count found when that count passed its bound
 * (`rememberAbove`, `knownAbove`): "more than 10,000" holds until a write may have removed
 * matches, so a broad search's first page (no terms, one letter) is not counted again each time
 * (the counts were about half of PostgreSQL's work under load; docs/benchmarks.md). Likewise it
 * keeps where its matches end when a read found it (`rememberEnd`, `knownEnd`), so a page past
 * the last one is answered without reading again.
 *
 * @module
 */

/** The order just before a position: its id, and which of its sort keys are empty. */
export interface SeekPoint {
  id: number;
  /** One per sort key, in the sort's order (the id's tie-break is never empty). */
  nulls: boolean[];
}

/** Every this many rows of a walk a point is remembered (the page sizes' largest common step). */
export const SEEK_STRIDE = 50;
/**
 * How long a search's points are trusted at most: writes forget them (`forgetSeekPoints`, and
 * `list_versions.ts` for other processes), so this only bounds a write that bypassed both.
 */
const SEEK_TTL_MS = 10 * 60_000;
/** The searches remembered per database, the least recently used dropped first. */
const MAX_SEARCHES = 256;

interface Points {
  born: number;
  points: Map<number, SeekPoint>;
  /** For a search sorted by notes: `notesChanges` when its first point was remembered. */
  notes: number | null;
  /** The search matched more than this many orders when last counted (0: not known). */
  above: number;
  /** How many orders the search matches, when a read found where they end (null: not known). */
  end: number | null;
}

/** How a search is told apart, and whether its order reads the notes. */
export interface SeekSearch {
  /** Its terms, AND/OR and sort (the page size does not matter). */
  key: string;
  /** Its sort reads the notes: a note may move its rows (`forgetSeekPoints("notes")`). */
  readsNotes: boolean;
}

let searches = new WeakMap<object, Map<string, Points>>();
/** Notes saved by this process so far: a search sorted by notes trusts points of its own count. */
let notesChanges = 0;

/** What a search saw before it read its page (`seekGeneration`), for `rememberPoints`. */
export interface SeekGeneration {
  notes: number;
  searches: object;
}

/** Taken before a page is read: points from a read that a write overtook are not remembered. */
export function seekGeneration(): SeekGeneration {
  return { notes: notesChanges, searches };
}

/** The search's points, refreshed in the LRU order; null when none, expired or moved by a note. */
function pointsOf(db: object, key: string, now: number): Points | null {
  const map = searches.get(db);
  const found = map?.get(key);
  if (!map || !found) return null;
  map.delete(key);
  if (now - found.born > SEEK_TTL_MS) return null;
  if (found.notes !== null && found.notes !== notesChanges) return null;
  map.set(key, found);
  return found;
}

/** The remembered point nearest before (or at) `offset`; position 0 (no point) when none. */
export function nearestPoint(
  db: object,
  search: SeekSearch,
  offset: number,
  now = Date.now(),
): { position: number; point: SeekPoint | null } {
  let best: { position: number; point: SeekPoint | null } = { position: 0, point: null };
  for (const [position, point] of pointsOf(db, search.key, now)?.points ?? []) {
    if (position <= offset && position > best.position) best = { position, point };
  }
  return best;
}

/**
 * Remembers points of a search (position → the order just before it), read from the data as it
 * was at `seen`: nothing when a write that may move them came since.
 */
export function rememberPoints(
  db: object,
  search: SeekSearch,
  points: Iterable<[number, SeekPoint]>,
  seen: SeekGeneration,
  now = Date.now(),
): void {
  const entry = entryToWrite(db, search, seen, now);
  if (!entry) return;
  for (const [position, point] of points) if (position > 0) entry.points.set(position, point);
}

/**
 * Remembers that a search, counted as the data was at `seen`, matched more than `bound` orders
 * (nothing when a write that may change that came since).
 */
export function rememberAbove(
  db: object,
  search: SeekSearch,
  bound: number,
  seen: SeekGeneration,
  now = Date.now(),
): void {
  const entry = entryToWrite(db, search, seen, now);
  if (entry) entry.above = Math.max(entry.above, bound);
}

/**
 * Remembers that a search, read as the data was at `seen`, matches exactly `end` orders (nothing
 * when a write that may change that came since): a page past them is then answered without a
 * read.
 */
export function rememberEnd(
  db: object,
  search: SeekSearch,
  end: number,
  seen: SeekGeneration,
  now = Date.now(),
): void {
  const entry = entryToWrite(db, search, seen, now);
  if (entry) entry.end = end;
}

/** How many orders the search is known to match exactly (null when not known). */
export function knownEnd(db: object, search: SeekSearch, now = Date.now()): number | null {
  return pointsOf(db, search.key, now)?.end ?? null;
}

/** How many orders the search is known to match more than (0 when not known). */
export function knownAbove(db: object, search: SeekSearch, now = Date.now()): number {
  return pointsOf(db, search.key, now)?.above ?? 0;
}

/** The search's entry to add to, made when missing; null when a write overtook `seen`. */
function entryToWrite(
  db: object,
  search: SeekSearch,
  seen: SeekGeneration,
  now: number,
): Points | null {
  if (seen.searches !== searches) return null;
  if (search.readsNotes && seen.notes !== notesChanges) return null;
  let map = searches.get(db);
  if (!map) searches.set(db, map = new Map());
  let entry = pointsOf(db, search.key, now);
  if (!entry) {
    const notes = search.readsNotes ? notesChanges : null;
    map.set(search.key, entry = { born: now, points: new Map(), notes, above: 0, end: null });
  }
  while (map.size > MAX_SEARCHES) map.delete(map.keys().next().value!);
  return entry;
}

/**
 * Forgets the points that a write may have moved: every search's after an import, a delete or
 * the deletion job (`"orders"`: rows came, went or changed their sorted values); after a note
 * (`"notes"`), only those of searches sorted by notes, since a note changes no other sorted
 * value, no searched column and no row's presence, so every other search's rows keep their
 * positions (and people paging deep keep their seeks while colleagues write notes). After
 * `"orders"`, the deep pages read lately are walked again in the background (`noteDeepVisit`).
 */
export function forgetSeekPoints(what: "orders" | "notes" = "orders"): void {
  if (what === "notes") {
    notesChanges++;
    return;
  }
  searches = new WeakMap();
  walkAgain();
}

/** A deep page read lately: walked again once a write forgot its points. */
interface DeepVisit {
  db: object;
  key: string;
  offset: number;
  at: number;
  walk: () => Promise<unknown>;
}

/** Pages at this offset or deeper are walked again: a shallower walk costs about a page. */
export const REWALK_FROM = 1_000;
/** Visits older than this are not walked again. */
const REWALK_WITHIN_MS = 5 * 60_000;
/** At most this many searches are walked again after one write, the most recent first. */
const MAX_REWALKS = 4;

let deepVisits: DeepVisit[] = [];
let rewalks: Promise<void> = Promise.resolve();

/**
 * Notes that a page at `offset` (at least `REWALK_FROM`) of `search` was read, and how to read it
 * again (`walk`, which remembers its points as the page's reading does): after a write forgets
 * the points, the deepest page of each search read in the last `REWALK_WITHIN_MS` is walked again,
 * one at a time, so its next visit is a seek. A failed walk leaves that visit to walk, as before.
 */
export function noteDeepVisit(
  db: object,
  search: SeekSearch,
  offset: number,
  walk: () => Promise<unknown>,
  now = Date.now(),
): void {
  const same = deepVisits.find((visit) => visit.db === db && visit.key === search.key);
  const deepest = same && same.offset > offset ? same : null;
  deepVisits = deepVisits.filter((visit) => visit !== same);
  deepVisits.push(
    deepest ? { ...deepest, at: now } : { db, key: search.key, offset, at: now, walk },
  );
  if (deepVisits.length > MAX_REWALKS * 4) deepVisits.shift();
}

/** Starts walking the recent deep pages again, after the walks already under way. */
function walkAgain(now = Date.now()): void {
  const due = deepVisits.filter((visit) => now - visit.at <= REWALK_WITHIN_MS)
    .slice(-MAX_REWALKS).reverse();
  deepVisits = [];
  if (!due.length) return;
  rewalks = rewalks.then(async () => {
    for (const visit of due) await visit.walk().catch(() => {});
  });
}

/** Settles once the walks started so far are done (tests wait for it before closing). */
export function walksDone(): Promise<void> {
  return rewalks;
}
