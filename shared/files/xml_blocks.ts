/**
 * Turns inflated bytes into blocks of XML text that end right after a closing tag, so a
 * scanner never sees half an element: the partial element at the end of one piece is carried
 * over to the next. UTF-8 is decoded in stream mode, so a character split between pieces is
 * kept whole. The last block is whatever follows the last closing tag.
 */
export async function* xmlBlocks(
  pieces: AsyncIterable<Uint8Array>,
  closingTag: string,
): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  let carry = "";
  for await (const piece of pieces) {
    const text = carry + decoder.decode(piece, { stream: true });
    const cut = text.lastIndexOf(closingTag);
    if (cut < 0) {
      carry = text;
      continue;
    }
    const end = cut + closingTag.length;
    carry = text.slice(end);
    yield text.slice(0, end);
  }
  const rest = carry + decoder.decode();
  if (rest) yield rest;
}

/** Reads a whole (small) part as text. */
export async function xmlText(pieces: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder("utf-8");
  let text = "";
  for await (const piece of pieces) text += decoder.decode(piece, { stream: true });
  return text + decoder.decode();
}
