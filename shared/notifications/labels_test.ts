import assert from "node:assert/strict";
import { NEW_NOTIFICATION_FORM } from "../contract/notifications.ts";
import { includesLabels, intervalLabel, splitLabels, weekdayName } from "./labels.ts";

Deno.test("labels of the list", () => {
  const labels = includesLabels(NEW_NOTIFICATION_FORM);
  assert.deepEqual(labels, [
    "Status Changes",
    "Quantity Changes",
    "Daily Breakdown",
    "Item Details",
    "Error Alerts",
    "Success Alerts",
  ]);
  assert.deepEqual(splitLabels(labels, 2), {
    shown: ["Status Changes", "Quantity Changes"],
    more: 4,
  });
  assert.deepEqual(splitLabels(["a"], 3), { shown: ["a"], more: 0 });
  assert.deepEqual([0, 1, 3, 7, 8, null].map(weekdayName), [
    "Any day",
    "Monday",
    "Wednesday",
    "Sunday",
    "Any day",
    "Any day",
  ]);
  assert.equal(
    intervalLabel({ notificationInterval: "Weekly", notificationDayOfWeek: 5 }),
    "Weekly (Friday)",
  );
  assert.equal(intervalLabel({ notificationInterval: "Daily", notificationDayOfWeek: 5 }), "Daily");
});
