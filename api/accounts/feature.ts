/**
 * Accounts: login, logout, password reset and sessions (`/auth`), the signed-in user's account
 * and Admin's user management (`/api/accounts`). The mechanisms (sessions, passwords, tokens,
 * guards) are the platform layer `api/auth/`; the endpoints that use them live here.
 */
import { defineFeature } from "../feature.ts";
import { accountsDocs } from "./docs.ts";
import { PASSWORD_RESET_JOB, passwordResetJob } from "../auth/password_reset.ts";
import { authRoutes } from "./auth_routes.ts";
import { accountRoutes } from "./routes.ts";
import { EMAIL_CHANGED_JOB, emailChangedJob } from "./email_change.ts";

/** The accounts feature. */
export const accounts = defineFeature({
  name: "accounts",
  flag: "any",
  routes: [
    { path: "/auth", router: authRoutes },
    { path: "/api/accounts", router: accountRoutes },
  ],
  jobHandlers: { [PASSWORD_RESET_JOB]: passwordResetJob, [EMAIL_CHANGED_JOB]: emailChangedJob },
  docs: accountsDocs,
  writesSessions: true,
});
