/**
 * SFTP for inventory sources (ssh2-sftp-client): every connection passes the outbound policy,
 * the server's host key is pinned per source on first successful contact and a changed key is
 * refused; uploads are written under a temporary name, then renamed; the pull takes only files
 * whose size and mtime are stable across two looks, once per (path, size, mtime, sha256).
 */
// @ts-types="@types/ssh2-sftp-client"
import SftpClient from "ssh2-sftp-client";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import type { Deps } from "../deps.ts";
import { writeLog } from "../http/log.ts";
import { OutboundRefused, resolveOutbound } from "../net/outbound.ts";
import { createRun } from "../ingest/import_runs.ts";
import { storeImportFile } from "../ingest/import_files.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { extensionOf } from "../../shared/inventory/mod.ts";
import { type SftpSettings, sftpSettings } from "./queries.ts";

/** OpenSSH's fingerprint of a raw host key: `SHA256:` and unpadded base64. */
export function fingerprint(key: Uint8Array): string {
  return "SHA256:" + createHash("sha256").update(key).digest("base64").replace(/=+$/, "");
}

/** A refused host key, login or connection, with the text users see. */
export class SftpError extends Error {
  /**
   * @param needsPerson true when trying again cannot help until someone changes the source (a
   *   refused login, a changed host key); false for a server that may come back.
   */
  constructor(message: string, readonly needsPerson = false) {
    super(message);
    this.name = "SftpError";
  }
}

/**
 * Connects to a source's SFTP server, runs `fn` and disconnects. Errors read: a changed host
 * key (with both fingerprints), a refused login, or `Could not connect to the SFTP server
 * host:port.` (the outbound policy, a refused connection or a time-out alike: telling them
 * apart would map the network, docs/outbound.md); the detail goes to the server log.
 */
export async function withSftp<T>(
  deps: Deps,
  sourceId: number,
  settings: SftpSettings,
  fn: (client: SftpClient) => Promise<T>,
): Promise<T> {
  const { host, port, username } = settings;
  const unreachable = `Could not connect to the SFTP server ${host}:${port}.`;
  let address: string;
  try {
    address = (await resolveOutbound(deps.config, host, port, "the SFTP server")).address;
  } catch (error) {
    if (error instanceof OutboundRefused) {
      writeLog("warn", `SFTP ${host}:${port}: ${error.message}`);
      throw new SftpError(unreachable);
    }
    throw error;
  }
  const hostKey = host.toLowerCase();
  const [pin] = await deps.db.query<{ fingerprint: string }>(
    `select fingerprint from inventory_sftp_host_keys
      where inventory_source_id = $1 and host = $2 and port = $3`,
    [sourceId, hostKey, port],
  );
  let seen: string | null = null;
  const client = new SftpClient();
  try {
    await client.connect({
      host: address,
      port,
      username,
      password: settings.password,
      readyTimeout: 15_000,
      retries: 0,
      hostVerifier: (key: Buffer) => {
        seen = fingerprint(key);
        return !pin || pin.fingerprint === seen;
      },
    } as SftpClient.ConnectOptions);
  } catch (error) {
    await client.end().catch(() => {});
    if (pin && seen && seen !== pin.fingerprint) {
      throw new SftpError(
        `The SFTP server ${host}:${port} presented a different host key (${seen}) from the one ` +
          `pinned on first contact (${pin.fingerprint}); nothing was sent. If the server was ` +
          "re-keyed on purpose, forget the pinned key of this source and retry.",
        true,
      );
    }
    const text = (error as Error).message ?? "";
    if (/authentication|auth methods|permission denied/i.test(text)) {
      throw new SftpError(
        `The SFTP server ${host}:${port} refused the login of "${username}".`,
        true,
      );
    }
    // A network error (refused, time-out, reset) carries no secret: its code and text are logged.
    const code = (error as { code?: string }).code;
    writeLog("warn", `SFTP ${host}:${port}: ${code ? `${code} ` : ""}${text}`.slice(0, 300));
    throw new SftpError(unreachable);
  }
  try {
    if (!pin && seen) {
      await deps.db.query(
        `insert into inventory_sftp_host_keys (inventory_source_id, host, port, fingerprint)
         values ($1, $2, $3, $4) on conflict do nothing`,
        [sourceId, hostKey, port, seen],
      );
    }
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The pinned host keys of a source are forgotten (the next contact pins again). */
export async function forgetHostKeys(deps: Deps, sourceId: number): Promise<number> {
  const rows = await deps.db.query(
    "delete from inventory_sftp_host_keys where inventory_source_id = $1 returning host",
    [sourceId],
  );
  return rows.length;
}

/** The mode of a delivered file: the owner writes, everyone reads (issue 28, finding 7). */
export const DELIVERED_MODE = 0o644;

/**
 * Uploads `bytes` as `fileName` into the session's start directory: written under a temporary
 * name with mode {@link DELIVERED_MODE}, then renamed over the target (posix-rename, else delete
 * and rename).
 */
export async function uploadFile(
  deps: Deps,
  sourceId: number,
  settings: SftpSettings,
  fileName: string,
  bytes: Uint8Array,
): Promise<string> {
  const name = fileName.replace(/[\/\\]/g, "_");
  const temp = `.${name}.${crypto.randomUUID().slice(0, 8)}.part`;
  return await withSftp(deps, sourceId, settings, async (client) => {
    try {
      // 0644 whatever the server's umask (OpenSSH keeps the client's mode: 0666 by default);
      // set before the rename, so the file never appears under its name writable by all.
      await client.put(Buffer.from(bytes), temp, { writeStreamOptions: { mode: DELIVERED_MODE } });
      await client.chmod(temp, DELIVERED_MODE);
      try {
        await client.posixRename(temp, name);
      } catch {
        if (await client.exists(name)) await client.delete(name);
        await client.rename(temp, name);
      }
    } catch (error) {
      await client.delete(temp, true).catch(() => {});
      throw new SftpError(
        `The SFTP server ${settings.host}:${settings.port} refused the file: ${
          (error as Error).message
        }`,
      );
    }
    return name;
  });
}

/** What one look at an inbox folder did. */
export interface PullResult {
  /** Import runs created (files taken). */
  runIds: number[];
  /** Files seen for the first time or changed since the last look (taken at a later look). */
  waiting: number;
  /** Files already taken. */
  known: number;
}

/**
 * Looks at the source's SFTP inbox folder once. A file is taken (stored and recorded as an
 * import run, trigger `sftp`) when this look finds the same size and mtime as the previous one,
 * and only if (path, size, mtime, sha256) was never taken before. Files are left on the server.
 */
export async function pullInbox(deps: Deps, sourceId: number): Promise<PullResult> {
  const result: PullResult = { runIds: [], waiting: 0, known: 0 };
  const [source] = await deps.db.query<{ fileType: string; sourceName: string }>(
    `select file_type as "fileType", source_name as "sourceName" from inventory_sources
      where id = $1 and active_status and not deleted_status`,
    [sourceId],
  );
  const settings = await sftpSettings(deps.db, deps.secrets, sourceId);
  if (!source || !settings || !settings.inboxFolder) return result;
  const folder = settings.inboxFolder.replace(/\/+$/, "") || ".";
  const wanted = source.fileType.trim().toLowerCase();
  const cap = deps.config.MAX_SOURCE_FILE_BYTES;
  // A failed look names the source: it is read in the job's last error and the server log.
  const failed = (error: unknown) =>
    error instanceof SftpError
      ? new SftpError(`SFTP inbox of inventory source "${source.sourceName}": ${error.message}`)
      : error;
  await withSftp(deps, sourceId, settings, async (client) => {
    const entries = await client.list(folder).catch((error) => {
      throw new SftpError(
        `The folder "${folder}" could not be listed: ${(error as Error).message}`,
      );
    });
    const seenPaths: string[] = [];
    for (const entry of entries) {
      if (entry.type !== "-" || entry.name.startsWith(".")) continue;
      if (wanted && extensionOf(entry.name) !== wanted) continue;
      const path = `${folder}/${entry.name}`;
      const size = Number(entry.size);
      const mtime = Number(entry.modifyTime);
      seenPaths.push(path);
      const [taken] = await deps.db.query(
        `select 1 from inventory_sftp_files
          where inventory_source_id = $1 and path = $2 and size = $3 and mtime = $4`,
        [sourceId, path, size, mtime],
      );
      if (taken) {
        result.known++;
        continue;
      }
      const [sighting] = await deps.db.query<{ size: number; mtime: number }>(
        `select size, mtime from inventory_sftp_sightings
          where inventory_source_id = $1 and path = $2`,
        [sourceId, path],
      );
      if (!sighting || Number(sighting.size) !== size || Number(sighting.mtime) !== mtime) {
        await deps.db.query(
          `insert into inventory_sftp_sightings (inventory_source_id, path, size, mtime)
           values ($1, $2, $3, $4)
           on conflict (inventory_source_id, path) do update
             set size = excluded.size, mtime = excluded.mtime, seen_at = now()`,
          [sourceId, path, size, mtime],
        );
        result.waiting++;
        continue;
      }
      // Stable across two looks: take it.
      const bytes = size > cap ? null : new Uint8Array(await client.get(path) as Buffer);
      const sha = bytes ? await sha256Hex(bytes) : "0".repeat(64);
      if (bytes) await storeImportFile(deps.db, bytes);
      const runId = await deps.db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: number }>(
          `insert into inventory_sftp_files (inventory_source_id, path, size, mtime, sha256)
           values ($1, $2, $3, $4, $5) on conflict do nothing returning id`,
          [sourceId, path, size, mtime, sha],
        );
        await tx.query(
          "delete from inventory_sftp_sightings where inventory_source_id = $1 and path = $2",
          [sourceId, path],
        );
        if (!row) return null;
        const id = await createRun(tx, {
          feed: "inventory",
          sourceId,
          trigger: "sftp",
          fileName: entry.name,
          bytes,
          receivedAt: new Date(mtime),
          log: [`Taken from the SFTP inbox: ${path} (${size} bytes).`],
          error: bytes ? undefined : `The file ${path} is larger than the ${cap}-byte cap.`,
        });
        await tx.query("update inventory_sftp_files set import_run_id = $2 where id = $1", [
          row.id,
          id,
        ]);
        return id;
      });
      if (runId) result.runIds.push(runId);
      else result.known++;
    }
    // Files gone from the folder are forgotten from the first looks.
    await deps.db.query(
      `delete from inventory_sftp_sightings
        where inventory_source_id = $1 and not (path = any($2::text[]))`,
      [sourceId, seenPaths],
    );
  }).catch((error) => {
    throw failed(error);
  });
  return result;
}
