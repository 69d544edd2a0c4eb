import { rm } from 'node:fs/promises';
import os from 'node:os';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import { AppError } from '../../../core/errors.ts';
import type { UploadedFileRef } from '../route.ts';

interface FormidableFile { filepath: string; originalFilename?: string | null; size: number }

/**
 * Parses multipart/form-data with koa-body (formidable): each file is streamed to a temporary file,
 * never held in memory. More than `maxBytes` in a file (or a declared Content-Length beyond it) is 413
 * PAYLOAD_TOO_LARGE; another content type is 415. Sets the request body to `{ files, fields }`.
 */
export function multipartBody(maxBytes: number): Koa.Middleware {
  const parse = koaBody({
    multipart: true, json: false, urlencoded: false, text: false,
    formidable: { uploadDir: os.tmpdir(), maxFiles: 1, maxFileSize: maxBytes, maxTotalFileSize: maxBytes, maxFields: 20, allowEmptyFiles: true, minFileSize: 0 },
    onError: (error: Error) => {
      const code = (error as { httpCode?: number }).httpCode;
      if (code === 413 || /maxFileSize|maxTotalFileSize|exceeded/i.test(error.message)) {
        throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the ${maxBytes} bytes allowed`, { maxBytes });
      }
      throw new AppError('VALIDATION_ERROR', `The multipart body could not be read: ${error.message}`, { fieldErrors: {}, formErrors: [error.message] });
    },
  });
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request as multipart/form-data with the file in the `file` field');
    if (Number(ctx.get('content-length') || 0) > maxBytes + 64 * 1024) {
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the ${maxBytes} bytes allowed`, { maxBytes });
    }
    await parse(ctx, async () => {
      const raw = (ctx.request as unknown as { files?: Record<string, FormidableFile | FormidableFile[]>; body?: Record<string, unknown> });
      const files: Record<string, UploadedFileRef> = {};
      const all: string[] = [];
      for (const [field, value] of Object.entries(raw.files ?? {})) {
        const list = Array.isArray(value) ? value : [value];
        for (const f of list) all.push(f.filepath);
        const first = list[0];
        if (first) files[field] = { path: first.filepath, name: first.originalFilename ?? null, size: first.size };
      }
      ctx.state['uploads'] = all;
      (ctx.request as unknown as { body: unknown }).body = { files, fields: raw.body ?? {} };
      await next();
    });
  };
}

/** Deletes the request's temporary upload files once the rest of the chain is done (success or not). */
export function removeUploads(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      for (const file of (ctx.state['uploads'] as string[] | undefined) ?? []) await rm(file, { force: true });
    }
  };
}
