/**
 * The predictive rule of DESIGN.md section 6 over stored per-item quantity snapshots: a daily
 * depletion rate from the decreases inside the lookback window (restocks ignored), expected
 * sales until the next update, and the stock required to stay active.
 */

/** A time as ISO text, a Date or epoch milliseconds. */
export type TimeLike = string | Date | number;

/** One stored quantity of one item at one run. */
export interface QuantitySnapshot {
  itemNumber: string;
  quantity: number;
  takenAt: TimeLike;
}

/**
 * One run's quantities in columns (the compact form a snapshot store can keep: one record per
 * run instead of one per item). `quantities[i]` belongs to `itemNumbers[i]`; NaN means none.
 */
export interface SnapshotRun {
  takenAt: TimeLike;
  itemNumbers: readonly string[];
  quantities: ArrayLike<number>;
}

/** The predictive settings of a source, nulls replaced by the spec's example values. */
export interface PredictionSettings {
  lookbackDays: number;
  minDataPoints: number;
  safetyMultiplier: number;
  safetyPadding: number;
  largeDropThreshold: number;
  largeDropMultiplier: number;
}

/** The spec's example hints (section 9), used for settings left empty. */
export const DEFAULT_PREDICTION: Readonly<PredictionSettings> = Object.freeze({
  lookbackDays: 30,
  minDataPoints: 5,
  safetyMultiplier: 1.2,
  safetyPadding: 50,
  largeDropThreshold: 500,
  largeDropMultiplier: 1.5,
});

/** The settings of a source with empty values replaced by {@link DEFAULT_PREDICTION}. */
export function predictionSettings(
  source: {
    [K in keyof PredictionSettings]?: number | null;
  },
): PredictionSettings {
  const pick = (key: keyof PredictionSettings) => source[key] ?? DEFAULT_PREDICTION[key];
  return {
    lookbackDays: pick("lookbackDays"),
    minDataPoints: pick("minDataPoints"),
    safetyMultiplier: pick("safetyMultiplier"),
    safetyPadding: pick("safetyPadding"),
    largeDropThreshold: pick("largeDropThreshold"),
    largeDropMultiplier: pick("largeDropMultiplier"),
  };
}

export const DAY_MS = 86_400_000;

/** Epoch milliseconds of a time; NaN when it cannot be read. */
export function timeMs(time: TimeLike): number {
  if (typeof time === "number") return time;
  if (time instanceof Date) return time.getTime();
  return Date.parse(time);
}

/** How many recent runs the typical update interval is taken from. */
export const RECENT_RUNS = 20;

/**
 * The source's typical update interval in days: the median gap between its most recent
 * {@link RECENT_RUNS} runs, at least one day (one day when there are fewer than two runs).
 *
 * @example medianGapDays([0, 2 * DAY_MS, 5 * DAY_MS]) // 2.5
 */
export function medianGapDays(runTimes: readonly number[]): number {
  const times = [...new Set(runTimes.filter(Number.isFinite))].sort((a, b) => a - b).slice(
    -RECENT_RUNS,
  );
  if (times.length < 2) return 1;
  const gaps = times.slice(1).map((t, i) => (t - times[i]) / DAY_MS).sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  const median = gaps.length % 2 ? gaps[mid] : (gaps[mid - 1] + gaps[mid]) / 2;
  return Math.max(1, median);
}

/** What the rule found for one item. */
export interface ItemPrediction {
  /** Snapshots in the window plus the current quantity. */
  dataPoints: number;
  /** null when there were too few data points (or no time covered): the rule did not apply. */
  dailyRate: number | null;
  expectedSales: number | null;
  requiredStock: number | null;
  /** The last step's decrease (previous snapshot → current quantity), 0 when none. */
  lastDrop: number;
  largeDrop: boolean;
  /** True when the quantity is below the required stock. */
  belowRequired: boolean;
  /** A sentence for the log and the modifications. */
  reason: string;
}

/**
 * Per-item history gathered in one pass over the snapshots, in typed arrays indexed by the
 * item's position in the catalogue (100,000 items × 30 days stays small).
 */
export class SnapshotHistory {
  readonly first: Float64Array;
  readonly lastTime: Float64Array;
  readonly lastQty: Float64Array;
  readonly decreases: Float64Array;
  readonly count: Uint32Array;
  /** Distinct snapshot times seen inside the window (the source's runs). */
  readonly runTimes = new Set<number>();

  constructor(size: number) {
    this.first = new Float64Array(size);
    this.lastTime = new Float64Array(size);
    this.lastQty = new Float64Array(size);
    this.decreases = new Float64Array(size);
    this.count = new Uint32Array(size);
  }

  /** Adds one snapshot; returns false when it is older than the item's last one. */
  add(index: number, time: number, quantity: number): boolean {
    const n = this.count[index];
    if (n === 0) {
      this.first[index] = time;
    } else {
      if (time < this.lastTime[index]) return false;
      const drop = this.lastQty[index] - quantity;
      if (drop > 0) this.decreases[index] += drop;
    }
    this.lastTime[index] = time;
    this.lastQty[index] = quantity;
    this.count[index] = n + 1;
    return true;
  }
}

/**
 * Reads snapshots into a {@link SnapshotHistory} for the items in `indexOf` (keys already
 * normalised by `key`), keeping those taken in `[fromMs, toMs)`. Any order is accepted for an
 * array (it is sorted by time when needed); another iterable must come in time order per item
 * (the store reads them ordered by time), else a TypeError is thrown.
 */
export function gatherHistory(
  snapshots: Iterable<QuantitySnapshot>,
  indexOf: ReadonlyMap<string, number>,
  key: (itemNumber: string) => string,
  fromMs: number,
  toMs: number,
  size: number,
): SnapshotHistory {
  const times = new Map<string, number>();
  // Snapshots come in runs: the same takenAt (often the same string) many times in a row.
  let lastText: TimeLike | null = null, lastMs = NaN;
  const ms = (t: TimeLike) => {
    if (t === lastText) return lastMs;
    let v: number;
    if (typeof t !== "string") v = timeMs(t);
    else {
      v = times.get(t) ?? Date.parse(t);
      if (times.size < 100_000) times.set(t, v);
    }
    lastText = t;
    lastMs = v;
    return v;
  };
  const run = (list: Iterable<QuantitySnapshot>): SnapshotHistory | null => {
    const history = new SnapshotHistory(size);
    let lastRun = NaN;
    for (const s of list) {
      const t = ms(s.takenAt);
      if (!(t >= fromMs && t < toMs) || !Number.isFinite(s.quantity)) continue;
      const index = indexOf.get(key(s.itemNumber));
      if (index === undefined) continue;
      if (t !== lastRun) {
        history.runTimes.add(t);
        lastRun = t;
      }
      if (!history.add(index, t, s.quantity)) return null;
    }
    return history;
  };
  const history = run(snapshots);
  if (history) return history;
  if (!Array.isArray(snapshots)) {
    throw new TypeError("Snapshots must come in time order when they are not an array");
  }
  const sorted = [...(snapshots as QuantitySnapshot[])].sort((a, b) =>
    ms(a.takenAt) - ms(b.takenAt)
  );
  return run(sorted)!;
}

const fmt = (n: number) => Number.isInteger(n) ? String(n) : n.toFixed(2);

/** The numbers of {@link ItemPrediction}, without its sentence, and the days covered. */
export interface StockPrediction extends Omit<ItemPrediction, "reason"> {
  days: number;
}

/**
 * Applies the rule to one item: its gathered history (may be empty) and the current quantity.
 * With fewer than `minDataPoints` points (history + current) or no time covered, the rule does
 * not apply (`belowRequired` false).
 */
export function predictItem(
  history: SnapshotHistory,
  index: number,
  quantity: number,
  nowMs: number,
  intervalDays: number,
  settings: PredictionSettings,
): ItemPrediction {
  const p = predictStock(history, index, quantity, nowMs, intervalDays, settings);
  const { days: _days, ...numbers } = p;
  return { ...numbers, reason: predictionReason(p, quantity, intervalDays, settings) };
}

/**
 * {@link predictItem} without the sentence: the engine asks it of every active item and words
 * the few that fall below the required stock with {@link predictionReason}.
 */
export function predictStock(
  history: SnapshotHistory,
  index: number,
  quantity: number,
  nowMs: number,
  intervalDays: number,
  settings: PredictionSettings,
): StockPrediction {
  const n = history.count[index];
  const dataPoints = n + 1;
  let decreases = n > 0 ? history.decreases[index] : 0;
  const lastDrop = n > 0 ? Math.max(0, history.lastQty[index] - quantity) : 0;
  decreases += lastDrop;
  const days = n > 0 ? (nowMs - history.first[index]) / DAY_MS : 0;
  if (dataPoints < settings.minDataPoints || days <= 0) {
    return {
      dataPoints,
      dailyRate: null,
      expectedSales: null,
      requiredStock: null,
      lastDrop,
      largeDrop: false,
      belowRequired: false,
      days,
    };
  }
  const dailyRate = decreases / days;
  const expectedSales = dailyRate * intervalDays;
  const largeDrop = lastDrop >= settings.largeDropThreshold;
  let requiredStock = expectedSales * settings.safetyMultiplier + settings.safetyPadding;
  if (largeDrop) requiredStock *= settings.largeDropMultiplier;
  const belowRequired = quantity < requiredStock;
  return {
    dataPoints,
    dailyRate,
    expectedSales,
    requiredStock,
    lastDrop,
    largeDrop,
    belowRequired,
    days,
  };
}

/** The sentence of a prediction, for the log and the modifications. */
export function predictionReason(
  p: StockPrediction,
  quantity: number,
  intervalDays: number,
  settings: PredictionSettings,
): string {
  const { dataPoints, dailyRate, expectedSales, requiredStock, days } = p;
  if (dailyRate === null || expectedSales === null || requiredStock === null) {
    return `${dataPoints} data point${
      dataPoints === 1 ? "" : "s"
    } in ${settings.lookbackDays} days, fewer than the ${settings.minDataPoints} the prediction needs`;
  }
  return `Predicted: quantity ${fmt(quantity)} is ${
    p.belowRequired ? "below" : "at or above"
  } the required stock ${fmt(requiredStock)} (selling ${fmt(dailyRate)}/day over ${
    fmt(days)
  } days, ${dataPoints} data points; ${fmt(expectedSales)} expected in the ${
    fmt(intervalDays)
  }-day update interval × ${settings.safetyMultiplier} + ${settings.safetyPadding}${
    p.largeDrop
      ? `, × ${settings.largeDropMultiplier} after a drop of ${
        fmt(p.lastDrop)
      } (≥ ${settings.largeDropThreshold})`
      : ""
  })`;
}

/**
 * Reads runs in the columnar form into a {@link SnapshotHistory}, like {@link gatherHistory}:
 * an array in any order (sorted by time), another iterable in time order (else a TypeError);
 * runs taken in `[fromMs, toMs)` kept. Consecutive runs with
 * the same item list (the same array, or equal contents) reuse one item-to-index mapping, so 30
 * runs of 100,000 items cost 100,000 lookups, not 3,000,000.
 */
export function gatherRuns(
  runs: Iterable<SnapshotRun>,
  indexOf: ReadonlyMap<string, number>,
  key: (itemNumber: string) => string,
  fromMs: number,
  toMs: number,
  size: number,
): SnapshotHistory {
  const history = new SnapshotHistory(size);
  // An array is sorted by time; another iterable (a cursor) is read as it comes, one run at a
  // time, and must be in time order.
  const ordered: Iterable<SnapshotRun> = Array.isArray(runs)
    ? [...runs as SnapshotRun[]].sort((a, b) => timeMs(a.takenAt) - timeMs(b.takenAt))
    : runs;
  let lastTime = -Infinity;
  let lastItems: readonly string[] | null = null;
  let mapping = new Int32Array(0);
  const sameItems = (items: readonly string[]) => {
    if (lastItems === null) return false;
    if (items === lastItems) return true;
    if (items.length !== lastItems.length) return false;
    for (let i = 0; i < items.length; i++) if (items[i] !== lastItems[i]) return false;
    return true;
  };
  for (const run of ordered) {
    const t = timeMs(run.takenAt);
    if (t < lastTime) {
      throw new TypeError("Snapshot runs must come in time order when they are not an array");
    }
    lastTime = t;
    if (!(t >= fromMs && t < toMs)) continue;
    const items = run.itemNumbers;
    if (!sameItems(items)) {
      mapping = new Int32Array(items.length);
      for (let i = 0; i < items.length; i++) mapping[i] = indexOf.get(key(items[i])) ?? -1;
      lastItems = items;
    }
    history.runTimes.add(t);
    const q = run.quantities;
    for (let i = 0; i < items.length; i++) {
      const index = mapping[i];
      if (index >= 0 && Number.isFinite(q[i])) history.add(index, t, q[i]);
    }
  }
  return history;
}
