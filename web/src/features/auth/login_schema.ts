import { z } from "zod";
import { loginRequest } from "../../../../shared/contract/auth.ts";

/**
 * Login form rules: both fields trimmed and non-empty (part 1, section 5). The server's schema
 * trims only the username; the spec trims the password too, so the form does.
 */
export const loginSchema = loginRequest.extend({
  password: z.string().trim().min(1, "Password is required"),
});

/** Values of the login form after validation. */
export type LoginValues = z.infer<typeof loginSchema>;

/** Forgot Password asks for a username only, with the login form's rule. */
export const forgotPasswordSchema = z.object({ username: loginRequest.shape.username });

/** Failure texts of a login attempt (part 1, section 8). */
export const LOGIN_FAILED = "Login failed. Please try again.";
/** Shown for a status other than 200/204 that carries no message. */
export const LOGIN_BAD_CREDENTIALS = "Login failed. Please check your credentials.";
