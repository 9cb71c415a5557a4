/**
 * The project's TypeScript modules under a folder, for checks that read source text (the layer
 * rule, the session writers, the doc examples). Build output, packages, fixtures and data are
 * skipped.
 */
import { join } from "node:path";

const SKIPPED = new Set(["node_modules", "dist", "fixtures", ".tmp", "data"]);

/**
 * Every .ts and .tsx file under `dir`, tests included unless `tests` is false.
 *
 * @example
 * ```ts ignore
 * for await (const path of sourceFiles("api", { tests: false })) console.log(path);
 * ```
 */
export async function* sourceFiles(
  dir: string,
  { tests = true }: { tests?: boolean } = {},
): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (!SKIPPED.has(entry.name)) yield* sourceFiles(path, { tests });
    } else if (/\.tsx?$/.test(entry.name) && (tests || !/_test\.tsx?$/.test(entry.name))) {
      yield path;
    }
  }
}
