// Where uploaded files' bytes live. The rest of the API sees only this interface, so S3-
// compatible storage can replace the disk later without touching routes or services.
// Names are always server-generated (`<random>.<ext>`); the disk implementation still refuses
// anything that is not a plain file name so a bad name can never address another path.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredObject {
  stream: Readable;
  size: number;
}

export interface ObjectStorage {
  /** Writes the whole source under `name`; on any error nothing is left behind. Returns the byte count. */
  put(name: string, source: AsyncIterable<Uint8Array>): Promise<number>;
  /** Opens a stored object for reading, or undefined when it does not exist. */
  get(name: string): Promise<StoredObject | undefined>;
  /** Removes an object; removing a missing object is not an error. */
  remove(name: string): Promise<void>;
}

const SAFE_NAME = /^[A-Za-z0-9_-]{1,128}(\.[a-z0-9]{1,8})?$/;

function checkName(name: string): void {
  if (!SAFE_NAME.test(name)) throw new Error(`Refusing unsafe object name ${JSON.stringify(name)}`);
}

export function createDiskStorage(directory: string): ObjectStorage {
  let ready: Promise<unknown> | undefined;
  const ensureDirectory = () => (ready ??= mkdir(directory, { recursive: true, mode: 0o700 }));

  return {
    async put(name, source) {
      checkName(name);
      await ensureDirectory();
      const file = path.join(directory, name);
      // A partial file is written under a dot name and renamed once complete, so a reader
      // never sees half a file under its final name.
      const partial = path.join(directory, `.${name}.partial`);
      let size = 0;
      async function* counted(): AsyncGenerator<Uint8Array> {
        for await (const chunk of source) {
          size += chunk.byteLength;
          yield chunk;
        }
      }
      try {
        await pipeline(counted, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await rename(partial, file);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return size;
    },

    async get(name) {
      checkName(name);
      const file = path.join(directory, name);
      try {
        const info = await stat(file);
        if (!info.isFile()) return undefined;
        return { stream: createReadStream(file), size: info.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async remove(name) {
      checkName(name);
      await rm(path.join(directory, name), { force: true });
    },
  };
}
