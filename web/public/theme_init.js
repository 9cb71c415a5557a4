// Runs before the app's bundle and before first paint, so a reload never flashes the wrong
// theme. Kept in sync with src/state/theme.ts (same storage key and values).
(() => {
  let choice = "dark";
  try {
    const stored = localStorage.getItem("theme");
    if (stored === "light" || stored === "dark" || stored === "system") choice = stored;
  } catch (_) {
    // Storage blocked by the browser: keep the default.
  }
  const dark = choice === "dark" ||
    (choice === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  const root = document.documentElement;
  root.classList.add(dark ? "dark" : "light");
  root.style.colorScheme = dark ? "dark" : "light";
})();
