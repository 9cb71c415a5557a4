import assert from "node:assert/strict";
import { normaliseUsername, usernameProblem } from "./usernames.ts";
import { saveUserRequest, updateUsernameRequest } from "./accounts.ts";
import { loginRequest } from "./auth.ts";

Deno.test("usernames: normalised, and refused with invisible characters or mixed scripts", () => {
  const cases: [string, string, RegExp | null][] = [
    ["alice", "alice", null],
    ["  jörg.müller-2 ", "jörg.müller-2", null],
    ["ｐａｖｅｌ", "pavel", null], // full-width letters
    ["Пётр", "Пётр", null],
    ["山田たろう", "山田たろう", null], // Han with Hiragana belongs together
    ["αβγ", "αβγ", null],
    ["\u0430dmin", "\u0430dmin", /mix letters from different scripts/], // Cyrillic а + Latin
    ["pаypal", "pаypal", /mix letters/],
    ["admin\u202E", "admin\u202E", /text-direction/],
    ["ad\u2066min", "ad\u2066min", /text-direction/],
    ["ad\u200Fmin", "ad\u200Fmin", /text-direction/],
    ["ad\u061Cmin", "ad\u061Cmin", /text-direction/],
    ["ad\u200Bmin", "ad\u200Bmin", /zero-width/],
    ["ad\u2060min", "ad\u2060min", /zero-width/],
    ["ad\uFEFFmin", "ad\uFEFFmin", /zero-width/],
    ["ad\u0007min", "ad\u0007min", /control characters/],
    ["ad min", "ad min", /spaces/],
  ];
  for (const [input, normalised, problem] of cases) {
    assert.equal(normaliseUsername(input), normalised, JSON.stringify(input));
    const found = usernameProblem(normaliseUsername(input));
    if (problem) assert.match(found ?? "", problem, JSON.stringify(input));
    else assert.equal(found, null, JSON.stringify(input));
  }
});

Deno.test("the contract schemas normalise and name the field", () => {
  const created = saveUserRequest.parse({ userId: 0, username: "ｐａｖｅｌ", email: "p@x.io" });
  assert.equal(created.username, "pavel");
  const mixed = updateUsernameRequest.safeParse({ userId: 1, newUsername: "\u0430dmin" });
  assert.equal(mixed.success, false);
  assert.match(mixed.error!.issues[0].message, /^Username cannot mix/);
  assert.deepEqual(mixed.error!.issues[0].path, ["newUsername"]);
  assert.equal(loginRequest.parse({ username: " ＡＤＭＩＮ ", password: "x" }).username, "ADMIN");
});
