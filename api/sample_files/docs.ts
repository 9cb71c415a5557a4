/** The OpenAPI description of /api/sample-files (beyond the spec; issue 24, column pickers). */
import { z } from "zod";
import { routeDocs } from "../http/route_docs.ts";
import { UPLOAD_LIMITS } from "../../shared/files/limits.ts";
import { samplePreviewSchema } from "../../shared/contract/sample_files.ts";

/** The multipart form: the file and its header row. */
const previewForm = z.object({
  file: z.string().meta({
    contentMediaType: "application/octet-stream",
    description:
      `the sample or template file (binary part, at most ${UPLOAD_LIMITS.maxBytes} bytes)`,
  }),
  headerRow: z.string().max(10).optional().describe("1-based header row; empty: detected"),
});

export const sampleFileDocs = routeDocs([
  {
    method: "POST",
    path: "/api/sample-files/preview",
    summary: "The headers and first rows of a sample or template file (nothing stored)",
    request: { multipart: previewForm },
    response: samplePreviewSchema,
    description:
      "Beyond the contract (issue 24): the column pickers of the source forms. A refused file " +
      "answers 400 with the reason. Any user with a flag, or an administrator.",
  },
]);
