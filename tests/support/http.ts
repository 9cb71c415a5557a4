/**
 * A small HTTP client for contract tests: keeps cookies like a browser (per path), sends JSON.
 */

interface StoredCookie {
  value: string;
  path: string;
  attributes: string;
}

/** A response with its JSON (or text) body already read. */
export interface TestResponse {
  status: number;
  headers: Headers;
  body: unknown;
  /** Raw Set-Cookie lines of this response. */
  setCookies: string[];
}

/** A cookie-keeping client for one base URL. */
export interface TestClient {
  cookies: Map<string, StoredCookie>;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  get(path: string, options?: RequestOptions): Promise<TestResponse>;
  post(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  /** POST /auth/login; throws when it does not answer 200. */
  login(username: string, password: string): Promise<TestResponse>;
}

/** Options of one request. */
export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as is instead of JSON. */
  rawBody?: BodyInit;
}

/**
 * Creates a client; every request sends the cookies stored so far whose path matches.
 *
 * @example
 * const admin = testClient(server.url);
 * await admin.login("admin", ADMIN_PASSWORD);
 * (await admin.get("/auth/user")).body; // { role: "Admin", ... }
 */
export function testClient(baseUrl: string): TestClient {
  const cookies = new Map<string, StoredCookie>();
  const client: TestClient = {
    cookies,
    async request(method, path, options = {}) {
      const headers = new Headers(options.headers);
      const cookieHeader = [...cookies]
        .filter(([, c]) => path.startsWith(c.path))
        .map(([name, c]) => `${name}=${c.value}`)
        .join("; ");
      if (cookieHeader) headers.set("cookie", cookieHeader);
      let body: BodyInit | undefined = options.rawBody;
      if (body === undefined && options.body !== undefined) {
        body = JSON.stringify(options.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      }
      if (!headers.has("accept")) headers.set("accept", "application/json");
      const response = await fetch(new URL(path, baseUrl), { method, headers, body });
      const setCookies = response.headers.getSetCookie();
      for (const line of setCookies) {
        const [pair, ...attrs] = line.split(";").map((part) => part.trim());
        const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
        const attributes = attrs.join("; ");
        const path = /(?:^|; )Path=([^;]+)/i.exec(attributes)?.[1] ?? "/";
        const expired = /Max-Age=0/i.test(attributes) || value === "";
        if (expired) cookies.delete(name);
        else cookies.set(name, { value, path, attributes });
      }
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch { /* not JSON: keep the text */ }
      return { status: response.status, headers: response.headers, body: parsed, setCookies };
    },
    get: (path, options) => client.request("GET", path, options),
    post: (path, body, options) => client.request("POST", path, { ...options, body }),
    async login(username, password) {
      const response = await client.post("/auth/login", { username, password });
      if (response.status !== 200) {
        throw new Error(
          `login as ${username} answered ${response.status}: ${JSON.stringify(response.body)}`,
        );
      }
      return response;
    },
  };
  return client;
}
