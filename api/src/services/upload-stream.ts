// Reads an uploaded body without ever holding more than its first few kilobytes in memory:
// the head decides the content type (from the bytes, never the header or a file name), the
// rest is passed through while counting, and the limit is enforced as bytes arrive.
import { fileTypeFromBuffer } from 'file-type';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  ALLOWED_UPLOAD_TYPES,
  MAX_UPLOAD_BYTES,
  UPLOAD_MESSAGES,
  type AllowedUploadType,
} from '@rescuelog/sync-protocol/accounts/uploads';
import { ApiError } from '../lib/api-error';

/** file-type reads at most this many bytes to recognise a format. */
const SNIFF_BYTES = 4100;

export interface CheckedUpload {
  contentType: AllowedUploadType;
  extension: (typeof ALLOWED_UPLOAD_TYPES)[AllowedUploadType];
  /** The whole body, head included; iterating it throws a 413 ApiError past the limit. */
  body: AsyncIterable<Uint8Array>;
}

/** 413 naming the limit in force (System Settings may set it below the spec's 10 MiB). */
export const payloadTooLarge = (maxBytes: number = MAX_UPLOAD_BYTES) =>
  new ApiError(
    413,
    ErrorCode.PAYLOAD_TOO_LARGE,
    maxBytes === MAX_UPLOAD_BYTES
      ? UPLOAD_MESSAGES.tooLarge
      : `File is larger than ${String(Math.round(maxBytes / 1_048_576))} MiB`,
  );
export const typeNotAllowed = () =>
  new ApiError(415, ErrorCode.UPLOAD_TYPE_NOT_ALLOWED, UPLOAD_MESSAGES.typeNotAllowed);

function isAllowed(mime: string): mime is AllowedUploadType {
  return Object.hasOwn(ALLOWED_UPLOAD_TYPES, mime);
}

/**
 * Sniffs the type from the first bytes of `source` and returns the body to store. Throws 415
 * before anything is stored when the bytes are not an allowed type, 413 when the head alone
 * is over the limit; the returned body throws 413 as soon as the running total passes it.
 * The source is never destroyed here: destroying a request stream would reset the socket
 * before the client sees the error response (the route closes the connection instead).
 */
export async function checkUpload(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number = MAX_UPLOAD_BYTES,
  /** The refusal past `maxBytes` (a quota may set a limit below the file size limit). */
  tooLarge: () => ApiError = () => payloadTooLarge(maxBytes),
): Promise<CheckedUpload> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    const chunk = toBytes(next.value);
    head.push(chunk);
    headBytes += chunk.byteLength;
    if (headBytes > maxBytes) {
      throw tooLarge();
    }
  }
  const detected = await fileTypeFromBuffer(Buffer.concat(head));
  if (detected === undefined || !isAllowed(detected.mime)) {
    throw typeNotAllowed();
  }
  const contentType = detected.mime;

  async function* body(): AsyncGenerator<Uint8Array> {
    let total = 0;
    for (const chunk of head) {
      total += chunk.byteLength;
      yield chunk;
    }
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done === true) return;
      const chunk = toBytes(next.value);
      total += chunk.byteLength;
      if (total > maxBytes) {
        throw tooLarge();
      }
      yield chunk;
    }
  }

  return { contentType, extension: ALLOWED_UPLOAD_TYPES[contentType], body: body() };
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError('Upload stream yielded a non-binary chunk');
}
