/**
 * Only areas that declare `writesSessions` (api/feature.ts) change users, sessions or session
 * tokens: after their requests the process reads `session_changes` again, so a logout or a
 * deactivation holds for the very next request (docs/auth.md, "Sessions remembered by a
 * process"). Every other area's requests leave that to the check once a second, which is safe
 * only while no code of theirs writes those tables, directly or through a function of api/auth/.
 */
import assert from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FEATURES, SESSION_WRITERS } from "../api/features.ts";
import { sourceFiles } from "./support/source_files.ts";

const API = join(resolve(dirname(fileURLToPath(import.meta.url)), ".."), "api");

/** A statement that writes a table whose rows decide who a remembered token belongs to. */
const WRITES = /\b(update|insert\s+into|delete\s+from)\s+(users|sessions|session_tokens)\b/i;

/** The module's functions by name, each with its text up to the next top-level function. */
function functionsOf(text: string): Map<string, string> {
  const starts = [...text.matchAll(/^(?:export )?(?:async )?function\*? (\w+)/gm)];
  return new Map(
    starts.map((m, i) => [m[1], text.slice(m.index, starts[i + 1]?.index ?? text.length)]),
  );
}

/** Functions that write, directly or by calling one that does, among `bodies`. */
function writers(bodies: Map<string, string>): Set<string> {
  const found = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, body] of bodies) {
      if (found.has(name)) continue;
      if (WRITES.test(body) || [...found].some((w) => new RegExp(`\\b${w}\\(`).test(body))) {
        found.add(name);
        grew = true;
      }
    }
  }
  return found;
}

/** The modules (tests left out) under `dir`, with their text. */
async function sources(dir: string): Promise<{ path: string; text: string }[]> {
  const files: { path: string; text: string }[] = [];
  for await (const path of sourceFiles(dir, { tests: false })) {
    files.push({ path, text: await Deno.readTextFile(path) });
  }
  return files;
}

Deno.test("the writer finder follows calls between functions", () => {
  const bodies = functionsOf(`
export async function revoke(db) {
  await db.query("update sessions set revoked_at = now() where id = $1", [id]);
}
async function endAll(db) {
  await revoke(db);
}
export function lookup(db) {
  return db.query("select * from users where id = $1");
}`);
  assert.deepEqual([...bodies.keys()], ["revoke", "endAll", "lookup"]);
  assert.deepEqual([...writers(bodies)].sort(), ["endAll", "revoke"]);
});

Deno.test("only areas that declare writesSessions change users, sessions or tokens", async () => {
  const auth = new Map<string, string>();
  for (const { text } of await sources(join(API, "auth"))) {
    for (const [name, body] of functionsOf(text)) auth.set(name, body);
  }
  const authWriters = writers(auth);
  // The check below would pass for nothing if the finder missed the writers it must know.
  for (const known of ["revokeSession", "revokeUserSessions", "endUserAccess", "completeReset"]) {
    assert.ok(authWriters.has(known), `${known} writes sessions or users`);
  }
  const calls = new RegExp(`\\b(${[...authWriters].join("|")})\\(`);
  const declared = SESSION_WRITERS;
  assert.deepEqual(declared.map((f) => f.name), ["accounts"]);
  const offenders: string[] = [];
  for (const feature of FEATURES) {
    if (declared.includes(feature)) continue;
    for (const { path, text } of await sources(join(API, feature.name))) {
      const found = text.match(WRITES) ?? text.match(calls);
      if (found) offenders.push(`${path}: ${found[0]}`);
    }
  }
  assert.deepEqual(offenders, [], "declare writesSessions on these areas (api/feature.ts)");
});
