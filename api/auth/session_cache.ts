/**
 * The users behind access tokens, remembered by a process so that a request does not ask the
 * database who sent it: that statement was one of the two or three of a typical request
 * (docs/auth.md, "Sessions remembered by a process").
 *
 * A remembered answer is dropped:
 * - when its token or session expires (their time left is read with the answer);
 * - when `session_changes` (migration 0037) has moved: its triggers count, in the writing
 *   statement's own transaction, every statement that may change an answer (an update of a
 *   column it reads, a delete of a user, a session or a live token). The count is read before an
 *   answer is trusted when it was last read more than a second ago, and always after a request
 *   of this process that could write (`sessionsMayHaveChanged`).
 *
 * So a logout, a revocation or a deactivation holds for the very next request to the process that
 * made it, and for other processes (several web processes on one PostgreSQL) within a second.
 *
 * @module
 */
import type { Db } from "../db/client.ts";
import type { SessionUser } from "../deps.ts";

/** How long a read of the count is trusted. */
const CHECK_EVERY_MS = 1_000;
/** Answers kept at most; past it the oldest go first. */
const MAX_REMEMBERED = 20_000;

/** A user found for a token, and how long the token and its session still hold. */
export interface FoundUser {
  user: SessionUser;
  secondsLeft: number;
}

interface Remembered {
  /** The count as last read (-1: never). */
  version: number;
  checkedAt: number;
  checking: Promise<void> | null;
  /** Moves whenever answers may be stale, so a lookup under way does not store what it read. */
  generation: number;
  users: Map<string, { user: SessionUser; until: number }>;
}

const remembered = new WeakMap<object, Remembered>();

function stateOf(db: object): Remembered {
  let state = remembered.get(db);
  if (!state) {
    remembered.set(
      db,
      state = {
        version: -1,
        checkedAt: -Infinity,
        checking: null,
        generation: 0,
        users: new Map(),
      },
    );
  }
  return state;
}

/** Reads the count when the last read is too old; concurrent callers share one read. */
function checkChanges(db: Db, state: Remembered, startedAt: number): Promise<void> {
  if (state.checking) return state.checking;
  if (startedAt - state.checkedAt < CHECK_EVERY_MS) return Promise.resolve();
  const generation = state.generation;
  const reading: Promise<void> = db.query<{ version: string }>(
    "select version::text as version from session_changes",
    [],
    { prepare: true },
  ).then(([row]) => {
    const version = Number(row?.version ?? 0);
    // This process wrote during the read, which may have begun before the write committed.
    const maybeBefore = generation !== state.generation;
    if (version !== state.version) forget(state);
    if (maybeBefore) return;
    state.version = version;
    state.checkedAt = startedAt;
  }).finally(() => {
    if (state.checking === reading) state.checking = null;
  });
  state.checking = reading;
  return reading;
}

function forget(state: Remembered) {
  state.users.clear();
  state.generation++;
}

/**
 * The user behind the access token whose hash is `tokenHash`, remembered or found by `find`
 * (which answers null for an unknown, expired or revoked token).
 *
 * @example
 * ```ts ignore
 * const user = await rememberedUser(db, hashToken(token), () => findUser(db, token));
 * ```
 */
export async function rememberedUser(
  db: Db,
  tokenHash: string,
  find: () => Promise<FoundUser | null>,
  now = Date.now(),
): Promise<SessionUser | null> {
  const state = stateOf(db);
  await checkChanges(db, state, now);
  const known = state.users.get(tokenHash);
  if (known && known.until > now) return known.user;
  if (known) state.users.delete(tokenHash);
  const generation = state.generation;
  const found = await find();
  // Read before a change that is now counted: it may be stale, so it is not kept.
  if (found && found.secondsLeft > 0 && generation === state.generation) {
    if (state.users.size >= MAX_REMEMBERED) {
      state.users.delete(state.users.keys().next().value!);
    }
    // Shared by every request of the token: frozen so that none can change it for the others.
    state.users.set(tokenHash, {
      user: Object.freeze(found.user),
      until: now + found.secondsLeft * 1000,
    });
  }
  return found?.user ?? null;
}

/**
 * Says that this process may have just changed a user, a session or a token: the next lookup
 * reads the count first. Called after every request that could write.
 */
export function sessionsMayHaveChanged(db: object): void {
  const state = remembered.get(db);
  if (!state) return;
  state.checkedAt = -Infinity;
  // A read under way may have begun before the write: the next lookup waits for a new one.
  state.checking = null;
  state.generation++;
}
