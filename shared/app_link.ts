/**
 * Links to the application in e-mails. Their origin is `PUBLIC_URL` only, never a request's Host
 * (docs/auth.md, "Mailed links"); the callers pass it in.
 */

/**
 * `publicUrl` + `path`, with exactly one slash between them (a path in `PUBLIC_URL` is kept).
 *
 * @example
 * ```ts
 * import { appLink } from "./app_link.ts";
 * appLink("https://app.example.com/bo/", "/account"); // "https://app.example.com/bo/account"
 * ```
 */
export function appLink(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}
