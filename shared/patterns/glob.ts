/**
 * `*` wildcards (a source's attachment-name pattern, `orders_*.csv`) matched without a regular
 * expression: the greedy two-pointer matcher, which on a failed guess moves only the last star
 * on, so its work is at most (pattern length × name length) steps; the regex the wildcard used
 * to become (`.*` groups) backtracked exponentially on `*a*a*a*a*a*a*b` (issue 28, finding 2;
 * docs/limits.md "Patterns").
 */

/**
 * True when `name` matches `pattern` whole, `*` standing for any run of characters (none
 * included) and every other character for itself. `ignoreCase` compares lower-cased text.
 *
 * @example
 * ```ts
 * globMatch("orders_*.csv", "orders_2026-11-24.csv"); // true
 * globMatch("*a*b", "aaaa"); // false
 * ```
 */
export function globMatch(
  pattern: string,
  name: string,
  options: { ignoreCase?: boolean } = {},
): boolean {
  const p = options.ignoreCase ? pattern.toLowerCase() : pattern;
  const s = options.ignoreCase ? name.toLowerCase() : name;
  let pi = 0;
  let si = 0;
  // Where the last star was and how much of the name it has taken so far.
  let star = -1;
  let starSi = 0;
  while (si < s.length) {
    if (pi < p.length && p[pi] === "*") {
      star = pi++;
      starSi = si;
    } else if (pi < p.length && p[pi] === s[si]) {
      pi++;
      si++;
    } else if (star >= 0) {
      // The guess after the last star failed: that star takes one more character.
      pi = star + 1;
      si = ++starSi;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}
