/** Runs doveadm against the test Dovecot instance (never the system one). */
import { readServices, type ServicesInfo } from "./services_info.ts";

/** Result of one doveadm call. */
export interface DoveadmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `doveadm -c <test config> ...args`. Throws with doveadm's output on an exit code outside
 * `okCodes` (default only 0).
 */
export async function doveadm(
  args: string[],
  okCodes: number[] = [0],
  info: ServicesInfo = readServices(),
): Promise<DoveadmResult> {
  const out = await new Deno.Command("doveadm", {
    args: ["-c", info.dovecotConfig, ...args],
    stdin: "null",
  }).output();
  const result = {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
  if (!okCodes.includes(result.code)) {
    throw new Error(
      `doveadm ${args.join(" ")} exited ${result.code}: ${result.stderr || result.stdout}`.trim(),
    );
  }
  return result;
}
