/** Builds raw RFC 822 messages with attachments for the mail tests. */
import { encodeBase64 } from "../../shared/base64.ts";

/** One attachment by name and content (text, or bytes such as a workbook). */
export interface TestAttachment {
  name: string;
  content: string | Uint8Array;
}

/** A multipart message as text (LF line ends; appendMessage turns them into CRLF). */
export function rawMessage(options: {
  from: string;
  to: string;
  subject: string;
  messageId?: string;
  attachments?: TestAttachment[];
}): string {
  const boundary = `b-${crypto.randomUUID()}`;
  const id = options.messageId ?? `<${crypto.randomUUID()}@example.test>`;
  const parts = [
    `--${boundary}\nContent-Type: text/plain; charset=utf-8\n\nSee attached.\n`,
    ...(options.attachments ?? []).map((a) =>
      `--${boundary}\nContent-Type: application/octet-stream; name="${a.name}"\n` +
      `Content-Disposition: attachment; filename="${a.name}"\n` +
      `Content-Transfer-Encoding: base64\n\n${
        encodeBase64(
          typeof a.content === "string" ? new TextEncoder().encode(a.content) : a.content,
        )
      }\n`
    ),
  ];
  return [
    `From: ${options.from}`,
    `To: ${options.to}`,
    `Subject: ${options.subject}`,
    `Message-ID: ${id}`,
    `Date: ${new Date().toUTCString()}`,
    `MIME-Version: 1.0`,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    ``,
    ...parts,
    `--${boundary}--`,
    ``,
  ].join("\n");
}
