/**
 * XLSX files of the bench as the streaming writers suppliers' systems use write them: openpyxl
 * and XlsxWriter (the real packages, from pip, when python3 has them; else a generator of the
 * same XML) and Apache POI's SXSSF (always a generator: no JVM in the bench). The generators
 * follow each writer's output part for part: element and attribute order, which cells carry
 * `r` and `s`, how numbers are printed, inline strings or shared strings, line breaks.
 */
import { zipParts } from "./rezip.ts";

/** Columns holding numbers (Qty, Unit Price, Total); the prices are formatted 0.00. */
const NUMBER_COLUMNS = new Set([4, 5, 6]);
const MONEY_COLUMNS = new Set([5, 6]);

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const CT = "application/vnd.openxmlformats-officedocument.spreadsheetml";
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A1-style reference of 0-based column `c` in 1-based row `r`. */
function ref(c: number, r: number): string {
  let s = "";
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  }
  return s + r;
}

function contentTypes(overrides: [string, string][], declaration: string, space: string) {
  return `${declaration}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"${space}/>` +
    `<Default Extension="xml" ContentType="application/xml"${space}/>` +
    overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"${space}/>`)
      .join("") +
    "</Types>";
}

const SHEET_CT = `${CT}.worksheet+xml`;
const BOOK_CT = `${CT}.sheet.main+xml`;
const STYLES_CT = `${CT}.styles+xml`;
const SST_CT = `${CT}.sharedStrings+xml`;
const CORE_CT = "application/vnd.openxmlformats-package.core-properties+xml";
const APP_CT = "application/vnd.openxmlformats-officedocument.extended-properties+xml";

/** docProps/core.xml and app.xml, which every writer adds and no reader here looks at. */
function docProps(application: string, declaration: string): [string, string][] {
  return [
    [
      "docProps/core.xml",
      `${declaration}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>${application}</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">2024-03-05T00:00:00Z</dcterms:created></cp:coreProperties>`,
    ],
    [
      "docProps/app.xml",
      `${declaration}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>${application}</Application></Properties>`,
    ],
  ];
}

/** `"%.16g" % v`, as openpyxl prints numbers (819.56 → 819.5599999999999, 15109.0 → 15109). */
function pythonNumber(v: number): string {
  return xlsxwriterNumber(v).toLowerCase();
}

/**
 * As openpyxl 3.1 writes a workbook (`Workbook()`, `ws.append(row)`, number_format "0.00" on the
 * prices): no XML declaration, every cell with `r`, text as `t="inlineStr"` `<is><t>` (with
 * `xml:space="preserve"` around spaces), numbers `t="n"`, styled cells `s` before `t`, no line
 * breaks, no shared strings part.
 */
export function openpyxlParts(headers: string[], rows: string[][]): [string, string][] {
  const sheet: string[] = [
    `<worksheet xmlns="${MAIN}"><sheetPr><outlinePr summaryBelow="1" summaryRight="1" /><pageSetUpPr /></sheetPr>` +
    `<dimension ref="A1:${
      ref(headers.length - 1, rows.length + 1)
    }" /><sheetViews><sheetView workbookViewId="0">` +
    `<selection activeCell="A1" sqref="A1" /></sheetView></sheetViews><sheetFormatPr baseColWidth="8" defaultRowHeight="15" /><sheetData>`,
  ];
  [headers, ...rows].forEach((row, i) => {
    const r = i + 1;
    let out = `<row r="${r}">`;
    row.forEach((v, c) => {
      if (i > 0 && NUMBER_COLUMNS.has(c)) {
        const s = MONEY_COLUMNS.has(c) ? ' s="1"' : "";
        out += `<c r="${ref(c, r)}"${s} t="n"><v>${pythonNumber(Number(v))}</v></c>`;
      } else {
        const space = v !== v.trim() ? ' xml:space="preserve"' : "";
        out += `<c r="${ref(c, r)}" t="inlineStr"><is><t${space}>${escapeXml(v)}</t></is></c>`;
      }
    });
    sheet.push(out + "</row>");
  });
  sheet.push(
    '</sheetData><pageMargins left="0.75" right="0.75" top="1" bottom="1" header="0.5" footer="0.5" /></worksheet>',
  );
  return [
    [
      "[Content_Types].xml",
      contentTypes(
        [
          ["/xl/styles.xml", STYLES_CT],
          ["/docProps/core.xml", CORE_CT],
          ["/docProps/app.xml", APP_CT],
          ["/xl/worksheets/sheet1.xml", SHEET_CT],
          ["/xl/workbook.xml", BOOK_CT],
        ],
        "",
        " ",
      ),
    ],
    [
      "_rels/.rels",
      `<Relationships xmlns="${PKG_REL}"><Relationship Type="${REL}/officeDocument" Target="xl/workbook.xml" Id="rId1" /></Relationships>`,
    ],
    [
      "xl/workbook.xml",
      `<workbook xmlns:r="${REL}" xmlns="${MAIN}"><workbookPr /><workbookProtection /><bookViews><workbookView visibility="visible" minimized="0" showHorizontalScroll="1" showVerticalScroll="1" showSheetTabs="1" tabRatio="600" firstSheet="0" activeTab="0" autoFilterDateGrouping="1" /></bookViews><sheets><sheet name="Orders" sheetId="1" state="visible" r:id="rId1" /></sheets><definedNames /><calcPr calcId="124519" fullCalcOnLoad="1" /></workbook>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `<Relationships xmlns="${PKG_REL}"><Relationship Type="${REL}/worksheet" Target="/xl/worksheets/sheet1.xml" Id="rId1" /><Relationship Type="${REL}/styles" Target="styles.xml" Id="rId2" /></Relationships>`,
    ],
    [
      "xl/styles.xml",
      `<styleSheet xmlns="${MAIN}"><numFmts count="0" /><fonts count="1"><font><name val="Calibri" /><family val="2" /><color theme="1" /><sz val="11" /><scheme val="minor" /></font></fonts><fills count="2"><fill><patternFill /></fill><fill><patternFill patternType="gray125" /></fill></fills><borders count="1"><border><left /><right /><top /><bottom /><diagonal /></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" /></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" pivotButton="0" quotePrefix="0" xfId="0" /><xf numFmtId="2" fontId="0" fillId="0" borderId="0" pivotButton="0" quotePrefix="0" xfId="0" /></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0" hidden="0" /></cellStyles><tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16" /></styleSheet>`,
    ],
    ["xl/worksheets/sheet1.xml", sheet.join("")],
    ...docProps("openpyxl", ""),
  ];
}

/** Python's `"%.16G" % v`, as XlsxWriter prints numbers (70.35 → 70.34999999999999). */
function xlsxwriterNumber(v: number): string {
  let s = v.toPrecision(16);
  if (s.includes("e")) return s.toUpperCase();
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s;
}

/**
 * As XlsxWriter 3.2 writes a workbook with a format on every cell (a border; prices also 0.00):
 * text in shared strings (`t="s"`, in order of first use), `s` before `t`, numbers without `t`
 * printed `%.16G`, `spans` on every row, no line breaks.
 */
export function xlsxwriterParts(headers: string[], rows: string[][]): [string, string][] {
  const sst: string[] = [];
  const index = new Map<string, number>();
  let count = 0;
  const sheet: string[] = [
    `${DECL}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><dimension ref="A1:${
      ref(headers.length - 1, rows.length + 1)
    }"/><sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/><sheetData>`,
  ];
  [headers, ...rows].forEach((row, i) => {
    const r = i + 1;
    let out = `<row r="${r}" spans="1:${row.length}">`;
    row.forEach((v, c) => {
      const s = i > 0 && MONEY_COLUMNS.has(c) ? 2 : 1;
      if (i > 0 && NUMBER_COLUMNS.has(c)) {
        out += `<c r="${ref(c, r)}" s="${s}"><v>${xlsxwriterNumber(Number(v))}</v></c>`;
      } else {
        let k = index.get(v);
        if (k === undefined) {
          k = sst.length;
          index.set(v, k);
          sst.push(v);
        }
        count++;
        out += `<c r="${ref(c, r)}" s="${s}" t="s"><v>${k}</v></c>`;
      }
    });
    sheet.push(out + "</row>");
  });
  sheet.push(
    '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
  );
  const items = sst.map((t) =>
    /^\s|\s$/.test(t)
      ? `<si><t xml:space="preserve">${escapeXml(t)}</t></si>`
      : `<si><t>${escapeXml(t)}</t></si>`
  );
  return [
    [
      "[Content_Types].xml",
      contentTypes(
        [
          ["/docProps/app.xml", APP_CT],
          ["/docProps/core.xml", CORE_CT],
          ["/xl/styles.xml", STYLES_CT],
          ["/xl/workbook.xml", BOOK_CT],
          ["/xl/worksheets/sheet1.xml", SHEET_CT],
          ["/xl/sharedStrings.xml", SST_CT],
        ],
        DECL,
        "",
      ),
    ],
    [
      "_rels/.rels",
      `${DECL}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${DECL}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId4" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ],
    ["xl/worksheets/sheet1.xml", sheet.join("")],
    [
      "xl/workbook.xml",
      `${DECL}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><fileVersion appName="xl" lastEdited="4" lowestEdited="4" rupBuild="4505"/><workbookPr defaultThemeVersion="124226"/><bookViews><workbookView xWindow="240" yWindow="15" windowWidth="16095" windowHeight="9660"/></bookViews><sheets><sheet name="Orders" sheetId="1" r:id="rId1"/></sheets><calcPr calcId="124519" fullCalcOnLoad="1"/></workbook>`,
    ],
    [
      "xl/sharedStrings.xml",
      `${DECL}<sst xmlns="${MAIN}" count="${count}" uniqueCount="${sst.length}">${
        items.join("")
      }</sst>`,
    ],
    ...docProps("Microsoft Excel", DECL),
    [
      "xl/styles.xml",
      `${DECL}<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.00"/></numFmts><fonts count="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border><border><left style="thin"><color auto="1"/></left><right style="thin"><color auto="1"/></right><top style="thin"><color auto="1"/></top><bottom style="thin"><color auto="1"/></bottom><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="0" fillId="0" borderId="1" xfId="0" applyBorder="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="1" xfId="0" applyNumberFormat="1" applyBorder="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16"/></styleSheet>`,
    ],
  ];
}

/** Java's Double.toString for the bench's values (below 10^7): "3.0", "12.5". */
function javaDouble(v: number): string {
  const s = String(v);
  return s.includes(".") ? s : `${s}.0`;
}

/**
 * As Apache POI's SXSSFWorkbook (5.x, defaults: no shared strings table) writes a sheet:
 * SheetDataWriter's layout spliced into XSSFSheet's template. Each row `<row r="N">` then a line
 * break, cells on one line, `</row>` and a line break; every cell with `r`; `s` only for a
 * style other than 0 (the prices, numFmt 2); text `t="inlineStr"` `<is><t>`; numbers `t="n"`
 * printed by Double.toString. POI also writes an empty shared strings part.
 */
export function sxssfParts(headers: string[], rows: string[][]): [string, string][] {
  const sheet: string[] = [
    `<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="${MAIN}"><dimension ref="A1"/><sheetViews><sheetView workbookViewId="0" tabSelected="true"/></sheetViews><sheetFormatPr defaultRowHeight="15.0"/><sheetData>`,
  ];
  [headers, ...rows].forEach((row, i) => {
    const r = i + 1;
    let out = `<row r="${r}">\n`;
    row.forEach((v, c) => {
      if (i > 0 && NUMBER_COLUMNS.has(c)) {
        const s = MONEY_COLUMNS.has(c) ? ' s="1"' : "";
        out += `<c r="${ref(c, r)}"${s} t="n"><v>${javaDouble(Number(v))}</v></c>`;
      } else {
        const space = v !== v.trim() ? ' xml:space="preserve"' : "";
        out += `<c r="${ref(c, r)}" t="inlineStr"><is><t${space}>${escapeXml(v)}</t></is></c>`;
      }
    });
    sheet.push(out + "</row>\n");
  });
  sheet.push(
    '</sheetData><pageMargins bottom="0.75" footer="0.3" header="0.3" left="0.7" right="0.7" top="0.75"/></worksheet>',
  );
  const decl = '<?xml version="1.0" encoding="UTF-8"?>\n';
  return [
    [
      "[Content_Types].xml",
      contentTypes(
        [
          ["/docProps/app.xml", APP_CT],
          ["/docProps/core.xml", CORE_CT],
          ["/xl/sharedStrings.xml", SST_CT],
          ["/xl/styles.xml", STYLES_CT],
          ["/xl/workbook.xml", BOOK_CT],
          ["/xl/worksheets/sheet1.xml", SHEET_CT],
        ],
        DECL,
        "",
      ),
    ],
    [
      "_rels/.rels",
      `${DECL}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Target="xl/workbook.xml" Type="${REL}/officeDocument"/></Relationships>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${DECL}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Target="sharedStrings.xml" Type="${REL}/sharedStrings"/><Relationship Id="rId2" Target="styles.xml" Type="${REL}/styles"/><Relationship Id="rId3" Target="worksheets/sheet1.xml" Type="${REL}/worksheet"/></Relationships>`,
    ],
    [
      "xl/sharedStrings.xml",
      `${decl}<sst count="0" uniqueCount="0" xmlns="${MAIN}"/>`,
    ],
    [
      "xl/styles.xml",
      `${decl}<styleSheet xmlns="${MAIN}"><numFmts count="0"/><fonts count="1"><font><sz val="11.0"/><color indexed="8"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="darkGray"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="2" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="true"/></cellXfs><cellStyles count="1"><cellStyle xfId="0" name="Normal" builtinId="0"/></cellStyles><dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium9" defaultPivotStyle="PivotStyleLight16"/></styleSheet>`,
    ],
    [
      "xl/workbook.xml",
      `${decl}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr date1904="false"/><bookViews><workbookView activeTab="0"/></bookViews><sheets><sheet name="Orders" r:id="rId3" sheetId="1"/></sheets></workbook>`,
    ],
    ["xl/worksheets/sheet1.xml", sheet.join("")],
    ...docProps("Apache POI", DECL),
  ];
}

/** A zip (deflated by zlib, as all three writers deflate) of the parts. */
export function producerXlsx(parts: [string, string][]): Promise<Uint8Array> {
  const enc = new TextEncoder();
  return zipParts(parts.map(([name, xml]) => [name, enc.encode(xml)]));
}

/**
 * Has the real openpyxl and XlsxWriter write the CSV (bench/xlsx_producers.py); the paths, or
 * null and why when python3 or a package is missing (the generators then stand in).
 */
export async function pythonXlsx(
  dir: string,
  csv: string,
): Promise<{ openpyxl: string; xlsxwriter: string } | { note: string }> {
  try {
    const done = await new Deno.Command("python3", {
      args: [new URL("./xlsx_producers.py", import.meta.url).pathname, csv, dir],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!done.success) {
      const why = new TextDecoder().decode(done.stderr).trim().split("\n").at(-1);
      return { note: `python3 bench/xlsx_producers.py failed: ${why}` };
    }
    return { openpyxl: `${dir}/orders_openpyxl.xlsx`, xlsxwriter: `${dir}/orders_xlsxwriter.xlsx` };
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return { note: "python3 is not installed" };
    return { note: `python3 failed: ${e instanceof Error ? e.message : e}` };
  }
}
