import { DEFAULT_GUARD_THRESHOLD, type ItemStatus } from "../contract/inventory.ts";

/** An item's status in a delivered (or a new) run. */
export interface ItemStatusEntry {
  itemNumber: string;
  status: ItemStatus;
}

/** An item whose status changes against the last delivered run. */
export interface Flip {
  itemNumber: string;
  from: ItemStatus;
  to: ItemStatus;
}

/** The guard's verdict on a run. */
export interface GuardVerdict {
  /** Items changing status (active → inactive and back), in the new run's order. */
  flips: Flip[];
  /** Previously active items still in the catalogue, and how many of them turn inactive. */
  previouslyActive: number;
  turnedInactive: number;
  turnedActive: number;
  /** turnedInactive / previouslyActive (0 when nothing was active). */
  share: number;
  threshold: number;
  /** True when more than `threshold` of the previously active items turn inactive. */
  held: boolean;
  /** False when there was no previous run to compare with (nothing is held then). */
  compared: boolean;
}

/**
 * Compares a run's statuses with the last delivered run's: which items flip, and whether the run
 * must be held (more than `threshold` of the previously active items turn inactive). Items are
 * matched by `key` (the source's item normalisation); items new to the catalogue do not flip,
 * items no longer in it do not count.
 *
 * @example
 * guard([{ itemNumber: "A", status: "Inactive" }], [{ itemNumber: "A", status: "Active" }]).held // true
 */
export function guard(
  current: readonly ItemStatusEntry[],
  previous: readonly ItemStatusEntry[] | ReadonlyMap<string, ItemStatus> | null | undefined,
  threshold: number = DEFAULT_GUARD_THRESHOLD,
  key: (itemNumber: string) => string = (s) => s.trim(),
): GuardVerdict {
  const before = previous instanceof Map ? previous : previousMap(
    previous as readonly ItemStatusEntry[] | null | undefined,
    key,
  );
  return tally(current, (i) => before.get(key(current[i].itemNumber)), before.size > 0, threshold);
}

/**
 * The verdict on `current` given each item's last delivered status (`was(i)`, undefined for an
 * item without one); `compared` false gives the empty verdict of a first run.
 */
function tally(
  current: readonly ItemStatusEntry[],
  was: (i: number) => ItemStatus | undefined,
  compared: boolean,
  threshold: number,
): GuardVerdict {
  const verdict: GuardVerdict = {
    flips: [],
    previouslyActive: 0,
    turnedInactive: 0,
    turnedActive: 0,
    share: 0,
    threshold,
    held: false,
    compared,
  };
  if (!compared) return verdict;
  for (let i = 0; i < current.length; i++) {
    const from = was(i);
    if (from === undefined) continue;
    const item = current[i];
    if (from === "Active") verdict.previouslyActive++;
    if (from === item.status) continue;
    verdict.flips.push({ itemNumber: item.itemNumber, from, to: item.status });
    if (item.status === "Inactive") verdict.turnedInactive++;
    else verdict.turnedActive++;
  }
  verdict.share = verdict.previouslyActive > 0
    ? verdict.turnedInactive / verdict.previouslyActive
    : 0;
  verdict.held = verdict.share > threshold;
  return verdict;
}

/** The last delivered statuses by item key (empty when there is no previous run). */
export function previousMap(
  previous: readonly ItemStatusEntry[] | null | undefined,
  key: (itemNumber: string) => string,
): Map<string, ItemStatus> {
  const before = new Map<string, ItemStatus>();
  for (const p of previous ?? []) before.set(key(p.itemNumber), p.status);
  return before;
}

/**
 * The last delivered statuses by catalogue position: a code per item (0 none, else 1 + its
 * index in `statuses`). Takes a fraction of a map keyed by 100,000 item numbers; the guard only
 * looks up the catalogue's items.
 */
export interface PreviousByIndex {
  codes: Uint16Array;
  statuses: ItemStatus[];
  /** False when there is no previous run (an empty list): nothing is compared then. */
  given: boolean;
}

/** {@link previousMap} by catalogue position (`indexOf`: item key → position); last entry wins. */
export function previousByIndex(
  previous: readonly ItemStatusEntry[] | null | undefined,
  indexOf: ReadonlyMap<string, number>,
  key: (itemNumber: string) => string,
): PreviousByIndex {
  const codes = new Uint16Array(indexOf.size);
  const statuses: ItemStatus[] = [];
  for (const p of previous ?? []) {
    const i = indexOf.get(key(p.itemNumber));
    if (i === undefined) continue;
    let code = statuses.indexOf(p.status) + 1;
    if (code === 0) code = statuses.push(p.status);
    codes[i] = code;
  }
  return { codes, statuses, given: (previous?.length ?? 0) > 0 };
}

/**
 * {@link guard} for a run whose `current[i]` is catalogue item i, against statuses from
 * {@link previousByIndex}: the same verdict, without keying 100,000 item numbers again.
 */
export function guardByIndex(
  current: readonly ItemStatusEntry[],
  previous: PreviousByIndex,
  threshold: number = DEFAULT_GUARD_THRESHOLD,
): GuardVerdict {
  const { codes, statuses, given } = previous;
  return tally(
    current,
    (i) => codes[i] === 0 ? undefined : statuses[codes[i] - 1],
    given,
    threshold,
  );
}
