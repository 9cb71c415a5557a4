import assert from "node:assert/strict";
import { compileRegex, MAX_REGEX_CHARS, regexError } from "./linear_regex.ts";

// Patterns of the kind vendors use, each with texts: the first match (and its groups) must be
// what JavaScript's RegExp gave before the switch to RE2.
const ORDINARY: [string, string[]][] = [
  ["^[^,]+", ["ABC-123 Blue widget, large", "no comma", ",leading", ""]],
  ["SKU (\\d+)", ["Widget (SKU 991)", "SKU none", "sku 12"]],
  ["^[^(]+", ["Hammer (steel) 2kg", "(x)"]],
  ["^(\\S+)\\s", ["ABC-1 Hammer", "ABC-1\u00a0Hammer", "single"]],
  ["\\s+-\\s+.*$", ["Nails - box of 100", "Nails-box"]],
  ["(?:Part|Item)\\s*#?\\s*([A-Z0-9\\-]+)", ["Item # AB-77 green", "part 5", "Part#X1"]],
  ["^.{0,10}", ["A very long description", "short"]],
  ["\\b\\w+\\b$", ["last word", "trailing space "]],
  ["[\\u00e9e]t\\u00e9", ["\u00e9t\u00e9 collection", "ete"]],
  ["(x)?(y)", ["y", "xy"]],
  ["^\\d{3}-\\d{4}\\b", ["555-1234 phone", "55-1234"]],
  ["[^]{3}", ["a\nbc"]],
  ["a[]b|ab", ["ab"]],
  ["\\.(csv|xlsx?)$", ["orders.CSV", "orders.xlsx", "orders.xls", "orders.txt"]],
  ["^(a+)+$", ["aaaa", "aaab"]],
];

for (const [pattern, texts] of ORDINARY) {
  Deno.test(`compileRegex: ${pattern} answers as RegExp did`, () => {
    const linear = compileRegex(pattern);
    const native = new RegExp(pattern);
    for (const text of texts) {
      const before = native.exec(text);
      assert.deepEqual(linear.exec(text), before ? [...before] : null, JSON.stringify(text));
      assert.equal(linear.test(text), native.test(text), JSON.stringify(text));
    }
  });
}

Deno.test("compileRegex: ignoreCase matches either case", () => {
  assert.deepEqual(compileRegex("sku (\\d+)", { ignoreCase: true }).exec("SKU 7"), ["SKU 7", "7"]);
  assert.equal(compileRegex("sku").test("SKU"), false);
});

// The patterns of issue 28: with JavaScript's backtracking engine the first took 59 s on four
// such descriptions, each further character doubling it.
const HOSTILE: [string, string][] = [
  ["^(a+)+$", "a".repeat(29) + "!"],
  ["^(a+)+$", "a".repeat(2_000) + "!"],
  ["(a|aa)+$", "a".repeat(2_000) + "!"],
  ["^(\\w+\\s?)*$", "word ".repeat(400) + "!"],
  ["(.*a){12}", "a".repeat(2_000)],
  ["^(" + "a*".repeat(400) + ")$", "a".repeat(1_999) + "!"],
];

for (const [pattern, text] of HOSTILE) {
  Deno.test(`compileRegex: ${pattern.slice(0, 30)} on ${text.length} characters is quick`, () => {
    const re = compileRegex(pattern);
    const started = performance.now();
    re.exec(text);
    re.test(text);
    const ms = performance.now() - started;
    // Generous: the machine is shared. Backtracking needed minutes to years here.
    assert.ok(ms < 2_000, `took ${ms.toFixed(0)} ms`);
  });
}

Deno.test("regexError: what the vendor form shows for each refused pattern", () => {
  const cases: [string, RegExp | null][] = [
    ["^[^,]+", null],
    ["^(a+)+$", null], // linear on RE2: accepted
    ["(?<code>[A-Z]+)-\\d+", null],
    ["(?i)widget", null], // RE2's inline flags work too
    ["(a)\\1", /^Backreferences \(\\1, \\k<name>\) are not supported/],
    ["(?<x>a)\\k<x>", /^Backreferences/],
    ["foo(?=bar)", /^Lookahead and lookbehind .* are not supported/],
    ["foo(?!bar)", /^Lookahead and lookbehind/],
    ["(?<=\\$)\\d+", /^Lookahead and lookbehind/],
    ["(?<!x)y", /^Lookahead and lookbehind/],
    ["\\cA", /^This pattern is not supported by the linear-time engine \(RE2 syntax\): /],
    ["a{1001}", /not supported by the linear-time engine.*repeat count/],
    ["([a-z]", /^Invalid regular expression: missing closing \)/],
    ["*a", /^Invalid regular expression: missing argument to repetition operator/],
    ["a".repeat(MAX_REGEX_CHARS + 1), /^The pattern is longer than 1,000 characters\.$/],
  ];
  for (const [pattern, expected] of cases) {
    const error = regexError(pattern);
    if (expected === null) assert.equal(error, null, pattern);
    else assert.match(error ?? "(accepted)", expected, pattern.slice(0, 40));
  }
});
