/**
 * Contract tests of the /api/accounts calls and the home stats call over real HTTP, as Admin and
 * as a plain user, on PGlite or on PostgreSQL (DATABASE_URL).
 */
import assert from "node:assert/strict";
import { ORDER_TRACKING_COLUMNS } from "../../shared/contract/order_columns.ts";
import { ADMIN_PASSWORD, startTestServer } from "../support/server.ts";
import { testClient, type TestResponse } from "../support/http.ts";

const message = (response: TestResponse) => (response.body as { message: string }).message;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const ACCOUNT_KEYS = [
  "activeStatus",
  "createdOn",
  "email",
  "firstName",
  "inventoryUser",
  "isAdmin",
  "lastLogin",
  "lastName",
  "orderUser",
  "sendNotificationsToEmail",
  "submissionUser",
  "userId",
  "username",
];

Deno.test("accounts contract", async (t) => {
  const server = await startTestServer();
  const { url, db } = server;
  const admin = testClient(url);
  await admin.login("admin", ADMIN_PASSWORD);
  const bobId = await server.createUser({
    username: "bob",
    password: "bob-password",
    email: "bob@test.local",
    orderUser: true,
  });
  const carolId = await server.createUser({ username: "carol", password: "carol-password" });
  const bob = testClient(url);
  await bob.login("bob", "bob-password");
  try {
    await t.step("user-info answers the caller's own record, dates as ISO strings", async () => {
      const response = await bob.get("/api/accounts/user-info/bob");
      assert.equal(response.status, 200);
      const info = response.body as Record<string, unknown>;
      assert.deepEqual(Object.keys(info).sort(), [
        "createdOn",
        "email",
        "firstName",
        "lastLogin",
        "lastName",
        "userId",
        "username",
      ]);
      assert.equal(info.userId, bobId);
      assert.equal(info.username, "bob");
      assert.equal(info.email, "bob@test.local");
      assert.match(String(info.lastLogin), ISO);
      assert.match(String(info.createdOn), ISO);
      // Never logged in: lastLogin is null.
      const carol = await admin.get("/api/accounts/user-info/carol");
      assert.equal((carol.body as { lastLogin: unknown }).lastLogin, null);
    });

    await t.step("user-info of someone else is 403 for a user, allowed for Admin", async () => {
      assert.equal((await bob.get("/api/accounts/user-info/admin")).status, 403);
      // Whether the name exists does not show through a 403.
      assert.equal((await bob.get("/api/accounts/user-info/nobody")).status, 403);
      assert.equal((await admin.get("/api/accounts/user-info/BOB")).status, 200);
      const unknown = await admin.get("/api/accounts/user-info/nobody");
      assert.equal(unknown.status, 404);
      assert.match(message(unknown), /nobody/);
      assert.equal((await testClient(url).get("/api/accounts/user-info/bob")).status, 401);
    });

    await t.step("settings default to every column on, in the spec's order", async () => {
      const response = await bob.get(`/api/accounts/order-tracking-settings?userId=${bobId}`);
      assert.equal(response.status, 200);
      const settings = response.body as { id: number; userId: number; enabledColumns: object };
      assert.equal(settings.id, 0);
      assert.equal(settings.userId, bobId);
      assert.deepEqual(Object.keys(settings.enabledColumns), [...ORDER_TRACKING_COLUMNS]);
      assert.ok(Object.values(settings.enabledColumns).every((on) => on === true));
      const byName = await bob.get("/api/accounts/order-tracking-settings/username?userName=bob");
      assert.deepEqual(byName.body, settings);
    });

    await t.step("saving settings persists them; userId 0 means the caller", async () => {
      const saved = await bob.post("/api/accounts/update/order-tracking-settings", {
        id: 0,
        userId: 0,
        enabledColumns: {
          id: 0,
          userOrderTrackingViewSettingsId: 0,
          notes: false,
          PODate: false,
          wildcard1: null,
        },
      });
      assert.equal(saved.status, 200);
      const body = saved.body as {
        id: number;
        userId: number;
        enabledColumns: Record<string, boolean>;
      };
      assert.equal(body.userId, bobId);
      assert.ok(body.id > 0);
      assert.equal(body.enabledColumns.notes, false);
      assert.equal(body.enabledColumns.poDate, false);
      assert.equal(body.enabledColumns.wildcard1, false);
      assert.equal(body.enabledColumns.qty, true);
      assert.equal("id" in body.enabledColumns, false);
      const again = await bob.get(`/api/accounts/order-tracking-settings?userId=${bobId}`);
      assert.deepEqual(again.body, body);
      // A later save of one column keeps the others.
      const second = await bob.post("/api/accounts/update/order-tracking-settings", {
        Id: body.id,
        UserId: bobId,
        EnabledColumns: { notes: true },
      });
      const columns = (second.body as { enabledColumns: Record<string, boolean> }).enabledColumns;
      assert.equal(columns.notes, true);
      assert.equal(columns.poDate, false);
    });

    await t.step("settings of someone else: 403 for a user, Admin may; bad input 400", async () => {
      assert.equal(
        (await bob.get(`/api/accounts/order-tracking-settings?userId=${carolId}`)).status,
        403,
      );
      assert.equal(
        (await bob.get("/api/accounts/order-tracking-settings/username?userName=carol")).status,
        403,
      );
      assert.equal(
        (await bob.post("/api/accounts/update/order-tracking-settings", {
          userId: carolId,
          enabledColumns: { notes: false },
        })).status,
        403,
      );
      const byAdmin = await admin.get(`/api/accounts/order-tracking-settings?userId=${bobId}`);
      assert.equal(
        (byAdmin.body as { enabledColumns: { poDate: boolean } }).enabledColumns.poDate,
        false,
      );
      assert.equal(
        (await admin.get("/api/accounts/order-tracking-settings?userId=999")).status,
        404,
      );
      assert.equal(
        (await admin.get("/api/accounts/order-tracking-settings/username?userName=ghost")).status,
        404,
      );
      const unknownColumn = await bob.post("/api/accounts/update/order-tracking-settings", {
        userId: 0,
        enabledColumns: { favouriteColour: true },
      });
      assert.equal(unknownColumn.status, 400);
      assert.match(message(unknownColumn), /favouriteColour/);
      const notBoolean = await bob.post("/api/accounts/update/order-tracking-settings", {
        userId: 0,
        enabledColumns: { notes: "yes" },
      });
      assert.equal(notBoolean.status, 400);
      assert.equal((await bob.get("/api/accounts/order-tracking-settings?userId=abc")).status, 400);
      assert.equal((await bob.get("/api/accounts/order-tracking-settings")).status, 400);
    });

    await t.step("update/user-info saves e-mail and names and answers them", async () => {
      const response = await bob.post("/api/accounts/update/user-info", {
        UserID: bobId,
        Email: "  bob@example.com ",
        FirstName: "Bob",
        LastName: "Builder",
      });
      assert.equal(response.status, 200);
      const info = response.body as Record<string, unknown>;
      assert.equal(info.email, "bob@example.com");
      assert.equal(info.firstName, "Bob");
      assert.equal(info.lastName, "Builder");
      const read = await bob.get("/api/accounts/user-info/bob");
      assert.equal((read.body as { firstName: string }).firstName, "Bob");
    });

    await t.step(
      "update/user-info refuses bad e-mail, others' accounts and unknown ids",
      async () => {
        const bad = await bob.post("/api/accounts/update/user-info", {
          UserID: bobId,
          Email: "not-an-address",
          FirstName: "",
          LastName: "",
        });
        assert.equal(bad.status, 400);
        assert.match(message(bad), /valid email/);
        const other = await bob.post("/api/accounts/update/user-info", {
          UserID: carolId,
          Email: "",
          FirstName: "Hacked",
          LastName: "",
        });
        assert.equal(other.status, 403);
        const carol = await admin.get(`/api/accounts/user/${carolId}`);
        assert.notEqual((carol.body as { firstName: string }).firstName, "Hacked");
        const byAdmin = await admin.post("/api/accounts/update/user-info", {
          UserID: carolId,
          Email: "",
          FirstName: "Carol",
          LastName: "",
        });
        assert.equal(byAdmin.status, 200);
        const unknown = await admin.post("/api/accounts/update/user-info", {
          UserID: 999,
          Email: "",
          FirstName: "",
          LastName: "",
        });
        assert.equal(unknown.status, 404);
      },
    );

    await t.step("update/username renames and resets only the X-Username cookie", async () => {
      const client = testClient(url);
      await client.login("carol", "carol-password");
      const response = await client.post("/api/accounts/update/username", {
        UserID: carolId,
        OldUsername: "carol",
        NewUsername: "caroline",
      });
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { username: "caroline" });
      assert.equal(response.setCookies.length, 1);
      assert.match(response.setCookies[0], /^X-Username=caroline;/);
      // The session goes on under the new name, and the old name no longer logs in.
      assert.equal((await client.get("/api/accounts/user-info/caroline")).status, 200);
      assert.equal(
        (await testClient(url).post("/auth/login", {
          username: "carol",
          password: "carol-password",
        })).status,
        401,
      );
      await testClient(url).login("caroline", "carol-password");
    });

    await t.step("update/username refuses a taken name (any case) with 409 naming it", async () => {
      const taken = await bob.post("/api/accounts/update/username", {
        UserID: bobId,
        OldUsername: "bob",
        NewUsername: "CAROLINE",
      });
      assert.equal(taken.status, 409);
      assert.match(message(taken), /CAROLINE/);
      const blank = await bob.post("/api/accounts/update/username", {
        UserID: bobId,
        OldUsername: "bob",
        NewUsername: "  ",
      });
      assert.equal(blank.status, 400);
      assert.match(message(blank), /Username is required/);
      const stale = await bob.post("/api/accounts/update/username", {
        UserID: bobId,
        OldUsername: "robert",
        NewUsername: "bobby",
      });
      assert.equal(stale.status, 400);
      const other = await bob.post("/api/accounts/update/username", {
        UserID: carolId,
        OldUsername: "caroline",
        NewUsername: "mallory",
      });
      assert.equal(other.status, 403);
      const unknown = await admin.post("/api/accounts/update/username", {
        UserID: 999,
        OldUsername: "x",
        NewUsername: "ghost",
      });
      assert.equal(unknown.status, 404);
      // A change of case of one's own name is allowed.
      const recased = await bob.post("/api/accounts/update/username", {
        UserID: bobId,
        OldUsername: "bob",
        NewUsername: "Bob",
      });
      assert.equal(recased.status, 200);
    });

    await t.step("an admin renaming someone else leaves the admin's cookie alone", async () => {
      const response = await admin.post("/api/accounts/update/username", {
        UserID: carolId,
        OldUsername: "caroline",
        NewUsername: "carol",
      });
      assert.equal(response.status, 200);
      assert.equal(response.setCookies.length, 0);
    });

    await t.step("update/password needs the current password", async () => {
      const wrong = await bob.post("/api/accounts/update/password", {
        UserID: bobId,
        Username: "Bob",
        OldPassword: "not-my-password",
        NewPassword: "bob-new-password",
      });
      assert.equal(wrong.status, 400);
      assert.equal(message(wrong), "Current password is incorrect.");
      const short = await bob.post("/api/accounts/update/password", {
        UserID: bobId,
        Username: "Bob",
        OldPassword: "bob-password",
        NewPassword: "short",
      });
      assert.equal(short.status, 400);
      assert.match(message(short), /at least 8 characters/);
      const other = await bob.post("/api/accounts/update/password", {
        UserID: carolId,
        Username: "carol",
        OldPassword: "carol-password",
        NewPassword: "taken-over-1",
      });
      assert.equal(other.status, 403);
      // Nothing changed: the old password still works.
      await testClient(url).login("bob", "bob-password");
    });

    await t.step("a password change ends the user's other sessions, not this one", async () => {
      const elsewhere = testClient(url);
      await elsewhere.login("bob", "bob-password");
      const response = await bob.post("/api/accounts/update/password", {
        UserID: bobId,
        Username: "Bob",
        OldPassword: "bob-password",
        NewPassword: "bob-new-password",
      });
      assert.equal(response.status, 204);
      assert.equal((await bob.get("/auth/allowed")).status, 200);
      assert.equal((await elsewhere.get("/auth/allowed")).status, 401);
      assert.equal((await elsewhere.post("/auth/refresh-token")).status, 401);
      assert.equal(
        (await testClient(url).post("/auth/login", { username: "bob", password: "bob-password" }))
          .status,
        401,
      );
      await testClient(url).login("bob", "bob-new-password");
    });

    await t.step("count, list and user/{id} are Admin only", async () => {
      for (
        const path of ["/api/accounts/count", "/api/accounts/list", `/api/accounts/user/${bobId}`]
      ) {
        const response = await bob.get(path);
        assert.equal(response.status, 403, path);
        assert.equal(typeof message(response), "string");
      }
      const count = await admin.get("/api/accounts/count");
      assert.equal(count.status, 200);
      assert.equal(count.body, 3);
      const list = await admin.get("/api/accounts/list");
      const users = list.body as Record<string, unknown>[];
      assert.deepEqual(users.map((u) => u.username), ["admin", "Bob", "carol"]);
      for (const user of users) assert.deepEqual(Object.keys(user).sort(), ACCOUNT_KEYS);
      assert.equal(users[0].isAdmin, true);
      assert.equal(users[1].isAdmin, false);
      assert.equal(users[1].orderUser, true);
      const one = await admin.get(`/api/accounts/user/${bobId}`);
      assert.deepEqual(one.body, users[1]);
      assert.equal((await admin.get("/api/accounts/user/999")).status, 404);
      assert.equal((await admin.get("/api/accounts/user/abc")).status, 400);
      assert.doesNotMatch(JSON.stringify(list.body), /argon2|password/i);
    });

    let daveId = 0;
    await t.step("update/user with userId 0 creates with the new-user defaults", async () => {
      const response = await admin.post("/api/accounts/update/user", {
        userId: 0,
        username: "dave",
        email: "dave@test.local",
        firstName: "Dave",
        lastName: "",
        password: "",
      });
      assert.equal(response.status, 200);
      const dave = response.body as Record<string, unknown>;
      daveId = dave.userId as number;
      assert.ok(daveId > 0);
      assert.equal(dave.orderUser, true);
      assert.equal(dave.activeStatus, false);
      assert.equal(dave.isAdmin, false);
      assert.equal(dave.inventoryUser, false);
      const [row] = await db.query<{ hash: string | null }>(
        "select password_hash as hash from users where id = $1",
        [daveId],
      );
      assert.equal(row.hash, null);
      assert.equal((await admin.get("/api/accounts/count")).body, 4);
    });

    await t.step("update/user edits; a blank password keeps the old one", async () => {
      const response = await admin.post("/api/accounts/update/user", {
        UserId: bobId,
        Username: "bob",
        Email: "bob@example.com",
        FirstName: "Bob",
        LastName: "B.",
        IsAdmin: false,
        InventoryUser: "True",
        OrderUser: true,
        SubmissionUser: false,
        SendNotificationsToEmail: true,
        ActiveStatus: true,
        Password: "",
      });
      assert.equal(response.status, 200);
      const saved = response.body as Record<string, unknown>;
      assert.equal(saved.username, "bob");
      assert.equal(saved.inventoryUser, true);
      assert.equal(saved.sendNotificationsToEmail, true);
      assert.equal(saved.lastName, "B.");
      await testClient(url).login("bob", "bob-new-password");
      // The flag is enforced at once on bob's existing session.
      assert.equal((await bob.get("/auth/user")).status, 200);
      assert.equal(
        ((await bob.get("/auth/user")).body as { inventoryUser: string }).inventoryUser,
        "True",
      );
    });

    await t.step("update/user sets a password; the user's sessions end", async () => {
      const response = await admin.post("/api/accounts/update/user", {
        userId: daveId,
        username: "dave",
        email: "dave@test.local",
        activeStatus: true,
        password: "dave-password",
      });
      assert.equal(response.status, 200);
      const dave = testClient(url);
      await dave.login("dave", "dave-password");
      await admin.post("/api/accounts/update/user", {
        userId: daveId,
        username: "dave",
        email: "dave@test.local",
        password: "dave-password-2",
      });
      assert.equal((await dave.get("/auth/allowed")).status, 401);
      await testClient(url).login("dave", "dave-password-2");
    });

    await t.step("deactivating a user ends their sessions and stops their login", async () => {
      const dave = testClient(url);
      await dave.login("dave", "dave-password-2");
      const response = await admin.post("/api/accounts/update/user", {
        userId: daveId,
        username: "dave",
        email: "dave@test.local",
        activeStatus: false,
      });
      assert.equal(response.status, 200);
      assert.equal((await dave.get("/auth/allowed")).status, 401);
      assert.equal((await dave.post("/auth/refresh-token")).status, 401);
      const [{ open }] = await db.query<{ open: number }>(
        "select count(*)::int as open from sessions where user_id = $1 and revoked_at is null",
        [daveId],
      );
      assert.equal(open, 0);
    });

    await t.step("update/user refuses bad input with clear messages", async () => {
      const cases: [string, Record<string, unknown>, number, RegExp][] = [
        [
          "duplicate username",
          { userId: 0, username: "BOB", email: "x@test.local" },
          409,
          /"BOB" is already taken/,
        ],
        [
          "rename onto another user",
          { userId: daveId, username: "carol", email: "x@test.local" },
          409,
          /"carol"/,
        ],
        [
          "invalid e-mail",
          { userId: 0, username: "erin", email: "erin-at-home" },
          400,
          /valid email/,
        ],
        ["missing e-mail", { userId: 0, username: "erin" }, 400, /email/i],
        [
          "blank username",
          { userId: 0, username: " ", email: "e@test.local" },
          400,
          /Username is required/,
        ],
        [
          "short password",
          { userId: 0, username: "erin", email: "e@test.local", password: "abc" },
          400,
          /at least 8/,
        ],
        [
          "bad flag",
          { userId: 0, username: "erin", email: "e@test.local", isAdmin: "maybe" },
          400,
          /isAdmin/,
        ],
        ["unknown id", { userId: 999, username: "erin", email: "e@test.local" }, 404, /User 999/],
      ];
      for (const [name, payload, status, text] of cases) {
        const response = await admin.post("/api/accounts/update/user", payload);
        assert.equal(response.status, status, name);
        assert.match(message(response), text, name);
      }
      assert.equal((await admin.get("/api/accounts/count")).body, 4);
    });

    await t.step("an admin cannot demote, deactivate or delete themself", async () => {
      const demote = await admin.post("/api/accounts/update/user", {
        userId: 1,
        username: "admin",
        email: "admin@test.local",
        isAdmin: false,
      });
      assert.equal(demote.status, 400);
      assert.match(message(demote), /Admin role from your own account/);
      const deactivate = await admin.post("/api/accounts/update/user", {
        userId: 1,
        username: "admin",
        email: "admin@test.local",
        activeStatus: false,
      });
      assert.equal(deactivate.status, 400);
      assert.match(message(deactivate), /deactivate your own account/);
      const remove = await admin.post("/api/accounts/delete/1");
      assert.equal(remove.status, 400);
      assert.match(message(remove), /delete your own account/);
      assert.equal(((await admin.get("/auth/user")).body as { role: string }).role, "Admin");
    });

    await t.step("update/user and delete are Admin only", async () => {
      const save = await bob.post("/api/accounts/update/user", {
        userId: bobId,
        username: "bob",
        email: "bob@example.com",
        isAdmin: true,
      });
      assert.equal(save.status, 403);
      assert.equal(((await bob.get("/auth/user")).body as { role: string }).role, "User");
      assert.equal((await bob.post(`/api/accounts/delete/${carolId}`)).status, 403);
      assert.equal((await admin.get(`/api/accounts/user/${carolId}`)).status, 200);
    });

    await t.step("delete removes the user and ends their sessions", async () => {
      const carol = testClient(url);
      await carol.login("carol", "carol-password");
      const response = await admin.post(`/api/accounts/delete/${carolId}`);
      assert.equal(response.status, 204);
      assert.equal((await carol.get("/auth/allowed")).status, 401);
      assert.equal((await carol.post("/auth/refresh-token")).status, 401);
      assert.equal((await admin.get(`/api/accounts/user/${carolId}`)).status, 404);
      assert.equal((await admin.post(`/api/accounts/delete/${carolId}`)).status, 404);
      assert.equal((await admin.post("/api/accounts/delete/abc")).status, 400);
      assert.equal((await admin.get("/api/accounts/count")).body, 3);
    });

    await t.step("update-stats answers every logged-in user with an array", async () => {
      const response = await bob.get("/api/order-tracking/list/update-stats");
      assert.equal(response.status, 200);
      assert.ok(Array.isArray(response.body));
      assert.equal(
        (await testClient(url).get("/api/order-tracking/list/update-stats")).status,
        401,
      );
    });
  } finally {
    await server.close();
  }
});
