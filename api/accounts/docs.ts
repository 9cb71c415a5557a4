/** The OpenAPI descriptions of /auth and /api/accounts (spec part 1, section 7). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import { currentUser } from "../../shared/contract/auth.ts";
import {
  accessToken,
  configWarningsAnswer,
  createdAccessToken,
  orderTrackingSettings,
  userAccount,
  userInfo,
} from "../../shared/contract/accounts.ts";

const P1 = "Spec part 1, section 7.";

export const accountsDocs = routeDocs([
  {
    method: "GET",
    path: "/api/accounts/config-warnings",
    summary:
      "What the server's configuration leaves out, for the admin's pages (beyond the contract; " +
      "e.g. PUBLIC_URL unset: mails carry no links)",
    response: configWarningsAnswer,
    access: "admin",
  },
  {
    method: "GET",
    path: "/api/accounts/tokens",
    summary: "The signed-in user's personal access tokens (beyond the contract; docs/auth.md)",
    response: z.array(accessToken),
    access: "any",
  },
  {
    method: "POST",
    path: "/api/accounts/tokens",
    summary:
      "Create a personal access token; the answer shows it this once. Needs a browser session " +
      "logged in within 30 minutes (a token gets 403; docs/auth.md)",
    response: createdAccessToken,
    access: "any",
  },
  {
    method: "DELETE",
    path: "/api/accounts/tokens/current",
    summary: "Revoke the access token this request carries (cli logout)",
    response: "empty",
    access: "any",
  },
  {
    method: "DELETE",
    path: "/api/accounts/tokens/:id",
    summary:
      "Revoke one of the signed-in user's access tokens (a browser session; a token gets 403)",
    response: "empty",
    access: "any",
  },
  {
    method: "GET",
    path: "/auth/allowed",
    summary: "Is the caller logged in (true, else 401)",
    response: z.literal(true),
    access: "any",
    description: P1,
  },
  {
    method: "GET",
    path: "/auth/user",
    summary: 'The signed-in user and their flags ("True"/"False")',
    response: currentUser,
    access: "any",
    description: P1,
  },
  {
    method: "POST",
    path: "/auth/login",
    summary: "Log in; sets the session cookies",
    response: z.object({ username: z.string() }),
    access: "public",
    description: `${P1} 401 with one generic message on any failure; 429 when throttled.`,
  },
  {
    method: "POST",
    path: "/auth/reset-password",
    summary: "Ask for a password reset link (a bare JSON string or { username })",
    response: z.object({ message: z.string() }),
    access: "public",
    description: P1,
  },
  {
    method: "POST",
    path: "/auth/reset-password/complete",
    summary: "Set a new password with a reset token (beyond the contract)",
    response: "empty",
    access: "public",
  },
  {
    method: "POST",
    path: "/auth/logout",
    summary: "End the session and clear its cookies",
    response: "empty",
    access: "public",
    description: P1,
  },
  {
    method: "POST",
    path: "/auth/refresh-token",
    summary: "Rotate the session cookies (empty body)",
    response: "empty",
    access: "public",
    description: `${P1} 401 when the refresh cookie is missing, expired or reused.`,
  },
  {
    method: "GET",
    path: "/api/accounts/user-info/:username",
    summary: "A user's account information (own, or any for Admin)",
    response: userInfo,
    description: P1,
  },
  {
    method: "GET",
    path: "/api/accounts/order-tracking-settings",
    summary: "A user's order tracking column settings, by user id",
    response: orderTrackingSettings,
    description: P1,
  },
  {
    method: "GET",
    path: "/api/accounts/order-tracking-settings/username",
    summary: "A user's order tracking column settings, by user name",
    response: orderTrackingSettings,
    description: P1,
  },
  {
    method: "POST",
    path: "/api/accounts/update/user-info",
    summary: "Change e-mail, first and last name",
    response: userInfo,
    description: `${P1} Changing one's own e-mail needs a browser session logged in within 30 ` +
      "minutes (a token gets 403); the old address is told by mail (docs/auth.md).",
  },
  {
    method: "POST",
    path: "/api/accounts/update/username",
    summary: "Rename a user",
    response: z.object({ username: z.string() }),
    description: `${P1} Renaming oneself needs a browser session logged in within 30 minutes.`,
  },
  {
    method: "POST",
    path: "/api/accounts/update/password",
    summary: "Change a password (the current one is checked; a browser session, never a token)",
    response: "empty",
    description: P1,
  },
  {
    method: "POST",
    path: "/api/accounts/update/order-tracking-settings",
    summary: "Save the order tracking column settings",
    response: orderTrackingSettings,
    description: P1,
  },
  {
    method: "GET",
    path: "/api/accounts/count",
    summary: "Number of users",
    response: z.number().int(),
    access: "admin",
    description: P1,
  },
  {
    method: "GET",
    path: "/api/accounts/list",
    summary: "Every user",
    response: z.array(userAccount),
    access: "admin",
    description: P1,
  },
  {
    method: "GET",
    path: "/api/accounts/user/:id",
    summary: "One user",
    response: userAccount,
    access: "admin",
    description: P1,
  },
  {
    method: "POST",
    path: "/api/accounts/update/user",
    summary: "Create (userId 0) or update a user",
    response: userAccount,
    access: "admin",
    description: P1,
  },
  {
    method: "POST",
    path: "/api/accounts/delete/:id",
    summary: "Delete a user",
    response: "empty",
    access: "admin",
    description: P1,
  },
]);
