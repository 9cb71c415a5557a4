/**
 * Builds the web app (web/ → web/dist) with Vite.
 *
 *   deno run -A scripts/build_web.ts              always build
 *   deno run -A scripts/build_web.ts --if-needed  build only when a source is newer than web/dist
 */
import { build } from "vite";

const repoRoot = decodeURIComponent(new URL("..", import.meta.url).pathname);
const webRoot = `${repoRoot}web/`;
const builtMarker = `${webRoot}dist/index.html`;
// Dependency pins change the bundle as much as the sources do.
const extraInputs = [`${repoRoot}import_map.json`, `${repoRoot}deno.lock`];

async function mtimeOf(path: string): Promise<number | undefined> {
  try {
    return (await Deno.stat(path)).mtime?.getTime();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Newest modification time of the files under `dir`, skipping build output and packages. */
async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name === "dist" || entry.name === "node_modules") continue;
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) newest = Math.max(newest, await newestMtime(`${path}/`));
    else newest = Math.max(newest, (await mtimeOf(path)) ?? 0);
  }
  return newest;
}

/** True when web/dist exists and is newer than every input of the build. */
export async function isBuildFresh(): Promise<boolean> {
  const built = await mtimeOf(builtMarker);
  if (built === undefined) return false;
  let newest = await newestMtime(webRoot);
  for (const path of extraInputs) newest = Math.max(newest, (await mtimeOf(path)) ?? 0);
  return built > newest;
}

/** Runs the production build with web/vite.config.ts. */
export async function buildWeb(): Promise<void> {
  await build({ configFile: `${webRoot}vite.config.ts`, logLevel: "warn" });
}

if (import.meta.main) {
  if (Deno.args.includes("--if-needed") && await isBuildFresh()) {
    console.log("web/dist is up to date");
  } else {
    await buildWeb();
    console.log("web/dist built");
  }
}
