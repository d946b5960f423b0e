/**
 * One file of a kept result, sealed: compressed, then AES-256-GCM under the folder's key with
 * a random 96-bit nonce per file, the file's role (`meta:<id>`, `data:<id>`) authenticated
 * with it so that no file can be passed off as another (docs/held-results.md, "On disk").
 *
 *   "TRM2" | nonce (12 bytes) | ciphertext | tag (16 bytes)
 *
 * TRM2 files hold Brotli at quality 0; TRM1 files, written before, gzip (still read).
 *
 * A file is written beside its place and renamed there, so a reader never sees half of one.
 * Records are written a batch per line (a JSON list of up to 1,000 records): no string of a
 * whole result is ever made, whatever its size, and writing yields to other work between
 * batches. A file that does not authenticate (another key, a bit flipped, cut short) throws
 * before anything read from it is used.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  createBrotliCompress,
  createBrotliDecompress,
  createGunzip,
  gunzipSync,
} from 'node:zlib';
import { pooledRandomBytes } from '../random-bytes.js';
import { writeAtomically, writeWholeFile } from './whole-file.js';

/** What the files written now begin with: their content is Brotli. */
const MAGIC = Buffer.from('TRM2', 'latin1');
/** What files written before TRM2 begin with: their content is gzip. */
const MAGIC_GZIP = Buffer.from('TRM1', 'latin1');
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Records per line of a data file. */
const BATCH = 1_000;
/**
 * Brotli's fastest quality. Over the bench's records it took 2.1 us a record (2.6 through a
 * stream) where gzip's fastest level took 4.4 (6.0), and it compresses a little more (to 0.20
 * of the JSON against 0.21); it inflates as fast (2.0 us a record against 1.9).
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 0 } };

export class SealedFileError extends Error {
  override readonly name = 'SealedFileError';
}

/** Writes `value` (JSON) sealed to `path`, its modification time `mtimeMs` when given. */
export async function writeSealedJson(
  path: string,
  key: Buffer,
  role: string,
  value: unknown,
  mtimeMs?: number,
): Promise<number> {
  return writeWhole(path, key, role, Buffer.from(JSON.stringify(value), 'utf8'), mtimeMs);
}

/** Reads a file writeSealedJson wrote; throws SealedFileError when it does not authenticate. */
export async function readSealedJson(path: string, key: Buffer, role: string): Promise<unknown> {
  const { plain, gzip } = open(await readFile(path), key, role);
  try {
    return JSON.parse((gzip ? gunzipSync(plain) : brotliDecompressSync(plain)).toString('utf8'));
  } catch (err) {
    throw new SealedFileError(`it authenticated but does not decode (${(err as Error).message})`);
  }
}

/** Writes records sealed to `path`, a batch per line; answers the bytes written. */
export async function writeSealedRecords(
  path: string,
  key: Buffer,
  role: string,
  records: readonly unknown[],
): Promise<number> {
  // One batch (most results): made whole in memory. A stream's set-up (zlib on the thread
  // pool, three stages, a write stream) cost a 100-record report about 1 ms of CPU.
  if (records.length <= BATCH) return writeWhole(path, key, role, batches(records).next().value ?? Buffer.alloc(0));
  const compress = createBrotliCompress(BROTLI);
  Readable.from(batches(records)).pipe(compress);
  return writeAtomically(path, (tmp) => streamInto(tmp, seal(key, role, compress)));
}

/**
 * Reads a file writeSealedRecords wrote. The whole file is authenticated first (it is the
 * compressed size, a seventh or so of the records' JSON), then inflated and parsed a line at
 * a time, so no text of the whole result is made.
 */
export async function readSealedRecords(path: string, key: Buffer, role: string): Promise<Record<string, unknown>[]> {
  const { plain, gzip } = open(await readFile(path), key, role);
  const records: Record<string, unknown>[] = [];
  let rest: Buffer | undefined;
  const take = (line: Buffer) => {
    if (line.length === 0) return;
    for (const r of JSON.parse(line.toString('utf8')) as Record<string, unknown>[]) records.push(r);
  };
  try {
    const inflate = gzip ? createGunzip() : createBrotliDecompress();
    for await (const chunk of Readable.from([plain]).pipe(inflate) as AsyncIterable<Buffer>) {
      let data = rest ? Buffer.concat([rest, chunk]) : chunk;
      let nl = data.indexOf(10);
      while (nl !== -1) {
        take(data.subarray(0, nl));
        data = data.subarray(nl + 1);
        nl = data.indexOf(10);
      }
      rest = data.length ? data : undefined;
    }
    if (rest) take(rest);
  } catch (err) {
    throw new SealedFileError(`it authenticated but does not decode (${(err as Error).message})`);
  }
  return records;
}

function* batches(records: readonly unknown[]): Generator<Buffer> {
  for (let i = 0; i < records.length; i += BATCH)
    yield Buffer.from(`${JSON.stringify(records.slice(i, i + BATCH))}\n`, 'utf8');
}

/** Writes `plain` sealed to `path`, made whole in memory (a small file): one write, no streams. */
function writeWhole(path: string, key: Buffer, role: string, plain: Buffer, mtimeMs?: number): Promise<number> {
  const { header, cipher } = sealer(key, role);
  const sealed = cipher.update(brotliCompressSync(plain, BROTLI));
  const last = cipher.final();
  return writeWholeFile(path, [header, sealed, last, cipher.getAuthTag()], mtimeMs);
}

/** A file's header (`magic`, a fresh nonce) and the cipher of its contents. */
export function sealer(key: Buffer, role: string, magic: Buffer = MAGIC) {
  const nonce = pooledRandomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(role, 'utf8'));
  return { header: Buffer.concat([magic, nonce]), nonce, cipher };
}

/** Header, ciphertext of every chunk, tag. */
async function* seal(key: Buffer, role: string, source: AsyncIterable<Buffer>) {
  const { header, cipher } = sealer(key, role);
  yield header;
  for await (const chunk of source) {
    const out = cipher.update(chunk);
    if (out.length) yield out;
  }
  const last = cipher.final();
  if (last.length) yield last;
  yield cipher.getAuthTag();
}

/** The plaintext of a sealed file, authenticated, and whether it is gzip (a TRM1 file);
 *  throws SealedFileError otherwise. */
function open(file: Buffer, key: Buffer, role: string): { plain: Buffer; gzip: boolean } {
  const gzip = file.subarray(0, MAGIC.length).equals(MAGIC_GZIP);
  return { plain: unseal(file, key, role, gzip ? MAGIC_GZIP : MAGIC), gzip };
}

/** The plaintext of a file sealed (see sealer) behind `magic`, authenticated; throws
 *  SealedFileError otherwise. */
export function unseal(file: Buffer, key: Buffer, role: string, magic: Buffer): Buffer {
  if (file.length < magic.length + NONCE_BYTES + TAG_BYTES || !file.subarray(0, magic.length).equals(magic))
    throw new SealedFileError(`it is not a sealed result file (${file.length} bytes)`);
  const headerBytes = magic.length + NONCE_BYTES;
  const decipher = createDecipheriv('aes-256-gcm', key, nonceOf(file, magic));
  decipher.setAAD(Buffer.from(role, 'utf8'));
  decipher.setAuthTag(file.subarray(file.length - TAG_BYTES));
  const body = decipher.update(file.subarray(headerBytes, file.length - TAG_BYTES));
  try {
    decipher.final();
  } catch {
    throw new SealedFileError('it does not authenticate (another key, damaged or cut short)');
  }
  return body;
}

/** The nonce of a file sealed behind `magic`. */
export function nonceOf(file: Buffer, magic: Buffer): Buffer {
  return file.subarray(magic.length, magic.length + NONCE_BYTES);
}

/** A file's bytes as they come, into `tmp` (pipeline destroys both streams on an error). */
async function streamInto(tmp: string, source: AsyncIterable<Buffer>): Promise<number> {
  const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
  await pipeline(Readable.from(source), out);
  return out.bytesWritten;
}
