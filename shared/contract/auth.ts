/** Payloads of the /auth calls, shared by the server and the web app. */
import { z } from "zod";
import { boundedString, MAX_LENGTH } from "./fields.ts";
import { normaliseUsername } from "./usernames.ts";

/**
 * A username to look up, as typed at login or reset: bounded, free of control characters and
 * normalised the way stored names are (NFKC, trimmed).
 */
const lookupUsername = boundedString(MAX_LENGTH.username, "Username is required")
  .transform(normaliseUsername)
  .pipe(z.string().min(1, "Username is required"));

/** POST /auth/login */
export const loginRequest = z.object({
  username: lookupUsername,
  password: boundedString(MAX_LENGTH.secret).min(1, "Password is required"),
});
export type LoginRequest = z.infer<typeof loginRequest>;

/** A new password set through the API (reset, change, user form). */
export const newPassword = boundedString(MAX_LENGTH.secret).min(
  8,
  "Password must be at least 8 characters",
);

/**
 * POST /auth/reset-password: a bare JSON string, or `{ username }`. The bare string is read as
 * `{ username }` first, so that a bad name is reported on its field, not as "no option matched".
 */
export const resetPasswordRequest = z.preprocess(
  (value) => (typeof value === "string" ? { username: value } : value),
  z.object({ username: lookupUsername }),
);

/** POST /auth/reset-password/complete */
export const completeResetRequest = z.object({
  token: boundedString(MAX_LENGTH.name).min(1, "Token is required"),
  newPassword,
});

/** The "True"/"False" strings the contract uses for flags. */
export const flagText = z.enum(["True", "False"]);

/** GET /auth/user */
export const currentUser = z.object({
  userId: z.number(),
  username: z.string(),
  role: z.enum(["Admin", "User"]),
  inventoryUser: flagText,
  orderUser: flagText,
  submissionUser: flagText,
});
export type CurrentUser = z.infer<typeof currentUser>;
