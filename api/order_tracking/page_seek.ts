/**
 * Seek points of the order list (docs/order_tracking.md, "Deep pages"): for a search (its terms
 * and sort), where pages start, as the id of the order just before the start. A page at offset
 * 9,950 is then read as "the 50 orders after order X" from the nearest point before it, an index
 * seek that costs about what the first page costs, instead of walking 9,950 matches.
 *
 * Points are remembered from the pages served and from every `SEEK_STRIDE`-th row of a deeper
 * walk, so one deep jump makes every page before it a seek. They are kept `SEEK_TTL_MS` and
 * forgotten at once when this process writes orders (`forgetSeekPoints`); a write by another
 * process (the worker's import on PostgreSQL) can shift the pages of a remembered search by the
 * rows it added or removed before them until then, as keyset paging does.
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
/** How long a search's points are trusted. */
const SEEK_TTL_MS = 60_000;
/** The searches remembered per database, the least recently used dropped first. */
const MAX_SEARCHES = 256;

interface Points {
  born: number;
  points: Map<number, SeekPoint>;
}

let searches = new WeakMap<object, Map<string, Points>>();

/** The search's points, refreshed in the LRU order; null when none or expired. */
function pointsOf(db: object, key: string, now: number): Points | null {
  const map = searches.get(db);
  const found = map?.get(key);
  if (!map || !found) return null;
  map.delete(key);
  if (now - found.born > SEEK_TTL_MS) return null;
  map.set(key, found);
  return found;
}

/** The remembered point nearest before (or at) `offset`; position 0 (no point) when none. */
export function nearestPoint(
  db: object,
  key: string,
  offset: number,
  now = Date.now(),
): { position: number; point: SeekPoint | null } {
  let best: { position: number; point: SeekPoint | null } = { position: 0, point: null };
  for (const [position, point] of pointsOf(db, key, now)?.points ?? []) {
    if (position <= offset && position > best.position) best = { position, point };
  }
  return best;
}

/** Remembers points of a search (position → the order just before it). */
export function rememberPoints(
  db: object,
  key: string,
  points: Iterable<[number, SeekPoint]>,
  now = Date.now(),
): void {
  let map = searches.get(db);
  if (!map) searches.set(db, map = new Map());
  let entry = pointsOf(db, key, now);
  if (!entry) map.set(key, entry = { born: now, points: new Map() });
  for (const [position, point] of points) if (position > 0) entry.points.set(position, point);
  while (map.size > MAX_SEARCHES) map.delete(map.keys().next().value!);
}

/** Forgets every search's points (orders were written: positions may have moved). */
export function forgetSeekPoints(): void {
  searches = new WeakMap();
}
