/**
 * `deno task rotate-key`: re-encrypts every stored secret (mailbox passwords and MSAL secrets in
 * `email_sources.password_enc`, inventory SFTP passwords in `inventory_sources.sftp_password_enc`,
 * and any later column named `*_enc`) from the current key to a new one, in one transaction: all
 * or nothing (docs/operations.md, "Rotating SECRET_KEY").
 *
 * Run it with web and workers stopped (with PGlite the lock enforces it). The old key is the
 * configured one (`SECRET_KEY`, else `DATA_DIR/secret.key`); the new key comes from
 * `NEW_SECRET_KEY`, or is generated with `--generate`. When the old key came from
 * `DATA_DIR/secret.key`, the new key replaces it there (the old one is kept as
 * `secret.key.old` until you delete it); with `SECRET_KEY`, set the new value before the next
 * start.
 *
 *     NEW_SECRET_KEY=$(openssl rand -base64 32) deno task rotate-key
 *     deno task rotate-key --generate
 */
import { ConfigError, loadConfig } from "../api/config.ts";
import type { Db } from "../api/db/client.ts";
import { openDb } from "../api/db/client.ts";
import { DbLockedError } from "../api/db/lock.ts";
import { generateSecretKey, loadSecretKey, type SecretBox, secretBox } from "../api/secrets.ts";

/** What a rotation changed, per `table.column`. */
export type RotationCounts = Record<string, number>;

/** The encrypted columns: every `*_enc` text column of the public schema. */
async function encryptedColumns(db: Db): Promise<{ table: string; column: string }[]> {
  return await db.query<{ table: string; column: string }>(
    `select table_name as "table", column_name as "column" from information_schema.columns
      where table_schema = current_schema() and column_name like '%\\_enc' escape '\\'
        and data_type = 'text'
      order by table_name, column_name`,
  );
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Re-encrypts every stored secret from `from` to `to` in one transaction; throws (changing
 * nothing) when a value was not encrypted with `from`. Values already under `to` are left alone,
 * so an interrupted rotation can be run again.
 *
 * @example
 * ```ts ignore
 * const counts = await rotateSecrets(db, await secretBox(oldKey), await secretBox(newKey));
 * ```
 */
export async function rotateSecrets(
  db: Db,
  from: SecretBox,
  to: SecretBox,
): Promise<RotationCounts> {
  const counts: RotationCounts = {};
  await db.transaction(async (tx) => {
    for (const { table, column } of await encryptedColumns(tx)) {
      const rows = await tx.query<{ ctid: string; value: string }>(
        `select ctid::text as ctid, ${quote(column)} as value from ${quote(table)}
          where ${quote(column)} is not null and ${quote(column)} <> '' for update`,
      );
      let changed = 0;
      for (const row of rows) {
        if (row.value.split(".")[1] === to.keyId) continue;
        let plain: string;
        try {
          plain = await from.decrypt(row.value);
        } catch (error) {
          // Never the value: only where it is and why it cannot be read.
          throw new Error(
            `${table}.${column}: a stored secret cannot be decrypted with the current key ` +
              `(${(error as Error).message}); nothing was changed.`,
          );
        }
        await tx.query(
          `update ${quote(table)} set ${quote(column)} = $1 where ctid = $2::tid`,
          [await to.encrypt(plain), row.ctid],
        );
        changed++;
      }
      counts[`${table}.${column}`] = changed;
    }
  });
  return counts;
}

async function main(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(
      "Usage: NEW_SECRET_KEY=<32 bytes base64> deno task rotate-key\n" +
        "       deno task rotate-key --generate\n" +
        "Re-encrypts every stored secret with the new key, in one transaction. Stop the server " +
        "and the workers first.",
    );
    return 0;
  }
  const config = loadConfig();
  const newKey = Deno.env.get("NEW_SECRET_KEY") ||
    (args.includes("--generate") ? generateSecretKey() : "");
  if (!newKey) {
    console.error("Set NEW_SECRET_KEY (32 bytes in base64) or pass --generate.");
    return 2;
  }
  const memory = config.DATA_DIR === "memory://";
  const keyFile = !config.SECRET_KEY && !memory ? `${config.DATA_DIR}/secret.key` : null;
  const oldKey = await loadSecretKey(config.SECRET_KEY, memory ? undefined : config.DATA_DIR);
  const from = await secretBox(oldKey);
  let to: SecretBox;
  try {
    to = await secretBox(newKey);
  } catch (error) {
    console.error(`NEW_SECRET_KEY: ${(error as Error).message}`);
    return 2;
  }
  const db = await openDb({
    url: config.DATABASE_URL,
    dataDir: memory ? "memory://" : `${config.DATA_DIR}/pglite`,
  });
  try {
    const counts = await rotateSecrets(db, from, to);
    for (const [where, n] of Object.entries(counts)) console.log(`${where}: ${n} re-encrypted`);
  } finally {
    await db.close();
  }
  if (keyFile) {
    await Deno.writeTextFile(`${keyFile}.old`, oldKey + "\n", { mode: 0o600 });
    const temp = `${keyFile}.new`;
    await Deno.writeTextFile(temp, newKey + "\n", { mode: 0o600 });
    await Deno.rename(temp, keyFile);
    console.log(`The new key is in ${keyFile} (the old one in ${keyFile}.old: delete it).`);
  } else {
    console.log(
      `Set SECRET_KEY to the new key before the next start${
        args.includes("--generate") ? `: ${newKey}` : ""
      }.`,
    );
  }
  return 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof DbLockedError)) {
      console.error((error as Error).message);
      Deno.exit(1);
    }
    console.error(error.message);
    Deno.exit(1);
  }
}
