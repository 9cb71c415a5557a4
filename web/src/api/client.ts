/**
 * The typed client of the server's routes (`AppType` from api/app.ts, a type-only import, so
 * no server code reaches the bundle). Every call goes through {@link apiFetch}: credentials,
 * JSON headers, and the refresh-then-repeat rule.
 */
import { hc } from "hono/client";
import type { AppType } from "../../../api/app.ts";
import { apiFetch } from "./http.ts";

/** Same-origin client; the paths and payloads are checked against the server's routes. */
export const api = hc<AppType>("/", { fetch: apiFetch });
