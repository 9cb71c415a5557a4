/**
 * `/health` while logins pour in (DESIGN.md section 10: within 5 × its idle latency). A real
 * server on loopback (in-memory PGlite, no background jobs); 50 users log in at once, with their
 * right passwords, while `/health` is asked again and again. Password checks run in the worker
 * pool (api/auth/password.ts); on the event loop they stalled `/health` for seconds (issue 10).
 */
import { loadConfig } from "../api/config.ts";
import { closePasswordPool, hashPassword, POOL_SIZE } from "../api/auth/password.ts";
import { startServer } from "../api/server.ts";
import { quantile } from "./stats.ts";

const LOGINS = Number(Deno.env.get("BENCH_LOGINS") ?? 50);
const BURSTS = Number(Deno.env.get("BENCH_LOGIN_BURSTS") ?? 3);
const IDLE_PROBES = 200;
const PROBE_PAUSE_MS = 10;

const median = (values: number[]) => quantile(values, 0.5);
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timedHealth(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/health`);
  await response.body?.cancel();
  return performance.now() - started;
}

/** Runs the measurement and returns the "## Login load" section of docs/benchmarks.md. */
export async function loginLoadSection(machine: string): Promise<string> {
  const config = loadConfig({
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: "memory://",
    ADMIN_PASSWORD: "bench-admin-password",
  });
  const server = await startServer(config, { log: () => {}, jobs: false });
  try {
    const { db } = server.deps;
    const users = Array.from({ length: LOGINS }, (_, i) => `bench-user-${i}`);
    const hash = await hashPassword("bench-password");
    for (const username of users) {
      await db.query(
        "insert into users (username, password_hash, email, active_status) values ($1, $2, '', true)",
        [username, hash],
      );
    }
    for (let i = 0; i < 20; i++) await timedHealth(server.url); // warm-up
    const idle: number[] = [];
    for (let i = 0; i < IDLE_PROBES; i++) {
      idle.push(await timedHealth(server.url));
      await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS));
    }

    const loaded: number[] = [];
    const burstSeconds: number[] = [];
    for (let burst = 0; burst < BURSTS; burst++) {
      const started = performance.now();
      let done = false;
      const logins = Promise.all(users.map(async (username) => {
        const response = await fetch(`${server.url}/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username, password: "bench-password" }),
        });
        await response.body?.cancel();
        if (response.status !== 200) throw new Error(`login answered ${response.status}`);
      })).finally(() => done = true);
      // A monitor's pace: one probe every 10 ms, not a flood that competes with the logins.
      while (!done) {
        loaded.push(await timedHealth(server.url));
        await new Promise((resolve) => setTimeout(resolve, PROBE_PAUSE_MS));
      }
      await logins;
      burstSeconds.push((performance.now() - started) / 1000);
    }
    const load = Deno.loadavg()[0].toFixed(1);
    const idleMedian = median(idle);
    const loadedMedian = median(loaded);
    const ratio = loadedMedian / idleMedian;
    console.log(
      `login load: idle ${ms(idleMedian)}, under ${LOGINS} logins ${ms(loadedMedian)} (${
        ratio.toFixed(1)
      } ×)`,
    );
    return [
      "## Login load",
      "",
      `Command: \`deno task bench\` (BENCH_ONLY=auth runs this part alone; BENCH_LOGINS=${LOGINS}, BENCH_LOGIN_BURSTS=${BURSTS}). Machine: ${machine}.`,
      `Measured ${new Date().toISOString().slice(0, 10)}. A server on loopback (in-memory PGlite);`,
      `${LOGINS} users log in at once with their right passwords (Argon2id m=19456, t=2, p=1, in a pool`,
      `of ${POOL_SIZE} worker${
        POOL_SIZE === 1 ? "" : "s"
      }), ${BURSTS} times, while one client asks`,
      "`GET /health` every 10 ms (one at a time); idle is the same client before the logins.",
      `The machine was shared with other work (load average ${load} at the end), which stretches`,
      "the logins' total time; the ratio of medians is what the target looks at.",
      "",
      "| measurement | median | p95 | max |",
      "| --- | ---: | ---: | ---: |",
      `| \`/health\` idle (${idle.length} requests) | ${ms(idleMedian)} | ${
        ms(quantile(idle, 0.95))
      } | ${ms(Math.max(...idle))} |`,
      `| \`/health\` under ${LOGINS} concurrent logins (${loaded.length} requests) | ${
        ms(loadedMedian)
      } | ${ms(quantile(loaded, 0.95))} | ${ms(Math.max(...loaded))} |`,
      `| ${LOGINS} logins, first to last answer | ${median(burstSeconds).toFixed(2)} s | | ${
        Math.max(...burstSeconds).toFixed(2)
      } s |`,
      "",
      "| target | measured | met |",
      "| --- | --- | --- |",
      `| \`/health\` under ${LOGINS} logins ≤ 5 × idle (medians) | ${ratio.toFixed(1)} × | ${
        ratio <= 5 ? "yes" : "no"
      } |`,
      "",
    ].join("\n");
  } finally {
    await server.shutdown();
    closePasswordPool();
  }
}
