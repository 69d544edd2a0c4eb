import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertArchiveName, type ArchiveReceipt, type ArchiveTarget, type ArchivedObject } from './archive-target.ts';

const PARTIAL = '.partial';

/**
 * ARCHIVE_DIR: each object is a file. It is written as `<name>.partial`, flushed to disk, checked
 * for size and renamed, so a complete-looking file is always a complete one.
 */
export class DirectoryArchiveTarget implements ArchiveTarget {
  readonly #dir: string;
  constructor(dir: string) {
    this.#dir = dir;
  }

  async write(name: string, body: Readable): Promise<ArchiveReceipt> {
    assertArchiveName(name);
    const file = path.join(this.#dir, name);
    const partial = `${file}${PARTIAL}`;
    let bytes = 0;
    try {
      await mkdir(this.#dir, { recursive: true });
      await pipeline(body, async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) { bytes += chunk.length; yield chunk; }
      }, createWriteStream(partial));
      await flushed(partial, bytes);
      await rename(partial, file);
      await flushed(this.#dir); // the rename itself
      return { name, bytes, location: file };
    } catch (error) {
      body.destroy();
      await rm(partial, { force: true });
      throw new Error(`archive file ${file} not written: ${(error as Error).message}`, { cause: error });
    }
  }

  async read(name: string): Promise<Readable | null> {
    assertArchiveName(name);
    const file = path.join(this.#dir, name);
    try {
      await stat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return createReadStream(file);
  }

  async list(): Promise<ArchivedObject[]> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const objects: ArchivedObject[] = [];
    for (const name of names.filter((n) => !n.endsWith(PARTIAL)).sort()) {
      const info = await stat(path.join(this.#dir, name));
      if (info.isFile()) objects.push({ name, bytes: info.size });
    }
    return objects;
  }
}

/** fsyncs a file (checking it holds `expectedBytes`) or a directory. */
async function flushed(target: string, expectedBytes?: number): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
    const size = (await handle.stat()).size;
    if (expectedBytes !== undefined && size !== expectedBytes) throw new Error(`${size} bytes on disk, ${expectedBytes} written`);
  } finally {
    await handle.close();
  }
}
