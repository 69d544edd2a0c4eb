import type { IncomingMessage } from 'node:http';
import { AppError } from '../../../core/errors.ts';

/** Reads the exact request bytes (signature checks need them), refusing more than `limit` with 413. */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
