/**
 * `deno task rotate-key` (scripts/rotate_key.ts): every stored secret re-encrypted under the new
 * key in one transaction; a value the current key cannot read changes nothing; a second run is
 * a no-op; the command replaces `DATA_DIR/secret.key`. On PGlite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { startTestServer } from "../support/server.ts";
import { rotateSecrets } from "../../scripts/rotate_key.ts";
import { generateSecretKey, secretBox } from "../../api/secrets.ts";

Deno.test("rotateSecrets re-encrypts every stored secret, all or nothing", async () => {
  const t = await startTestServer();
  try {
    const from = t.server.deps.secrets;
    const to = await secretBox(generateSecretKey());
    await t.db.query(
      `insert into email_sources (username, email, password_enc) values
         ('a@example.test', 'a@example.test', $1), ('b@example.test', 'b@example.test', '')`,
      [await from.encrypt("mailbox-pass")],
    );
    await t.db.query(
      `insert into inventory_sources (source_name, sftp_password_enc) values ('inv', $1), ('none', null)`,
      [await from.encrypt("sftp-pass")],
    );
    await t.db.query(
      `insert into notification_settings
         (name, notification_interval, source_type_id, time_zone, webhook_preset,
          webhook_url_secret_enc, webhook_secret_enc)
       values ('hook', 'Daily', 1, 'UTC', 'slack', $1, $2)`,
      [await from.encrypt("https://hooks.example/T1"), await from.encrypt("signing-key")],
    );
    await t.db.query(
      `insert into url_feeds (feed, source_id, url, every_seconds, auth_kind, secret_enc)
       values ('inventory', 1, 'https://feeds.example/stock.csv', 900, 'header', $1)`,
      [await from.encrypt("feed-token")],
    );
    const counts = await rotateSecrets(t.db, from, to);
    assert.deepEqual(counts, {
      "email_sources.password_enc": 1,
      "inventory_sources.sftp_password_enc": 1,
      "notification_settings.webhook_secret_enc": 1,
      "notification_settings.webhook_url_secret_enc": 1,
      "url_feeds.secret_enc": 1,
    });
    const [hook] = await t.db.query<{ enc: string }>(
      "select webhook_url_secret_enc as enc from notification_settings where name = 'hook'",
    );
    const [feed] = await t.db.query<{ enc: string }>("select secret_enc as enc from url_feeds");
    assert.equal(await to.decrypt(hook.enc), "https://hooks.example/T1");
    assert.equal(await to.decrypt(feed.enc), "feed-token");
    const [mail] = await t.db.query<{ enc: string }>(
      "select password_enc as enc from email_sources where username = 'a@example.test'",
    );
    const [sftp] = await t.db.query<{ enc: string }>(
      "select sftp_password_enc as enc from inventory_sources where source_name = 'inv'",
    );
    assert.equal(await to.decrypt(mail.enc), "mailbox-pass");
    assert.equal(await to.decrypt(sftp.enc), "sftp-pass");
    await assert.rejects(() => from.decrypt(mail.enc));
    // Run again (an interrupted rotation retried): nothing left to change.
    assert.deepEqual(Object.values(await rotateSecrets(t.db, from, to)), [0, 0, 0, 0, 0]);

    // A value under a third key: refused, and the good rows stay as they were.
    const stranger = await secretBox(generateSecretKey());
    await t.db.query(
      "update inventory_sources set sftp_password_enc = $1 where source_name = 'inv'",
      [
        await stranger.encrypt("x"),
      ],
    );
    const next = await secretBox(generateSecretKey());
    await assert.rejects(
      () => rotateSecrets(t.db, to, next),
      /inventory_sources\.sftp_password_enc: a stored secret cannot be decrypted.*nothing was changed/,
    );
    const [still] = await t.db.query<{ enc: string }>(
      "select password_enc as enc from email_sources where username = 'a@example.test'",
    );
    assert.equal(still.enc, mail.enc);
  } finally {
    await t.close();
  }
});

Deno.test("deno task rotate-key replaces DATA_DIR/secret.key", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "rotate-key-test-" });
  const root = new URL("../../", import.meta.url).pathname;
  try {
    const oldKey = generateSecretKey();
    await Deno.writeTextFile(`${dataDir}/secret.key`, oldKey + "\n");
    const newKey = generateSecretKey();
    // DATABASE_URL emptied: the command works on this data directory, never the shared server.
    const env = { DATA_DIR: dataDir, NEW_SECRET_KEY: newKey, DATABASE_URL: "", SECRET_KEY: "" };
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${root}scripts/rotate_key.ts`],
      cwd: root,
      env,
      clearEnv: false,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.equal((await Deno.readTextFile(`${dataDir}/secret.key`)).trim(), newKey);
    assert.equal((await Deno.readTextFile(`${dataDir}/secret.key.old`)).trim(), oldKey);
    await assert.rejects(() => Deno.stat(`${dataDir}/pglite/owner.lock`));
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
