/**
 * Light/Dark/System theme, kept in localStorage under "theme" (default dark). The class on
 * <html> is the single source of truth: Radix Themes inherits it, and public/theme_init.js
 * sets it before first paint with the same rules.
 */
import { atom } from "jotai";

/** The user's choice as stored. */
export type ThemeChoice = "light" | "dark" | "system";

const STORAGE_KEY = "theme";
const DEFAULT_CHOICE: ThemeChoice = "dark";
const darkQuery = () => matchMedia("(prefers-color-scheme: dark)");

/** Reads the stored choice, falling back to dark when absent, invalid or unreadable. */
export function readThemeChoice(): ThemeChoice {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === "light" || stored === "dark" || stored === "system") return stored;
  } catch {
    // Storage can be blocked by browser settings; the default still works.
  }
  return DEFAULT_CHOICE;
}

/** Applies a choice to <html>; "system" follows the operating system's preference. */
export function applyTheme(choice: ThemeChoice): void {
  const dark = choice === "dark" || (choice === "system" && darkQuery().matches);
  const root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.classList.toggle("light", !dark);
  root.style.colorScheme = dark ? "dark" : "light";
}

const choiceAtom = atom<ThemeChoice>(readThemeChoice());

/** The current theme choice; writing it stores and applies it. */
export const themeChoiceAtom = atom(
  (get) => get(choiceAtom),
  (_get, set, choice: ThemeChoice) => {
    set(choiceAtom, choice);
    try {
      localStorage.setItem(STORAGE_KEY, choice);
    } catch {
      // Not persisted, but still applied for this visit.
    }
    applyTheme(choice);
  },
);

/**
 * Keeps "system" in step with the operating system while the page is open.
 * Returns a function that stops listening.
 */
export function followSystemTheme(getChoice: () => ThemeChoice): () => void {
  const query = darkQuery();
  const onChange = () => {
    if (getChoice() === "system") applyTheme("system");
  };
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}
