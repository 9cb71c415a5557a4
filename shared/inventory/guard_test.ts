import assert from "node:assert/strict";
import { guard, guardByIndex, type ItemStatusEntry, previousByIndex } from "./guard.ts";
import { itemKey, parseCatalogue } from "./items.ts";
import type { ItemStatus } from "../contract/inventory.ts";

const run = (spec: string): ItemStatusEntry[] =>
  spec.split(" ").filter(Boolean).map((s) => ({
    itemNumber: s.slice(0, -1),
    status: s.endsWith("+") ? "Active" : "Inactive",
  }));

Deno.test("guard: flips both ways, held only above the threshold", () => {
  const cases: {
    name: string;
    before: string;
    after: string;
    threshold?: number;
    held: boolean;
    flips: string[];
  }[] = [
    { name: "no change", before: "a+ b+ c-", after: "a+ b+ c-", held: false, flips: [] },
    {
      name: "half is not more than half",
      before: "a+ b+",
      after: "a+ b-",
      held: false,
      flips: ["b+-"],
    },
    {
      name: "two of three",
      before: "a+ b+ c+",
      after: "a- b- c+",
      held: true,
      flips: ["a+-", "b+-"],
    },
    { name: "back to active", before: "a- b+", after: "a+ b+", held: false, flips: ["a-+"] },
    {
      name: "threshold 0.2",
      before: "a+ b+ c+ d+ e+",
      after: "a- b+ c+ d+ e+",
      threshold: 0.1,
      held: true,
      flips: ["a+-"],
    },
    { name: "new items do not flip", before: "a+", after: "a+ b-", held: false, flips: [] },
    {
      name: "removed items do not count",
      before: "a+ b+ c+",
      after: "a-",
      held: true,
      flips: ["a+-"],
    },
    { name: "nothing previously active", before: "a- b-", after: "a- b-", held: false, flips: [] },
  ];
  for (const c of cases) {
    const v = guard(run(c.after), run(c.before), c.threshold);
    assert.equal(v.held, c.held, c.name);
    assert.deepEqual(
      v.flips.map((f) =>
        `${f.itemNumber}${f.from === "Active" ? "+" : "-"}${f.to === "Active" ? "+" : "-"}`
      ),
      c.flips,
      c.name,
    );
  }
});

Deno.test("guard: without a previous run nothing is compared or held", () => {
  for (const previous of [null, undefined, []]) {
    const v = guard(run("a- b-"), previous);
    assert.equal(v.compared, false);
    assert.equal(v.held, false);
  }
});

Deno.test("guard: items matched by the source's key (leading zeros)", () => {
  const v = guard(run("7-"), run("007+"), 0.5, (s) => s.replace(/^0+/, ""));
  assert.equal(v.held, true);
  assert.equal(v.flips[0].itemNumber, "7");
});

Deno.test("guardByIndex gives guard's verdict for a catalogue-ordered run", () => {
  const key = (s: string) => itemKey(s, true);
  const { items, indexOf } = parseCatalogue("A1, 002, B3, C4, D5, 6", true);
  const current = items.map((itemNumber, i) => ({
    itemNumber,
    status: (i % 3 === 0 ? "Inactive" : "Active") as ItemStatus,
  }));
  const previousLists: (ItemStatusEntry[] | null)[] = [
    null,
    [],
    [{ itemNumber: "zz", status: "Active" }],
    items.map((itemNumber) => ({ itemNumber, status: "Active" })),
    [
      { itemNumber: " 2", status: "Inactive" },
      { itemNumber: "0002", status: "Active" }, // the last entry of an item wins
      { itemNumber: "C4", status: "Inactive" },
      { itemNumber: "A1", status: "Active" },
      { itemNumber: "gone", status: "Active" },
    ],
  ];
  for (const previous of previousLists) {
    for (const threshold of [0, 0.3, 0.9]) {
      assert.deepEqual(
        guardByIndex(current, previousByIndex(previous, indexOf, key), threshold),
        guard(current, previous, threshold, key),
        JSON.stringify({ previous, threshold }),
      );
    }
  }
});
