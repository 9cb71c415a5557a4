/**
 * Incidents (docs/dashboard.md, "Alerts"): a job every minute compares each source's state with
 * the last one known (`source_states`). A source that becomes failing, held or stale opens an
 * incident, announced once; changes between those states continue it silently; when it is ok
 * again, one "recovered" message goes out (made inactive or removed: the incident ends
 * silently). A failed announcement stays pending and is tried again at the next run.
 * Mailboxes are not announced here: notifications' mailbox-health alert covers them.
 */
import type { Deps } from "../deps.ts";
import type { JobHandler, ScheduleSource } from "../jobs/handlers.ts";
import { syncSchedules } from "../jobs/schedules.ts";
import { logError } from "../http/log_error.ts";
import {
  type DashboardLine,
  INCIDENT_STATES,
  type SourceState,
} from "../../shared/contract/dashboard.ts";
import { readLines } from "./lines.ts";
import { announce, type SourceEvent } from "./announce.ts";

/** The job kind (and schedule name) of the incidents check. */
export const INCIDENTS_JOB = "dashboard-incidents";
/** How often the states are compared. */
export const INCIDENTS_EVERY_SECONDS = 60;

interface StoredState {
  area: string;
  sourceId: number;
  state: SourceState;
  incidentSince: Date | null;
  alertSent: boolean;
  recoveryPending: boolean;
  endedState: SourceState | null;
  endedSince: Date | null;
}

const isIncident = (state: SourceState) => INCIDENT_STATES.includes(state);

/**
 * Brings `source_states` in line with the sources' current states and announces what is due:
 * new incidents' alerts and ended incidents' recoveries. Returns the events announced.
 */
export async function checkIncidents(
  deps: Pick<Deps, "db" | "config" | "mailer">,
  now = new Date(),
): Promise<SourceEvent[]> {
  const lines = await readLines(
    deps,
    ["order-tracking", "inventory", "order-submission", "vendor"],
    now,
  );
  const stored = await deps.db.query<StoredState>(
    `select area, source_id as "sourceId", state, incident_since as "incidentSince",
            alert_sent as "alertSent", recovery_pending as "recoveryPending",
            ended_state as "endedState", ended_since as "endedSince"
       from source_states`,
  );
  const known = new Map(stored.map((s) => [`${s.area}:${s.sourceId}`, s]));
  const current = new Map(lines.map((l) => [`${l.area}:${l.sourceId}`, l]));
  for (const line of lines) {
    const before = known.get(`${line.area}:${line.sourceId}`);
    await record(deps, line, before, now);
  }
  // Sources removed since: their incidents end without a message.
  for (const [key, s] of known) {
    if (!current.has(key)) {
      await deps.db.query(`delete from source_states where area = $1 and source_id = $2`, [
        s.area,
        s.sourceId,
      ]);
    }
  }
  return await sendPending(deps, current, now);
}

/** Stores one source's new state (opening, continuing or ending its incident). */
async function record(
  deps: Pick<Deps, "db">,
  line: DashboardLine,
  before: StoredState | undefined,
  now: Date,
): Promise<void> {
  const wasIncident = before?.incidentSince != null;
  const nowIncident = isIncident(line.state);
  if (before && before.state === line.state) return;
  if (nowIncident && !wasIncident) {
    const since = line.since ? new Date(line.since) : now;
    await deps.db.query(
      `insert into source_states (area, source_id, state, incident_since, alert_sent, updated_at)
       values ($1, $2, $3, $4, false, now())
       on conflict (area, source_id) do update set state = excluded.state,
         incident_since = excluded.incident_since, alert_sent = false, updated_at = now()`,
      [line.area, line.sourceId, line.state, since],
    );
  } else if (nowIncident) {
    await deps.db.query(
      `update source_states set state = $3, updated_at = now() where area = $1 and source_id = $2`,
      [line.area, line.sourceId, line.state],
    );
  } else if (wasIncident) {
    // The recovered message only follows an alert that went out, and only back to ok.
    const recovered = before!.alertSent && line.state === "ok";
    await deps.db.query(
      `update source_states set state = $3, incident_since = null, alert_sent = false,
              recovery_pending = $4, ended_state = $5, ended_since = $6, updated_at = now()
        where area = $1 and source_id = $2`,
      [line.area, line.sourceId, line.state, recovered, before!.state, before!.incidentSince],
    );
  } else {
    await deps.db.query(
      `insert into source_states (area, source_id, state, updated_at) values ($1, $2, $3, now())
       on conflict (area, source_id) do update set state = excluded.state, updated_at = now()`,
      [line.area, line.sourceId, line.state],
    );
  }
}

/** Announces the alerts and recoveries not sent yet; a failure is left for the next run. */
async function sendPending(
  deps: Pick<Deps, "db" | "config" | "mailer">,
  current: Map<string, DashboardLine>,
  now: Date,
): Promise<SourceEvent[]> {
  const pending = await deps.db.query<StoredState>(
    `select area, source_id as "sourceId", state, incident_since as "incidentSince",
            alert_sent as "alertSent", recovery_pending as "recoveryPending",
            ended_state as "endedState", ended_since as "endedSince"
       from source_states
      where (incident_since is not null and not alert_sent) or recovery_pending
      order by area, source_id`,
  );
  const sent: SourceEvent[] = [];
  for (const p of pending) {
    const line = current.get(`${p.area}:${p.sourceId}`);
    if (!line) continue;
    const event: SourceEvent = p.recoveryPending
      ? {
        kind: "recovered",
        line,
        state: p.endedState ?? "failing",
        since: p.endedSince ?? now,
        at: now,
      }
      : { kind: "incident", line, state: p.state, since: p.incidentSince!, at: now };
    try {
      await announce(deps, event);
    } catch (error) {
      logError(`Announcing ${event.kind} of ${p.area} source ${p.sourceId}`, error);
      continue;
    }
    await deps.db.query(
      p.recoveryPending
        ? `update source_states set recovery_pending = false where area = $1 and source_id = $2`
        : `update source_states set alert_sent = true where area = $1 and source_id = $2`,
      [p.area, p.sourceId],
    );
    sent.push(event);
  }
  return sent;
}

/** The incidents job's handler. */
export const incidentsJob: JobHandler = {
  run: async (deps) => {
    await checkIncidents(deps);
  },
};

/** One schedule: the incidents check every minute. */
export const incidentsSchedule: ScheduleSource = async (deps) => {
  await syncSchedules(deps.db, INCIDENTS_JOB, [{
    name: INCIDENTS_JOB,
    kind: INCIDENTS_JOB,
    payload: {},
    everySeconds: INCIDENTS_EVERY_SECONDS,
  }]);
};
