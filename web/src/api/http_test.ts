import assert from "node:assert/strict";

// http.ts runs in a browser; give Deno just enough of one.
const page = { pathname: "/home", navigations: [] as string[], cookies: [] as string[] };
Object.defineProperty(globalThis, "location", {
  configurable: true,
  get: () => ({ href: `http://app.test${page.pathname}`, pathname: page.pathname }),
});
Object.defineProperty(globalThis, "document", {
  configurable: true,
  value: {
    set cookie(value: string) {
      page.cookies.push(value);
    },
  },
});
const move = (_state: unknown, _title: string, to: string) => {
  page.pathname = to;
  page.navigations.push(to);
};
Object.defineProperty(globalThis, "window", { configurable: true, value: globalThis });
Object.defineProperty(globalThis, "history", {
  configurable: true,
  value: { pushState: move, replaceState: move },
});

const { apiFetch, SESSION_EXPIRED_LOG } = await import("./http.ts");

type Handler = (path: string, init: RequestInit) => Response | Promise<Response>;
const realFetch = globalThis.fetch;

/** Replaces fetch for one test; returns the list of "METHOD path" calls it saw. */
function stubFetch(handler: Handler): string[] {
  const calls: string[] = [];
  globalThis.fetch = (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = new URL(String(input), "http://app.test").pathname;
    calls.push(`${init.method ?? "GET"} ${path}`);
    return Promise.resolve(handler(path, init));
  };
  return calls;
}

function reset(pathname = "/home") {
  page.pathname = pathname;
  page.navigations = [];
  page.cookies = [];
}

Deno.test("parallel 401s share one refresh, then each request is repeated once", async () => {
  reset();
  let refreshed = false;
  let releaseRefresh = () => {};
  const refreshHeld = new Promise<void>((resolve) => releaseRefresh = resolve);
  const calls = stubFetch(async (path) => {
    if (path === "/auth/refresh-token") {
      await refreshHeld;
      refreshed = true;
      return new Response(null, { status: 204 });
    }
    return refreshed ? Response.json(true) : Response.json({ message: "expired" }, { status: 401 });
  });
  try {
    const pending = [apiFetch("/auth/allowed"), apiFetch("/auth/user"), apiFetch("/api/x")];
    await new Promise((resolve) => setTimeout(resolve, 10));
    releaseRefresh();
    const statuses = (await Promise.all(pending)).map((response) => response.status);
    assert.deepEqual(statuses, [200, 200, 200]);
    assert.equal(calls.filter((call) => call === "POST /auth/refresh-token").length, 1);
    assert.equal(calls.length, 3 + 1 + 3);
    assert.deepEqual(page.navigations, []);
  } finally {
    globalThis.fetch = realFetch;
  }
});

Deno.test("a failed refresh clears the session, logs, goes to / and returns the 401", async () => {
  reset("/sources");
  const warnings: unknown[] = [];
  const realWarn = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.join(" "));
  const calls = stubFetch((path) =>
    path === "/auth/refresh-token"
      ? new Response(null, { status: 401 })
      : Response.json({ message: "expired" }, { status: 401 })
  );
  try {
    const response = await apiFetch("/api/order-tracking/list/update-stats");
    assert.equal(response.status, 401);
    assert.deepEqual(calls, [
      "GET /api/order-tracking/list/update-stats",
      "POST /auth/refresh-token",
    ]);
    assert.deepEqual(warnings, [SESSION_EXPIRED_LOG]);
    assert.deepEqual(page.navigations, ["/"]);
    for (const name of ["X-Access-Token", "X-Refresh-Token", "X-Username"]) {
      assert.ok(page.cookies.some((cookie) => cookie.startsWith(`${name}=;`)), name);
    }
  } finally {
    globalThis.fetch = realFetch;
    console.warn = realWarn;
  }
});

Deno.test("a refresh that answers 200 with a body still counts as success", async () => {
  reset();
  let refreshed = false;
  stubFetch((path) => {
    if (path === "/auth/refresh-token") {
      refreshed = true;
      return Response.json({ ok: true });
    }
    return refreshed ? Response.json(true) : new Response(null, { status: 401 });
  });
  try {
    assert.equal((await apiFetch("/auth/allowed")).status, 200);
  } finally {
    globalThis.fetch = realFetch;
  }
});

Deno.test("a 401 from the refresh call itself is not refreshed again", async () => {
  reset();
  const calls = stubFetch(() => new Response(null, { status: 401 }));
  try {
    assert.equal((await apiFetch("/auth/refresh-token", { method: "POST" })).status, 401);
    assert.deepEqual(calls, ["POST /auth/refresh-token"]);
  } finally {
    globalThis.fetch = realFetch;
  }
});

Deno.test("posts send credentials and JSON headers; the repeat keeps the body", async () => {
  reset();
  const seen: {
    credentials?: string;
    accept: string | null;
    type: string | null;
    body: unknown;
  }[] = [];
  let refreshed = false;
  stubFetch((path, init) => {
    if (path === "/auth/refresh-token") {
      refreshed = true;
      return new Response(null, { status: 204 });
    }
    const headers = new Headers(init.headers);
    seen.push({
      credentials: init.credentials,
      accept: headers.get("Accept"),
      type: headers.get("Content-Type"),
      body: init.body,
    });
    return refreshed ? new Response(null, { status: 204 }) : new Response(null, { status: 401 });
  });
  try {
    const response = await apiFetch("/api/accounts/update/user-info", {
      method: "POST",
      body: JSON.stringify({ UserID: 1 }),
    });
    assert.equal(response.status, 204);
    const expected = {
      credentials: "include",
      accept: "application/json",
      type: "application/json",
      body: '{"UserID":1}',
    };
    assert.deepEqual(seen, [expected, expected]);
  } finally {
    globalThis.fetch = realFetch;
  }
});

Deno.test("a 401 from the login call is returned as it is, without a refresh", async () => {
  reset("/");
  const calls = stubFetch(() =>
    Response.json({ message: "Invalid username or password." }, { status: 401 })
  );
  try {
    const response = await apiFetch("/auth/login", { method: "POST", body: "{}" });
    assert.equal(response.status, 401);
    assert.deepEqual(calls, ["POST /auth/login"]);
    assert.deepEqual(page.navigations, []);
  } finally {
    globalThis.fetch = realFetch;
  }
});
