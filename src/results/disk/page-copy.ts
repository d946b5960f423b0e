/**
 * A kept result's records as the pages the service sent, still compressed as they came
 * (docs/held-results.md, "On disk"): written to a temporary file page by page while the fetch
 * runs, renamed to the result's `.data` file once it is held, and fetched again from on its
 * first use after a restart (upstream/kept-pages.ts). Written so, the copy costs no
 * serialising and no compressing of the held records: that was a quarter of a large report's
 * CPU (the JSON of every record, then Brotli).
 *
 *   "TRP1" | nonce (12 bytes) | ciphertext | tag (16 bytes)
 *
 * sealed as sealed-file.ts seals (AES-256-GCM under the folder's key, role `pages`); the
 * result's `.meta` file names the nonce, so that no other result's pages pass for its own. The
 * plaintext is one frame per page, in the order the pages were accepted:
 *
 *   encoding length (1 byte) | Content-Encoding (ASCII) | Offset (8 bytes, float64 BE) |
 *   body length (4 bytes, BE) | body as sent
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { WireBody } from '../../upstream/body-decode.js';
import { nonceOf, SealedFileError, sealer, unseal } from './sealed-file.js';

const MAGIC = Buffer.from('TRP1', 'latin1');
const ROLE = 'pages';

/** What a result's `.meta` file says of its page copy, to fetch the same records again from it. */
export interface PageCopyInfo {
  /** The copy's nonce (hex): its `.data` file must carry this one. */
  nonce: string;
  /** The page size and the cap the fetch ran with (its windows). */
  pageSize: number;
  maxRecords: number;
  /** What else decides the records held (the server's version, the pinned scope): a copy
   *  made under other settings is not fetched again from (server/run-report.ts). */
  settings: string;
  /** The held records' identities as sent, added up (FetchOutcome.identities): fetched again,
   *  the pages must give the same records. */
  identities: number;
}

/** The copy being written while a fetch runs. Nothing here throws: a failure shows at finish. */
export class PageCopy {
  private out: WriteStream | undefined;
  private seal: ReturnType<typeof sealer> | undefined;
  private readonly tmp: string;
  private failure: Error | undefined;
  private spoiled = false;
  private removed: Promise<void> | undefined;

  constructor(
    folder: string,
    private readonly key: Buffer,
  ) {
    this.tmp = join(folder, `pages-${randomBytes(6).toString('hex')}.tmp`);
  }

  /** Whether every page accepted so far is in the copy (and at least one was). */
  get whole(): boolean {
    return !this.spoiled && this.out !== undefined;
  }

  /** One accepted page's body as sent; undefined (not keepable) spoils the copy. */
  add(offset: number, wire: WireBody | undefined): void {
    if (this.spoiled) return;
    if (!wire || wire.encoding.length > 255) {
      void this.abandon();
      return;
    }
    if (!this.seal || !this.out) {
      this.seal = sealer(this.key, ROLE, MAGIC);
      this.out = createWriteStream(this.tmp, { flags: 'wx', mode: 0o600 });
      this.out.on('error', (err) => {
        this.failure ??= err;
      });
      this.out.write(this.seal.header);
    }
    const encoding = Buffer.from(wire.encoding, 'latin1');
    const head = Buffer.alloc(1 + encoding.length + 12);
    head[0] = encoding.length;
    encoding.copy(head, 1);
    head.writeDoubleBE(offset, 1 + encoding.length);
    head.writeUInt32BE(wire.bytes.length, 9 + encoding.length);
    this.out.write(this.seal.cipher.update(head));
    this.out.write(this.seal.cipher.update(wire.bytes));
  }

  /** Drops the copy: the result is kept as records instead. Resolves once its temporary file is gone. */
  abandon(): Promise<void> {
    this.spoiled = true;
    const { out } = this;
    if (!out) return Promise.resolve();
    this.removed ??= new Promise<void>((resolve) => {
      const remove = () => void unlink(this.tmp).then(resolve, resolve);
      // Once closed: a stream destroyed before its file is open still opens (creates) it.
      if (out.closed) remove();
      else {
        out.once('close', remove);
        out.destroy();
      }
    });
    return this.removed;
  }

  /** Seals the copy and puts it at `path`; answers its bytes and its nonce (hex). */
  async finish(path: string): Promise<{ bytes: number; nonce: string }> {
    const { out, seal } = this;
    if (!this.whole || !out || !seal) throw new Error('the copy of the pages is not whole');
    try {
      const last = seal.cipher.final();
      if (last.length) out.write(last);
      out.write(seal.cipher.getAuthTag());
      await new Promise<void>((resolve, reject) => {
        out.once('error', reject);
        out.end(() => resolve());
      });
      if (this.failure) throw this.failure;
      await rename(this.tmp, path);
      return { bytes: out.bytesWritten, nonce: seal.nonce.toString('hex') };
    } catch (err) {
      await this.abandon();
      throw err;
    }
  }
}

/** The pages of a copy, by Offset; throws SealedFileError when the file does not authenticate or
 *  is not the copy `nonce` names. */
export async function readPageCopy(path: string, key: Buffer, nonce: string): Promise<Map<number, WireBody>> {
  const file = await readFile(path);
  const plain = unseal(file, key, ROLE, MAGIC);
  if (nonceOf(file, MAGIC).toString('hex') !== nonce)
    throw new SealedFileError('it is the copy of the pages of another result');
  const pages = new Map<number, WireBody>();
  for (let at = 0; at < plain.length; ) {
    const encodingEnd = at + 1 + plain[at];
    const bytesStart = encodingEnd + 12;
    if (bytesStart > plain.length) throw new SealedFileError('a page of it is cut short');
    const encoding = plain.toString('latin1', at + 1, encodingEnd);
    const offset = plain.readDoubleBE(encodingEnd);
    const end = bytesStart + plain.readUInt32BE(encodingEnd + 8);
    if (end > plain.length) throw new SealedFileError('a page of it is cut short');
    pages.set(offset, { encoding, bytes: plain.subarray(bytesStart, end) });
    at = end;
  }
  return pages;
}

/** A kept result's pages, and what its records were fetched with. */
export interface PagesToFetch {
  report: string;
  /** The parameters as sent. */
  query: Record<string, string>;
  copy: PageCopyInfo;
  pages: ReadonlyMap<number, WireBody>;
}

/** Fetches a result's records again from its kept pages (server/run-report.ts fetchKeptReport). */
export type FetchAgain = (kept: PagesToFetch) => Promise<Record<string, unknown>[]>;

/** A copy made under other settings than this server's (PageCopyInfo.settings): not fetched from. */
export class OtherSettingsError extends Error {
  override readonly name = 'OtherSettingsError';
}
