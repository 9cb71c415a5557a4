import { z } from "zod";

/** Login form rules: both fields trimmed and non-empty (part 1, section 5). */
export const loginSchema = z.object({
  username: z.string().trim().min(1, "Username is required"),
  password: z.string().trim().min(1, "Password is required"),
});

/** Values of the login form after validation. */
export type LoginValues = z.infer<typeof loginSchema>;

/** Forgot Password asks for a username only. */
export const forgotPasswordSchema = z.object({
  username: z.string().trim().min(1, "Username is required"),
});

/** Failure texts of a login attempt (part 1, section 8). */
export const LOGIN_FAILED = "Login failed. Please try again.";
/** Shown for a status other than 200/204 that carries no message. */
export const LOGIN_BAD_CREDENTIALS = "Login failed. Please check your credentials.";
