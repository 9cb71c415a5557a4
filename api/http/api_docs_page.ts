/**
 * `GET /api/docs`: a readable API reference rendered by the server from the OpenAPI document
 * (no CDN, no script: the app's CSP allows only its own scripts, and this page needs none). Each
 * operation shows its summary, access, parameters, request body and answer schemas.
 */

type Json = Record<string, unknown>;

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A schema as indented JSON, `$ref`s left as they are (components follow at the end). */
function schemaBlock(schema: unknown): string {
  return `<pre>${escape(JSON.stringify(schema, null, 2))}</pre>`;
}

function contentBlocks(content: Json | undefined): string {
  if (!content) return "";
  return Object.entries(content).map(([type, media]) =>
    `<p class="type">${escape(type)}</p>${schemaBlock((media as Json).schema)}`
  ).join("");
}

/**
 * The page's HTML.
 *
 * @example
 * ```ts
 * const html = renderApiDocs({ info: { title: "T" }, paths: {} });
 * if (!html.includes("<title>T</title>")) throw new Error();
 * ```
 */
export function renderApiDocs(document: Json): string {
  const info = (document.info ?? {}) as Json;
  const title = String(info.title ?? "API");
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const toc: string[] = [];
  const sections: string[] = [];
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const id = String(op.operationId ?? `${method}${path}`);
      toc.push(
        `<li><a href="#${escape(id)}"><code>${method.toUpperCase()} ${escape(path)}</code></a> ${
          escape(String(op.summary ?? ""))
        }</li>`,
      );
      const params = (op.parameters ?? []) as Json[];
      const paramRows = params.map((p) =>
        `<tr><td><code>${escape(String(p.name))}</code></td><td>${escape(String(p.in))}</td><td>${
          p.required ? "yes" : "no"
        }</td><td><code>${escape(JSON.stringify(p.schema))}</code></td></tr>`
      ).join("");
      const body = op.requestBody as Json | undefined;
      const responses = (op.responses ?? {}) as Record<string, Json>;
      sections.push(`<section id="${escape(id)}">
<h2><span class="method ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h2>
<p>${escape(String(op.summary ?? ""))}</p>
${
        String(op.description ?? "").split("\n\n").map((p) => `<p class="desc">${escape(p)}</p>`)
          .join("")
      }
${
        paramRows
          ? `<h3>Parameters</h3><table><tr><th>name</th><th>in</th><th>required</th><th>schema</th></tr>${paramRows}</table>`
          : ""
      }
${body ? `<h3>Request body</h3>${contentBlocks(body.content as Json)}` : ""}
<h3>Responses</h3>
${
        Object.entries(responses).map(([status, r]) =>
          `<details${status.startsWith("2") ? " open" : ""}><summary><b>${escape(status)}</b> ${
            escape(String(r.description ?? ""))
          }</summary>${contentBlocks(r.content as Json)}</details>`
        ).join("")
      }
</section>`);
    }
  }
  const components = ((document.components ?? {}) as Json).schemas as Json | undefined;
  const componentBlocks = Object.entries(components ?? {}).map(([name, schema]) =>
    `<section id="schema-${escape(name)}"><h3><code>#/components/schemas/${
      escape(name)
    }</code></h3>${schemaBlock(schema)}</section>`
  ).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem 2rem;color:#222}
code,pre{font:13px ui-monospace,monospace}pre{background:#f5f5f7;padding:.6rem;overflow:auto;max-height:30rem}
section{border-top:1px solid #ddd;padding:.5rem 0}table{border-collapse:collapse}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
.method{display:inline-block;min-width:4.5rem;color:#fff;border-radius:4px;padding:0 .4rem;font-size:14px}
.get{background:#2a7ae2}.post{background:#2e9e5b}.put{background:#c88a00}.delete{background:#c0392b}
.type{color:#666;margin:.3rem 0}.desc{color:#444}
</style></head><body>
<h1>${escape(title)}</h1>
<p>${escape(String(info.description ?? ""))}</p>
<p>Machine-readable: <a href="/api/openapi.json"><code>/api/openapi.json</code></a> (OpenAPI ${
    escape(String(document.openapi ?? ""))
  }).</p>
<h2>Operations</h2><ul>${toc.join("")}</ul>
${sections.join("\n")}
<h2>Shared schemas</h2>${componentBlocks}
</body></html>`;
}
