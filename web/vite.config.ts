import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Absolute paths, so the config works whatever directory Vite is started from.
const webRoot = decodeURIComponent(new URL(".", import.meta.url).pathname);
const apiServer = "http://127.0.0.1:8000";

export default defineConfig({
  root: webRoot,
  // Beside the other packages, not inside web/ where it would count as a source change.
  cacheDir: webRoot + "../node_modules/.vite",
  plugins: [react()],
  build: { outDir: webRoot + "dist", emptyOutDir: true },
  server: {
    // The SPA calls its own origin; in development the Hono server answers behind this proxy.
    proxy: { "/api": apiServer, "/auth": apiServer },
  },
});
