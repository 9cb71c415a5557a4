/**
 * Serves the built web app (web/dist): files by path, and index.html for every other GET that a
 * browser navigates to, so that client-side routes survive a reload.
 */
import type { Hono } from "hono";
import type { AppEnv } from "../deps.ts";

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  woff2: "font/woff2",
  json: "application/json",
  txt: "text/plain; charset=utf-8",
};

/** Mounts the SPA on `app` from `distDir`; without a build, pages say how to make one. */
export function serveSpa(app: Hono<AppEnv>, distDir: string): void {
  const root = distDir.replace(/\/$/, "");
  app.get("*", async (c) => {
    const path = decodeURIComponent(new URL(c.req.url).pathname);
    if (path.startsWith("/api/") || path.startsWith("/auth/") || path.includes("..")) {
      return c.json({ message: "Not found." }, 404);
    }
    const file = await readFileOrNull(`${root}${path}`);
    if (file) {
      const ext = path.slice(path.lastIndexOf(".") + 1);
      // Vite puts a content hash in every asset name, so assets never change under one name.
      const cache = path.startsWith("/assets/")
        ? "public, max-age=31536000, immutable"
        : "no-cache";
      return c.body(file, 200, {
        "content-type": TYPES[ext] ?? "application/octet-stream",
        "cache-control": cache,
      });
    }
    if (/\.[a-z0-9]+$/i.test(path)) return c.json({ message: "Not found." }, 404);
    const index = await readFileOrNull(`${root}/index.html`);
    if (!index) {
      return c.text("The web app is not built yet: run `deno task build:web`.", 503);
    }
    return c.body(index, 200, { "content-type": TYPES.html, "cache-control": "no-cache" });
  });
}

async function readFileOrNull(path: string): Promise<Uint8Array<ArrayBuffer> | null> {
  try {
    const stat = await Deno.stat(path);
    return stat.isFile ? await Deno.readFile(path) : null;
  } catch {
    return null;
  }
}
