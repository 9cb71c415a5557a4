/**
 * A supplier's HTTPS server for URL feed tests (docs/url_feeds.md), on loopback with the test
 * services' certificate (signed by the CA of `.tmp/services`, trusted through MAIL_CA_FILE):
 * `/stock.csv` with an ETag (304 on a match), `/moved` (same-server redirect), `/cross` (to another origin), `/elsewhere` (a
 * redirect to a private address), `/loop`, `/big` (3 × `cap` bytes), `/slow` (6 s).
 */
import { dirname } from "node:path";
import { stockCsv } from "./inventory.ts";

/** Starts the server; `state` is what it serves and what it was asked. */
export function startSupplier(caPath: string, cap = 4096) {
  const dir = dirname(caPath);
  const state = {
    body: stockCsv([["A1", 5], ["A2", 0], ["A3", 7], ["A4", 2]]),
    etag: '"v1"' as string | null,
    requests: [] as { path: string; headers: Headers }[],
  };
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    cert: Deno.readTextFileSync(`${dir}/server.crt`),
    key: Deno.readTextFileSync(`${dir}/server.key`),
    onListen: () => {},
  }, async (request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    state.requests.push({ path, headers: new Headers(request.headers) });
    if (path === "/stock.csv") {
      if (state.etag && request.headers.get("if-none-match") === state.etag) {
        return new Response(null, { status: 304 });
      }
      const headers: Record<string, string> = { "content-type": "text/csv" };
      if (state.etag) headers.etag = state.etag;
      return new Response(state.body as BlobPart, { headers });
    }
    if (path === "/moved") return Response.redirect(new URL("/stock.csv", request.url), 302);
    if (path === "/elsewhere") return Response.redirect("https://10.11.12.13/stock.csv", 302);
    if (path === "/cross") {
      // Another origin (the same server by address): credentials must not follow.
      return Response.redirect(`https://127.0.0.1:${server.addr.port}/stock.csv`, 302);
    }
    if (path === "/loop") return Response.redirect(new URL("/loop", request.url), 302);
    if (path === "/big") return new Response(new Uint8Array(cap * 3).fill(65));
    if (path === "/slow") {
      await new Promise((resolve) => setTimeout(resolve, 6000));
      return new Response("late");
    }
    return new Response("no", { status: 404 });
  });
  return { state, server, base: `https://localhost:${server.addr.port}` };
}
