/**
 * One HTTP/1.1 request written by hand over TCP: the only way to send a `Host` header that
 * differs from the address connected to (fetch derives it from the URL), as an attacker does.
 */

/** A raw answer: status, lower-case headers and the body as text. */
export interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends `method path` to the server at `baseUrl` with exactly these headers (`Host` included)
 * and a text body, and reads the whole answer (`Connection: close`).
 *
 * @example
 * const answer = await rawRequest(server.url, "POST", "/auth/reset-password", {
 *   host: "evil.example:8111",
 *   "content-type": "application/json",
 * }, JSON.stringify("alice"));
 */
export async function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = "",
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  try {
    const bytes = new TextEncoder().encode(body);
    const head = [
      `${method} ${path} HTTP/1.1`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      `content-length: ${bytes.length}`,
      "connection: close",
      "",
      "",
    ].join("\r\n");
    await conn.write(new TextEncoder().encode(head));
    if (bytes.length) await conn.write(bytes);
    const text = await new Response(conn.readable).text();
    const [top, ...rest] = text.split("\r\n\r\n");
    const [statusLine, ...headerLines] = top.split("\r\n");
    return {
      status: Number(statusLine.split(" ")[1]),
      headers: new Map(headerLines.map((line) => {
        const colon = line.indexOf(":");
        return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
      })),
      body: rest.join("\r\n\r\n"),
    };
  } finally {
    try {
      conn.close();
    } catch { /* closed by reading to the end */ }
  }
}
