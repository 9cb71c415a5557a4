/**
 * `deno task check`'s last step: runs the fenced `@example` blocks (```ts) of every module in
 * api/, shared/ and cli/ with `deno test --doc`. Blocks that need a server, a database or a
 * mailbox are fenced ```ts ignore and only kept as text (docs/conventions.md, "Style").
 *
 * Its name must not end in `_test.ts`: `deno test` would load it as a test module and type-check
 * and run every example a second time inside the suite, in a child of about 1 GB beside the
 * suite's own tests.
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

async function* modules(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* modules(path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

const files: string[] = [];
for (const top of ["api", "shared", "cli"]) {
  for await (const file of modules(join(root, top))) {
    if (/^\s*\* ```ts\s*$/m.test(await Deno.readTextFile(file))) files.push(relative(root, file));
  }
}
files.sort();
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["test", "--doc", "-A", "--quiet", ...files],
  cwd: root,
}).spawn().status;
Deno.exit(code);
