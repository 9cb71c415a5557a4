/** The session cookies: names as the spec's client knows them. */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { isHttps } from "../http/client.ts";
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS, type TokenPair } from "./sessions.ts";

export const ACCESS_COOKIE = "X-Access-Token";
export const REFRESH_COOKIE = "X-Refresh-Token";
export const USERNAME_COOKIE = "X-Username";
// The refresh token only travels to the calls that need it.
const REFRESH_PATH = "/auth";

/** Sets the access, refresh and (readable, no authority) username cookies. */
export function setSessionCookies(c: Context, tokens: TokenPair, username: string): void {
  const secure = isHttps(c);
  const base = { secure, sameSite: "Strict" as const };
  setCookie(c, ACCESS_COOKIE, tokens.access, {
    ...base,
    httpOnly: true,
    path: "/",
    maxAge: ACCESS_TOKEN_SECONDS,
  });
  setCookie(c, REFRESH_COOKIE, tokens.refresh, {
    ...base,
    httpOnly: true,
    path: REFRESH_PATH,
    maxAge: REFRESH_TOKEN_SECONDS,
  });
  setUsernameCookie(c, username);
}

/** Sets only the readable `X-Username` cookie (after a rename; it carries no authority). */
export function setUsernameCookie(c: Context, username: string): void {
  setCookie(c, USERNAME_COOKIE, encodeURIComponent(username), {
    secure: isHttps(c),
    sameSite: "Strict",
    path: "/",
    maxAge: REFRESH_TOKEN_SECONDS,
  });
}

/** Expires all three cookies. */
export function clearSessionCookies(c: Context): void {
  const secure = isHttps(c);
  deleteCookie(c, ACCESS_COOKIE, { path: "/", secure });
  deleteCookie(c, REFRESH_COOKIE, { path: REFRESH_PATH, secure });
  deleteCookie(c, USERNAME_COOKIE, { path: "/", secure });
}

/** Reads the access token cookie. */
export const accessToken = (c: Context) => getCookie(c, ACCESS_COOKIE);
/** Reads the refresh token cookie. */
export const refreshToken = (c: Context) => getCookie(c, REFRESH_COOKIE);
