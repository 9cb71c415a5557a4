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
import { sourceFiles } from "../tests/support/source_files.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

const files: string[] = [];
for (const top of ["api", "shared", "cli"]) {
  for await (const file of sourceFiles(join(root, top), { tests: false })) {
    if (/^\s*\* ```ts\s*$/m.test(await Deno.readTextFile(file))) files.push(relative(root, file));
  }
}
files.sort();
const { code } = await new Deno.Command(Deno.execPath(), {
  args: ["test", "--doc", "-A", "--quiet", ...files],
  cwd: root,
}).spawn().status;
Deno.exit(code);
