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
 * plaintext is frames, in the order they were written, each a kind (1 byte) and the number of
 * the body it is about (4 bytes, BE), then:
 *
 *   1, a body as read:       encoding length (1 byte) | Content-Encoding (ASCII) |
 *                            body length (4 bytes, BE) | body as sent
 *   2, a page accepted:      Offset (8 bytes, float64 BE), the page that body gave
 *
 * A body whose page was not accepted (its request retried, the call's budget run out) is in
 * the file, and not read back.
 */
import { closeSync, open as openFile, writeSync } from 'node:fs';
import { readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { WireBody } from '../../upstream/body-decode.js';
import type { WireCopy } from '../../upstream/paging/types.js';
import { pooledRandomBytes } from '../random-bytes.js';
import { nonceOf, SealedFileError, sealer, unseal } from './sealed-file.js';
import { writeWholeFile } from './whole-file.js';

const MAGIC = Buffer.from('TRP1', 'latin1');
const ROLE = 'pages';
/** Sealed bytes kept in memory before the file is opened: a few pages of 500 air segments as
 *  the service compresses them (about 51 KB each). */
export const OPEN_AFTER = 256 * 1024;

/** What a result's `.meta` file says of its page copy, to fetch the same records again from it. */
export interface PageCopyInfo {
  /** The copy's nonce (hex): its `.data` file must carry this one. */
  nonce: string;
  /** The page size and the cap the fetch ran with (its windows). */
  pageSize: number;
  maxRecords: number;
  /** The held records' identities as sent, added up (FetchOutcome.identities): fetched again,
   *  the pages must give the same records. */
  identities: number;
}

/**
 * The copy being written while a fetch runs: each body as it is read (its bytes are in a reused
 * buffer, so it is written at once: a few tens of KB to the file system's cache), then which
 * page each accepted body gave. Bodies kept until their pages were accepted, or queued for a
 * write stream, outlived young collections: the peak of a 100,000-record fetch grew by about
 * as much as all its compressed pages. So the file is opened, without waiting, once OPEN_AFTER
 * bytes are sealed, and what is sealed after is written as it comes; a smaller copy (a report
 * of a page or two) is kept until finish, which writes it whole with the rest of the result's
 * copy, once calls are quiet (results/disk-store.ts): its file's open and writes took about
 * 0.3 ms of a small call's main thread (opened synchronously at the first page, about 1 ms).
 * A fetch whose answers come uncompressed copies nothing and makes no file. Nothing here
 * throws: a failed write spoils the copy (the result is then kept as records).
 */
export class PageCopy implements WireCopy {
  private fd: number | undefined;
  private readonly seal: ReturnType<typeof sealer>;
  private readonly folder: string;
  /** The temporary file, named when it is opened (a copy written whole never is). */
  private tmp = '';
  /** What was sealed before the file was open, and its bytes. */
  private pending: Buffer[] | undefined;
  private pendingBytes = 0;
  /** Set once OPEN_AFTER bytes are sealed (a smaller copy is written whole at finish). */
  private opened: Promise<void> | undefined;
  private bodies = 0;
  private accepted = 0;
  private bytes = 0;
  private spoiled = false;
  private removed: Promise<void> | undefined;

  constructor(folder: string, key: Buffer) {
    this.folder = folder;
    this.seal = sealer(key, ROLE, MAGIC);
    this.pending = [this.seal.header];
  }

  /** Whether every page accepted so far is in the copy (and at least one was). */
  get whole(): boolean {
    return !this.spoiled && this.accepted > 0;
  }

  body(wire: WireBody): number {
    const number = this.bodies++;
    // A copy spoiled already (a page before came uncompressed) makes no file.
    if (this.spoiled) return number;
    if (wire.encoding.length > 255) this.spoil();
    else this.frame(BODY, number, [encodingField(wire.encoding), lengthField(wire.bytes.length), wire.bytes]);
    return number;
  }

  accept(offset: number, body: number | undefined): void {
    if (body === undefined) {
      this.spoil();
      return;
    }
    const at = Buffer.alloc(8);
    at.writeDoubleBE(offset);
    this.frame(ACCEPTED, body, [at]);
    this.accepted++;
  }

  /** Drops the copy: the result is kept as records instead. Resolves once its temporary file is gone. */
  abandon(): Promise<void> {
    this.spoiled = true;
    this.pending = undefined;
    // A copy that never opened its file has nothing to remove.
    this.removed ??=
      this.opened?.then(() => {
        this.close();
        return unlink(this.tmp).catch(() => {});
      }) ?? Promise.resolve();
    return this.removed;
  }

  /** Seals the copy and puts it at `path`; answers its bytes and its nonce (hex). */
  async finish(path: string): Promise<{ bytes: number; nonce: string }> {
    if (!this.whole) throw new Error('the copy of the pages is not whole');
    const nonce = this.seal.nonce.toString('hex');
    if (this.pending && !this.opened) {
      // Never opened (a page or two): written whole, with one write (whole-file.ts).
      const sealed = [...this.pending, this.seal.cipher.final(), this.seal.cipher.getAuthTag()];
      this.pending = undefined;
      return { bytes: await writeWholeFile(path, sealed), nonce };
    }
    // An accepted page came in a copied body, so a whole copy that is not pending has its file.
    await this.opened;
    if (!this.whole) throw new Error('the copy of the pages is not whole');
    try {
      this.write(Buffer.concat([this.seal.cipher.final(), this.seal.cipher.getAuthTag()]));
      this.close();
      await rename(this.tmp, path);
      return { bytes: this.bytes, nonce };
    } catch (err) {
      await this.abandon();
      throw err;
    }
  }

  private spoil(): void {
    void this.abandon();
  }

  /** Opens the temporary file; what was sealed before is written once it is open. */
  private open(): Promise<void> {
    this.tmp = join(this.folder, `pages-${pooledRandomBytes(6).toString('hex')}.tmp`);
    return new Promise<void>((resolve) => {
      openFile(this.tmp, 'wx', 0o600, (err, fd) => {
        if (err) this.spoil();
        else {
          this.fd = fd;
          if (this.spoiled) this.close();
          else this.flush();
        }
        resolve();
      });
    });
  }

  /** One frame: its kind, the body's number, then `parts`, sealed as they are written. */
  private frame(kind: number, body: number, parts: Buffer[]): void {
    if (this.spoiled) return;
    const head = Buffer.alloc(5);
    head[0] = kind;
    head.writeUInt32BE(body, 1);
    try {
      this.put(this.seal.cipher.update(head));
      for (const part of parts) this.put(this.seal.cipher.update(part));
    } catch {
      // The folder full or gone: the write of the records, later, says so in the log.
      this.spoil();
    }
  }

  /** Sealed bytes, written at once, or kept until the file is open. */
  private put(chunk: Buffer): void {
    if (!this.pending) {
      this.write(chunk);
      return;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes > OPEN_AFTER) this.opened ??= this.open();
  }

  private flush(): void {
    const pending = this.pending ?? [];
    this.pending = undefined;
    try {
      for (const chunk of pending) this.write(chunk);
    } catch {
      this.spoil();
    }
  }

  private write(chunk: Buffer): void {
    for (let at = 0; at < chunk.length; ) at += writeSync(this.fd as number, chunk, at);
    this.bytes += chunk.length;
  }

  private close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // closed already, or the file system gone: nothing more to do with it
    }
  }
}

/** Frame kinds: a body as read; the page an accepted body gave. */
const BODY = 1;
const ACCEPTED = 2;

function encodingField(encoding: string): Buffer {
  const bytes = Buffer.from(encoding, 'latin1');
  return Buffer.concat([Buffer.of(bytes.length), bytes]);
}

function lengthField(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** The pages of a copy, by Offset; throws SealedFileError when the file does not authenticate or
 *  is not the copy `nonce` names. */
export async function readPageCopy(path: string, key: Buffer, nonce: string): Promise<Map<number, WireBody>> {
  const file = await readFile(path);
  const plain = unseal(file, key, ROLE, MAGIC);
  if (nonceOf(file, MAGIC).toString('hex') !== nonce)
    throw new SealedFileError('it is the copy of the pages of another result');
  const bodies = new Map<number, WireBody>();
  const pages = new Map<number, WireBody>();
  const cutShort = () => new SealedFileError('a frame of it is cut short');
  for (let at = 0; at < plain.length; ) {
    if (at + 5 > plain.length) throw cutShort();
    const kind = plain[at];
    const body = plain.readUInt32BE(at + 1);
    at += 5;
    if (kind === BODY) {
      if (at >= plain.length) throw cutShort();
      const encodingEnd = at + 1 + plain[at];
      if (encodingEnd + 4 > plain.length) throw cutShort();
      const end = encodingEnd + 4 + plain.readUInt32BE(encodingEnd);
      if (end > plain.length) throw cutShort();
      const encoding = plain.toString('latin1', at + 1, encodingEnd);
      bodies.set(body, { encoding, bytes: plain.subarray(encodingEnd + 4, end) });
      at = end;
    } else if (kind === ACCEPTED) {
      if (at + 8 > plain.length) throw cutShort();
      const wire = bodies.get(body);
      if (!wire) throw new SealedFileError(`a page of it names body ${body}, which it does not hold`);
      pages.set(plain.readDoubleBE(at), wire);
      at += 8;
    } else throw new SealedFileError(`a frame of it is of an unknown kind (${kind})`);
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
