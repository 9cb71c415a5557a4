import assert from "node:assert/strict";
import {
  DAY_MS,
  gatherHistory,
  medianGapDays,
  type PredictionSettings,
  predictionSettings,
  predictItem,
  type QuantitySnapshot,
} from "./prediction.ts";

const NOW = Date.parse("2026-03-10T08:00:00Z");
const SETTINGS: PredictionSettings = {
  lookbackDays: 30,
  minDataPoints: 3,
  safetyMultiplier: 1.2,
  safetyPadding: 10,
  largeDropThreshold: 50,
  largeDropMultiplier: 1.5,
};

/** Snapshots of item "A" from "days ago: quantity" pairs. */
function series(points: [number, number][]): QuantitySnapshot[] {
  return points.map(([daysAgo, quantity]) => ({
    itemNumber: "A",
    quantity,
    takenAt: new Date(NOW - daysAgo * DAY_MS).toISOString(),
  }));
}

function predict(
  points: [number, number][],
  current: number,
  settings: Partial<PredictionSettings> = {},
  intervalDays?: number,
) {
  const s = { ...SETTINGS, ...settings };
  const history = gatherHistory(
    series(points),
    new Map([["A", 0]]),
    (x) => x,
    NOW - s.lookbackDays * DAY_MS,
    NOW,
    1,
  );
  const interval = intervalDays ?? medianGapDays([...history.runTimes, NOW]);
  return { ...predictItem(history, 0, current, NOW, interval, s), interval };
}

Deno.test("prediction: steady sales, required stock = rate × interval × safety + padding", () => {
  const p = predict([[3, 100], [2, 90], [1, 80]], 70);
  assert.equal(p.dataPoints, 4);
  assert.equal(p.dailyRate, 10);
  assert.equal(p.interval, 1);
  assert.equal(p.requiredStock, 10 * 1.2 + 10);
  assert.equal(p.belowRequired, false);
  assert.equal(predict([[3, 100], [2, 90], [1, 80]], 21).belowRequired, true);
});

Deno.test("prediction: restocks are ignored, only decreases count", () => {
  const p = predict([[3, 50], [2, 10], [1, 100]], 60);
  assert.equal(p.dailyRate, 80 / 3);
});

Deno.test("prediction: a large last drop multiplies the required stock", () => {
  // 100, 100, 100, then 40 now: rate 20/day, required 34; the drop of 60 makes it 51.
  const points: [number, number][] = [[3, 100], [2, 100], [1, 100]];
  const large = predict(points, 40);
  assert.equal(large.largeDrop, true);
  assert.equal(large.lastDrop, 60);
  assert.equal(large.requiredStock, (20 * 1.2 + 10) * 1.5);
  assert.equal(large.belowRequired, true);
  assert.match(large.reason, /× 1.5 after a drop of 60/);
  const small = predict(points, 40, { largeDropThreshold: 61 });
  assert.equal(small.largeDrop, false);
  assert.equal(small.requiredStock, 34);
  assert.equal(small.belowRequired, false);
});

Deno.test("prediction: too few data points or snapshots outside the lookback: no rule", () => {
  const few = predict([[2, 100], [1, 90]], 1, { minDataPoints: 4 });
  assert.equal(few.dataPoints, 3);
  assert.equal(few.dailyRate, null);
  assert.equal(few.belowRequired, false);
  assert.match(few.reason, /3 data points in 30 days, fewer than the 4/);
  const old = predict([[40, 500], [35, 300], [1, 90]], 1, { minDataPoints: 3 });
  assert.equal(old.dataPoints, 2);
  assert.equal(old.belowRequired, false);
  const none = predict([], 0, { minDataPoints: 1 });
  assert.equal(none.belowRequired, false);
});

Deno.test("prediction: the update interval is the median gap, at least a day", () => {
  const cases: [number[], number][] = [
    [[], 1],
    [[0], 1],
    [[0, 0.5], 1],
    [[0, 2, 5], 2.5],
    [[0, 1, 2, 10], 1],
    [[0, 3, 6, 9], 3],
  ];
  for (const [days, want] of cases) {
    assert.equal(medianGapDays(days.map((d) => d * DAY_MS)), want, days.join(","));
  }
  // Runs every two days: expected sales cover two days.
  const p = predict([[6, 100], [4, 80], [2, 60]], 40);
  assert.equal(p.interval, 2);
  assert.equal(p.dailyRate, 10);
  assert.equal(p.expectedSales, 20);
});

Deno.test("prediction: arrays in any order are sorted; other iterables must be ordered", () => {
  const sorted = predict([[3, 100], [2, 90], [1, 80]], 70);
  const shuffled = gatherHistory(
    series([[1, 80], [3, 100], [2, 90]]),
    new Map([["A", 0]]),
    (x) => x,
    NOW - 30 * DAY_MS,
    NOW,
    1,
  );
  assert.equal(predictItem(shuffled, 0, 70, NOW, 1, SETTINGS).dailyRate, sorted.dailyRate);
  assert.throws(
    () =>
      gatherHistory(
        series([[1, 80], [3, 100]]).values(),
        new Map([["A", 0]]),
        (x) => x,
        NOW - 30 * DAY_MS,
        NOW,
        1,
      ),
    TypeError,
  );
});

Deno.test("prediction settings: empty values take the spec's examples", () => {
  assert.deepEqual(predictionSettings({ lookbackDays: 7, safetyMultiplier: null }), {
    lookbackDays: 7,
    minDataPoints: 5,
    safetyMultiplier: 1.2,
    safetyPadding: 50,
    largeDropThreshold: 500,
    largeDropMultiplier: 1.5,
  });
});

Deno.test("prediction: the columnar form (one record per run) gives the same history", async () => {
  const { gatherRuns } = await import("./prediction.ts");
  const points: [number, number][] = [[3, 50], [2, 10], [1, 100]];
  const index = new Map([["A", 0], ["B", 1]]);
  const runs = points.map(([daysAgo, quantity]) => ({
    takenAt: new Date(NOW - daysAgo * DAY_MS).toISOString(),
    // A fresh array each run, as a database returns it; B has no quantity in the last run.
    itemNumbers: ["A", "B", "Z"],
    quantities: [quantity, daysAgo === 1 ? NaN : 5, 1],
  }));
  const fromRuns = gatherRuns(runs.reverse(), index, (x) => x, NOW - 30 * DAY_MS, NOW, 2);
  const fromRows = gatherHistory(series(points), index, (x) => x, NOW - 30 * DAY_MS, NOW, 2);
  assert.equal(
    predictItem(fromRuns, 0, 60, NOW, 1, SETTINGS).dailyRate,
    predictItem(fromRows, 0, 60, NOW, 1, SETTINGS).dailyRate,
  );
  assert.equal(fromRuns.count[1], 2);
  assert.equal(fromRuns.runTimes.size, 3);
});
