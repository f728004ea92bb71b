/**
 * A page of the NDJSON export as the reader thread hands it over. Given a slot (a view of
 * memory shared with the server's thread), the lines are written into it and only their length
 * travels back: the server's thread allocates nothing per page, so a room downloading the
 * ledger does not make it collect garbage as it goes (a page of fresh buffers every few
 * milliseconds made its heap be marked every half second). Without a slot, or when a single
 * line is longer than the slot, the bytes come back in a buffer of their own.
 */

const encoder = new TextEncoder();

export interface ExportPage {
  /** The last position the page holds (`after` when it is empty). */
  last: number;
  /** Bytes written at the start of the slot. */
  written?: number;
  /** The page's bytes, when it was not written into a slot. */
  bytes?: Uint8Array;
}

/** The lines of `rows` after `after`, into `slot` as far as whole lines fit, or as bytes of their own. */
export function exportPageOf<R extends { position: number }>(rows: readonly R[], line: (row: R) => string, after: number, slot?: Uint8Array): ExportPage {
  if (!slot) {
    let text = '';
    for (const row of rows) text += line(row);
    return { bytes: encoder.encode(text), last: rows.at(-1)?.position ?? after };
  }
  let written = 0;
  let last = after;
  for (const row of rows) {
    const text = line(row);
    const done = encoder.encodeInto(text, slot.subarray(written));
    if (done.read < text.length) {
      // A line longer than the whole slot travels alone; otherwise the next page starts with it.
      if (written === 0) return { bytes: encoder.encode(text), last: row.position };
      break;
    }
    written += done.written;
    last = row.position;
  }
  return { written, last };
}

/** Bytes of one export slot: a page of 1000 typical lines fits with room to spare. */
export const EXPORT_SLOT_BYTES = 512 * 1024;

/**
 * The export's pages between its header and trailer lines. The pages may go straight into the
 * response (heavy-reads.ts) while this stream carries only the two lines: the server writes each
 * chunk before it reads the next, so the header goes out first and the trailer last. Nothing is
 * read from `pages` before the response asks for it.
 */
export function framedExport(pages: ReadableStream<Uint8Array>, header: string, trailer: string): ReadableStream<Uint8Array> {
  const reader = pages.getReader();
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(header));
          return;
        }
        const { done, value } = await reader.read();
        if (!done) {
          controller.enqueue(value);
          return;
        }
        controller.enqueue(encoder.encode(trailer));
        controller.close();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
