/**
 * Left alignment of every cell of a written workbook (`vendorWantsAllAlignedLeft`). SheetJS's
 * community edition writes no cell styles, so the written file is patched: in an XLSX every
 * cell format (`cellXfs`) of `xl/styles.xml` gets `<alignment horizontal="left"/>`; in an XLS
 * (BIFF8) every cell XF record gets horizontal alignment "left" and its alignment-used flag.
 */
import * as XLSX from "xlsx";

// deno-lint-ignore no-explicit-any
type Cfb = any;

/** Every `<xf>` inside `<cellXfs>` gets left alignment (existing alignment replaced). */
export function leftAlignStyles(xml: string): string {
  return xml.replace(/<cellXfs\b[^>]*>[\s\S]*?<\/cellXfs>/, (block) =>
    block.replace(
      /<xf\b([^>]*?)(\/>|>([\s\S]*?)<\/xf>)/g,
      (_all, attrs: string, _end: string, inner: string | undefined) => {
        const a = attrs.replace(/\s+applyAlignment="[^"]*"/, "") + ' applyAlignment="1"';
        const rest = (inner ?? "").replace(/<alignment\b[^>]*?(\/>|>[\s\S]*?<\/alignment>)/, "");
        return `<xf${a}><alignment horizontal="left"/>${rest}</xf>`;
      },
    ));
}

/** Patches the XF records of a BIFF8 workbook stream in place. */
function leftAlignBiff(stream: Uint8Array): void {
  const view = new DataView(stream.buffer, stream.byteOffset, stream.byteLength);
  let p = 0;
  while (p + 4 <= stream.length) {
    const type = view.getUint16(p, true);
    const size = view.getUint16(p + 2, true);
    const data = p + 4;
    if (type === 0x00e0 && size >= 20 && data + size <= stream.length) {
      const flags = view.getUint16(data + 4, true);
      const isStyleXf = (flags & 0x0004) !== 0;
      if (!isStyleXf) {
        stream[data + 6] = (stream[data + 6] & ~0x07) | 0x01; // alc = left
        stream[data + 9] |= 0x10; // fAtrAlc: alignment differs from the parent style
      }
    }
    p = data + size;
  }
}

/**
 * Returns the workbook with every cell left aligned. The input is a file SheetJS wrote.
 *
 * @example const left = alignAllLeft(writeTable(["a"], [["x"]], "xlsx"), "xlsx");
 */
export function alignAllLeft(bytes: Uint8Array, format: "xlsx" | "xls"): Uint8Array {
  const cfb: Cfb = XLSX.CFB.read(bytes, { type: "array" });
  if (format === "xlsx") {
    const entry = XLSX.CFB.find(cfb, "/xl/styles.xml");
    if (!entry) return bytes;
    const xml = new TextDecoder().decode(entry.content);
    entry.content = new TextEncoder().encode(leftAlignStyles(xml));
    return new Uint8Array(
      XLSX.CFB.write(cfb, { fileType: "zip", type: "array", compression: true }),
    );
  }
  const entry = XLSX.CFB.find(cfb, "/Workbook") ?? XLSX.CFB.find(cfb, "/Book");
  if (!entry) return bytes;
  const stream = new Uint8Array(entry.content);
  leftAlignBiff(stream);
  entry.content = stream;
  return new Uint8Array(XLSX.CFB.write(cfb, { fileType: "cfb", type: "array" }));
}
