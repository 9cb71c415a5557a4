/**
 * The layer rule (docs/conventions.md, "Layers"): reads the import statements of every .ts/.tsx
 * file and fails when a lower layer imports a higher one. Lowest first: shared → platform layers
 * (db, http, net, auth, jobs, mail, ingest and api's top-level platform modules) → feature areas →
 * app (app, server, worker, main, features) → cli/bench. An area imports another area only
 * through an exception listed in `AREA_EXCEPTIONS`; the web app imports shared/ and the type of
 * api/app.ts only. Tests (tests/ and `*_test.ts`) may import anything.
 *
 * Inside the platform the parts are ordered too (`PLATFORM_ORDER`), and no module of api/, cli/,
 * shared/ or web/src may be part of an import loop (static or lazy `import()`), so that each
 * module can be read, and loaded, before the ones that use it.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sourceFiles } from "./support/source_files.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** api/ folders that are platform layers; every other api/ folder is a feature area. */
const PLATFORM_DIRS = new Set(["db", "http", "net", "auth", "jobs", "mail", "ingest"]);
/** api/ top-level modules of the platform (below the areas). */
const PLATFORM_FILES = new Set(["config.ts", "deps.ts", "secrets.ts", "feature.ts"]);
/**
 * The platform's parts, lowest first; a part imports only its own rank or lower ones. `deps.ts`
 * holds the services' interfaces (their implementations sit higher and import them), so http/
 * middleware can type the context without reaching auth/, mail/ or ingest/. auth/ sits above
 * jobs/ because the password-reset mail goes out as a job.
 */
const PLATFORM_ORDER: Record<string, number> = {
  "config.ts": 0,
  db: 0,
  net: 0,
  "deps.ts": 1,
  http: 2,
  "secrets.ts": 3,
  jobs: 4,
  auth: 5,
  mail: 6,
  ingest: 7,
  "feature.ts": 8,
};

/** api/ top-level modules of the app layer (above the areas). */
const APP_FILES = new Set([
  "app.ts",
  "server.ts",
  "worker.ts",
  "main.ts",
  "features.ts",
  "shutdown.ts",
]);

/** Area → areas it may import, each with its reason. */
const AREA_EXCEPTIONS: Record<string, Record<string, string>> = {
  dashboard: {
    notifications:
      "incident alerts go to the webhooks of the notification settings that cover the source (postToChannels)",
  },
};

type Layer =
  | { rank: 0; name: "shared" }
  | { rank: 1; name: "platform" }
  | { rank: 2; name: "area"; area: string }
  | { rank: 3; name: "app" }
  | { rank: 4; name: "cli" }
  | { rank: 5; name: "web" }
  | { rank: 6; name: "test" }
  | { rank: 6; name: "other" };

/** The layer of a repository-relative path. */
export function layerOf(path: string): Layer {
  const parts = path.split("/");
  if (parts[0] === "tests" || /_test\.tsx?$/.test(path)) return { rank: 6, name: "test" };
  if (parts[0] === "shared") return { rank: 0, name: "shared" };
  if (parts[0] === "cli" || parts[0] === "bench") return { rank: 4, name: "cli" };
  if (parts[0] === "web") return { rank: 5, name: "web" };
  if (parts[0] !== "api") return { rank: 6, name: "other" };
  if (parts.length === 2) {
    if (APP_FILES.has(parts[1])) return { rank: 3, name: "app" };
    if (PLATFORM_FILES.has(parts[1])) return { rank: 1, name: "platform" };
    return { rank: 3, name: "app" };
  }
  if (PLATFORM_DIRS.has(parts[1])) return { rank: 1, name: "platform" };
  return { rank: 2, name: "area", area: parts[1] };
}

/** Why `from` may not import `to`, or null when it may. */
export function violation(from: string, to: string): string | null {
  const a = layerOf(from);
  const b = layerOf(to);
  if (a.name === "test" || a.name === "other") return null;
  if (a.name === "web") {
    if (b.name === "shared" || b.name === "web" || to === "api/app.ts") return null;
    return "the web app imports only shared/ and api/app.ts (its AppType)";
  }
  if (b.name === "test" || b.name === "other" || b.name === "web") {
    return `${a.name} imports ${b.name} code`;
  }
  if (a.name === "area" && b.name === "area" && a.area !== b.area) {
    if (AREA_EXCEPTIONS[a.area]?.[b.area]) return null;
    return `area ${a.area} imports area ${b.area} (no listed exception)`;
  }
  if (b.rank > a.rank) return `${a.name} imports the higher layer ${b.name}`;
  if (a.name === "platform" && b.name === "platform") {
    const [from_, to_] = [platformPart(from), platformPart(to)];
    if (PLATFORM_ORDER[to_] > PLATFORM_ORDER[from_]) {
      return `platform part ${from_} imports the higher platform part ${to_}`;
    }
  }
  return null;
}

/** The platform part of an api/ path: its folder (`http`) or top-level file (`deps.ts`). */
function platformPart(path: string): string {
  return path.split("/")[1];
}

/**
 * The import loops of a graph (module → modules it imports): each strongly connected component of
 * more than one module (Tarjan), its members sorted.
 */
export function importLoops(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) loops.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return loops;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s(?:[^"';]*?\sfrom\s)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The relative import specifiers of a module's text. */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (spec.startsWith(".")) found.push(spec);
  }
  return found;
}

Deno.test("the layer check reads imports and ranks paths", () => {
  assert.deepEqual(
    importsOf(
      `import a from "./a.ts";\nimport type { B } from "../b.ts";\nexport { c } from "./c.ts";\n` +
        `import "./side.ts";\nconst d = import("./d.tsx");\nimport x from "hono";`,
    ),
    ["./a.ts", "../b.ts", "./c.ts", "./side.ts", "./d.tsx"],
  );
  const cases: [string, string, boolean][] = [
    ["shared/contract/orders.ts", "api/db/client.ts", false],
    ["api/ingest/feeds.ts", "api/order_tracking/feed/feed.ts", false],
    ["api/mail/accounts.ts", "api/email_sources/queries.ts", false],
    ["api/home_stats/routes.ts", "api/order_tracking/queries.ts", false],
    ["api/order_tracking/routes.ts", "api/app.ts", false],
    ["api/jobs/runner.ts", "api/server.ts", false],
    ["api/order_tracking/routes.ts", "api/http/errors.ts", true],
    ["api/order_tracking/sources/routes.ts", "api/order_tracking/queries.ts", true],
    ["api/features.ts", "api/order_tracking/feature.ts", true],
    ["cli/mail.ts", "api/server.ts", true],
    ["web/src/api/client.ts", "api/app.ts", true],
    ["web/src/api/client.ts", "api/deps.ts", false],
    ["tests/support/server.ts", "api/server.ts", true],
    ["api/http/csrf.ts", "api/deps.ts", true],
    ["api/http/csrf.ts", "api/auth/sessions.ts", false],
    ["api/deps.ts", "api/secrets.ts", false],
    ["api/deps.ts", "api/auth/sessions.ts", false],
    ["api/secrets.ts", "api/deps.ts", true],
    ["api/auth/password_reset.ts", "api/jobs/queue.ts", true],
    ["api/jobs/runner.ts", "api/shutdown.ts", false],
    ["api/http/log.ts", "api/shutdown.ts", false],
  ];
  for (const [from, to, allowed] of cases) {
    assert.equal(violation(from, to) === null, allowed, `${from} → ${to}`);
  }
});

Deno.test("the loop finder names each loop once", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["a", "c"]],
    ["c", ["d"]],
    ["d", ["c", "e"]],
    ["e", []],
  ]);
  assert.deepEqual(importLoops(graph), [["c", "d"], ["a", "b"]]);
});

Deno.test("no module is part of an import loop", async () => {
  const graph = new Map<string, string[]>();
  for (const top of ["shared", "api", "cli", "web/src"]) {
    for await (const file of sourceFiles(join(ROOT, top))) {
      const from = relative(ROOT, file);
      if (layerOf(from).name === "test") continue;
      const specs = importsOf(await Deno.readTextFile(file));
      graph.set(from, specs.map((spec) => relative(ROOT, resolve(dirname(file), spec))));
    }
  }
  assert.deepEqual(importLoops(graph), []);
});

Deno.test("no module imports a higher layer", async () => {
  const problems: string[] = [];
  for (const top of ["shared", "api", "cli", "bench", "web/src"]) {
    for await (const file of sourceFiles(join(ROOT, top))) {
      const from = relative(ROOT, file);
      for (const spec of importsOf(await Deno.readTextFile(file))) {
        const to = relative(ROOT, resolve(dirname(file), spec));
        const why = violation(from, to);
        if (why) problems.push(`${from} imports ${to}: ${why}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});
