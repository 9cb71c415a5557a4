/**
 * Payloads of the /api/accounts calls (spec part 1, section 7), shared by the server and the web
 * forms. Request keys arrive in any case (`UserID`, `OldUsername`); the server matches them to
 * these camelCase names.
 */
import { z } from "zod";
import { newPassword } from "./auth.ts";
import { normaliseUsername, usernameProblem } from "./usernames.ts";
import { type EnabledColumns, ORDER_TRACKING_COLUMNS } from "./order_columns.ts";
import {
  boundedString,
  CONTROL_CHARACTERS_MESSAGE,
  dbId,
  hasControlCharacters,
  MAX_ID,
  MAX_LENGTH,
} from "./fields.ts";

export const USERNAME_MAX = MAX_LENGTH.username;
export const NAME_MAX = MAX_LENGTH.personName;
export const EMAIL_MAX = MAX_LENGTH.email;
const INVALID_EMAIL = "Enter a valid email address";

/** A user id in a body: a number (or a numeric string); 0 means "new" or "me" where allowed. */
export const userIdField = z.coerce.number({ error: "userId must be a number" })
  .int("userId must be a whole number")
  .min(0, "userId must not be negative")
  .max(MAX_ID, "userId is out of range");

/** Adds the issue of an unacceptable login name (usernames.ts), naming the field. */
function checkUsername(value: string, ctx: z.core.$RefinementCtx<string>): void {
  const problem = usernameProblem(normaliseUsername(value));
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}

/**
 * A login name: NFKC-normalised and trimmed, 1 to 100 characters, no spaces, control, invisible
 * or text-direction characters, letters of one script (shared/contract/usernames.ts).
 */
export const usernameField = z.string({ error: "Username is required" })
  .transform(normaliseUsername)
  .pipe(
    z.string().min(1, "Username is required")
      .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
      .superRefine(checkUsername),
  );

const isEmail = (value: string) => z.email().safeParse(value).success;

/** An e-mail address that must be given and valid (user form). */
export const requiredEmailField = z.string({ error: "Email is required" }).trim()
  .min(1, "Email is required")
  .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
  .refine((value) => !hasControlCharacters(value), CONTROL_CHARACTERS_MESSAGE)
  .refine(isEmail, INVALID_EMAIL);

/** An e-mail address that may be blank but must be valid when given (account profile). */
export const optionalEmailField = z.string().nullish().transform((value) => (value ?? "").trim())
  .pipe(
    boundedString(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
      .refine((value) => value === "" || isEmail(value), INVALID_EMAIL),
  );

/** A first or last name: optional, trimmed, at most 100 characters. */
export const nameField = z.string().nullish().transform((value) => (value ?? "").trim())
  .pipe(boundedString(NAME_MAX, `Names must be at most ${NAME_MAX} characters`));

/** A flag: a JSON boolean, or the contract's "True"/"False" strings. */
export const flagField = z.union([
  z.boolean(),
  z.enum(["True", "False", "true", "false"]).transform((value) => value.toLowerCase() === "true"),
], { error: "Flags must be true or false" });

/** GET /api/accounts/user-info/{username}; also the answer of update/user-info. */
export const userInfo = z.object({
  userId: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** ISO 8601, or null before the first login. */
  lastLogin: z.string().nullable().describe("ISO 8601, or null before the first login"),
  createdOn: z.string().nullable(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** GET /api/accounts/user/{id} and the rows of /list. The password never leaves the server. */
export const userAccount = userInfo.extend({
  isAdmin: z.boolean(),
  inventoryUser: z.boolean(),
  orderUser: z.boolean(),
  submissionUser: z.boolean(),
  sendNotificationsToEmail: z.boolean(),
  activeStatus: z.boolean(),
});
export type UserAccount = z.infer<typeof userAccount>;

/** Column name → shown, as answered (every column of the catalog). */
const enabledColumnsAnswer = z.object(
  Object.fromEntries(ORDER_TRACKING_COLUMNS.map((name) => [name, z.boolean()])),
) as unknown as z.ZodType<EnabledColumns>;

/** GET /api/accounts/order-tracking-settings (id 0 until the user first saves). */
export const orderTrackingSettings = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  enabledColumns: enabledColumnsAnswer,
});
export type OrderTrackingSettings = z.infer<typeof orderTrackingSettings>;

// Keys of the old server's settings record that came along inside enabledColumns.
const IGNORED_COLUMN_KEYS = new Set(["id", "userordertrackingviewsettingsid", "userid"]);
const columnByLower = new Map(ORDER_TRACKING_COLUMNS.map((name) => [name.toLowerCase(), name]));

/**
 * enabledColumns as sent: column name (any case) → true/false/null (null = off). Unknown column
 * names are refused; the record's own keys (id, userOrderTrackingViewSettingsId) are ignored.
 */
export const enabledColumnsField = z.record(boundedString(MAX_LENGTH.name), z.unknown(), {
  error: "enabledColumns must map column names to true or false",
}).transform((value, ctx) => {
  const out: Partial<EnabledColumns> = {};
  for (const [key, on] of Object.entries(value)) {
    const lower = key.toLowerCase();
    if (IGNORED_COLUMN_KEYS.has(lower)) continue;
    const column = columnByLower.get(lower);
    if (!column) {
      ctx.addIssue({ code: "custom", message: `Unknown column "${key}"`, path: [key] });
    } else if (on !== null && typeof on !== "boolean") {
      ctx.addIssue({ code: "custom", message: `"${key}" must be true or false`, path: [key] });
    } else {
      out[column] = on ?? false;
    }
  }
  return out;
});

/** POST /api/accounts/update/order-tracking-settings; userId 0 means the caller. */
export const saveSettingsRequest = z.object({
  id: dbId.nullish(),
  userId: userIdField.nullish().transform((value) => value ?? 0),
  enabledColumns: enabledColumnsField,
});

/** POST /api/accounts/update/user-info */
export const updateUserInfoRequest = z.object({
  userId: userIdField,
  email: optionalEmailField,
  firstName: nameField,
  lastName: nameField,
});

/** POST /api/accounts/update/username */
export const updateUsernameRequest = z.object({
  userId: userIdField,
  oldUsername: boundedString(USERNAME_MAX).nullish().transform((value) =>
    value && normaliseUsername(value)
  ),
  newUsername: usernameField,
});

/** POST /api/accounts/update/password */
export const updatePasswordRequest = z.object({
  userId: userIdField,
  username: boundedString(USERNAME_MAX).trim().nullish(),
  oldPassword: boundedString(MAX_LENGTH.secret),
  newPassword,
});

/** A password on the user form: blank (or absent) keeps the old one, else the new-password rule. */
export const optionalPasswordField = z.string().nullish().transform((value) => value ?? "")
  .pipe(z.union([z.literal(""), newPassword], { error: "Password must be at least 8 characters" }));

/**
 * POST /api/accounts/update/user: userId 0 creates. Flags left out keep their value on edit and
 * take the new-user defaults on create (orderUser on, everything else off).
 */
export const saveUserRequest = z.object({
  userId: userIdField,
  username: usernameField,
  email: requiredEmailField,
  firstName: nameField,
  lastName: nameField,
  isAdmin: flagField.optional(),
  inventoryUser: flagField.optional(),
  orderUser: flagField.optional(),
  submissionUser: flagField.optional(),
  sendNotificationsToEmail: flagField.optional(),
  activeStatus: flagField.optional(),
  password: optionalPasswordField,
});
export type SaveUserRequest = z.infer<typeof saveUserRequest>;

/** The user form in the browser (spec section 5): username and a valid e-mail required. */
export const userFormSchema = z.object({
  username: z.string().trim().min(1, "Username is required").superRefine(checkUsername),
  email: z.string().trim().min(1, "Email is required").refine(isEmail, INVALID_EMAIL),
  firstName: z.string(),
  lastName: z.string(),
  password: z.string(),
  isAdmin: z.boolean(),
  inventoryUser: z.boolean(),
  orderUser: z.boolean(),
  submissionUser: z.boolean(),
  sendNotificationsToEmail: z.boolean(),
  activeStatus: z.boolean(),
});
export type UserForm = z.infer<typeof userFormSchema>;

/** The new-user form's starting values (orderUser on, activeStatus off: spec section 6). */
export const NEW_USER_FORM: UserForm = {
  username: "",
  email: "",
  firstName: "",
  lastName: "",
  password: "",
  isAdmin: false,
  inventoryUser: false,
  orderUser: true,
  submissionUser: false,
  sendNotificationsToEmail: false,
  activeStatus: false,
};

/** Longest name of a personal access token (the migration checks the same). */
export const ACCESS_TOKEN_NAME_MAX = 100;
/** The recognisable start of every personal access token (docs/auth.md). */
export const ACCESS_TOKEN_PREFIX = "smt_";

/** Body of `POST /api/accounts/tokens`: a name saying where the token is used. */
export const createAccessTokenRequest = z.object({
  name: boundedString(ACCESS_TOKEN_NAME_MAX).trim().min(1, "Name is required").refine(
    (value) => !hasControlCharacters(value),
    CONTROL_CHARACTERS_MESSAGE,
  ),
});

/** One personal access token as listed (never the token itself). */
export const accessToken = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the token, to tell tokens apart. */
  hint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type AccessToken = z.infer<typeof accessToken>;

/** Answer of `POST /api/accounts/tokens`: the token, shown this once. */
export const createdAccessToken = accessToken.extend({ token: z.string() });
export type CreatedAccessToken = z.infer<typeof createdAccessToken>;

/**
 * Answer of `GET /api/accounts/config-warnings` (Admin; beyond the contract): what the server's
 * configuration leaves out, in plain sentences (today: `PUBLIC_URL` unset, so mails carry no links).
 */
export const configWarningsAnswer = z.object({ warnings: z.array(z.string()) });
export type ConfigWarnings = z.infer<typeof configWarningsAnswer>;
