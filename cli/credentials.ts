/**
 * The user's stored tokens: `~/.config/source-manager/credentials.json` (or under
 * `$XDG_CONFIG_HOME`), one entry per server URL, readable by its owner only (mode 0600).
 *
 * @module
 */

/** One stored token. */
export interface StoredCredential {
  token: string;
  /** The token's id on the server (for `cli logout`). */
  tokenId: number;
  username: string;
  createdAt: string;
}

/** The credentials file's path. */
export function credentialsPath(): string {
  const base = Deno.env.get("XDG_CONFIG_HOME") ||
    `${Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? "."}/.config`;
  return `${base}/source-manager/credentials.json`;
}

/** Every stored token by server URL (empty when the file does not exist). */
export async function readCredentials(): Promise<Record<string, StoredCredential>> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(credentialsPath()));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    if (error instanceof SyntaxError) return {};
    throw error;
  }
}

/** Stores (or with null forgets) the token of one server; the file is written mode 0600. */
export async function writeCredential(
  server: string,
  credential: StoredCredential | null,
): Promise<void> {
  const all = await readCredentials();
  if (credential) all[server] = credential;
  else delete all[server];
  const path = credentialsPath();
  const dir = path.slice(0, path.lastIndexOf("/"));
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${Deno.pid}.tmp`;
  await Deno.writeTextFile(tmp, JSON.stringify(all, null, 2) + "\n", { mode: 0o600 });
  if (Deno.build.os !== "windows") await Deno.chmod(tmp, 0o600);
  await Deno.rename(tmp, path);
}
