/**
 * What `npm run pack` checks in the .mcpb it wrote, and the SHA-256 it writes beside it. A
 * desktop host refuses a signed bundle today (README.md, "Claude Desktop: one-click bundle"),
 * so users check an unsigned one by its SHA-256: the zip must then be exactly what was staged,
 * nothing more. Read with yauzl in its strict mode (file names checked, sizes checked), and:
 * every entry a plain file or folder of the staged folder, byte for byte, none twice, none
 * missing, nothing after the zip's end record (where a signature block would go).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';

/** Bytes of the zip's end-of-central-directory record without its comment. */
const END_RECORD_BYTES = 22;
const END_RECORD_SIGNATURE = 0x06054b50;
/** Unix file types in an entry's external attributes. */
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** Throws, naming the first thing wrong, unless `zipPath` holds exactly the files of `stagedDir`. */
export async function checkBundleZip(zipPath: string, stagedDir: string): Promise<void> {
  const bytes = await readFile(zipPath);
  const fail = (what: string) => {
    throw new Error(`${path.basename(zipPath)}: ${what}`);
  };
  // The end record closes the file: no trailing bytes, no comment (a signature would be there).
  const end = bytes.length - END_RECORD_BYTES;
  if (end < 0 || bytes.readUInt32LE(end) !== END_RECORD_SIGNATURE || bytes.readUInt16LE(end + 20) !== 0)
    fail('does not end with a zip end record without comment (trailing bytes, a comment or a signature)');

  const staged = new Map<string, Buffer>();
  for (const e of await readdir(stagedDir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    staged.set(path.relative(stagedDir, file).split(path.sep).join('/'), await readFile(file));
  }
  const seen = new Set<string>();
  const zip = await openZip(bytes);
  try {
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      const name = entry.fileName;
      if (seen.has(name)) fail(`holds ${name} twice`);
      seen.add(name);
      if (entry.isEncrypted()) fail(`${name} is encrypted`);
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
        fail(`${name} uses compression method ${entry.compressionMethod}`);
      const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
      const folder = name.endsWith('/');
      if (type !== 0 && type !== (folder ? S_IFDIR : S_IFREG)) fail(`${name} is not a plain file or folder`);
      if (folder) continue;
      const expected = staged.get(name);
      if (!expected) fail(`${name} is not a file of the staged folder`);
      const content = await readEntry(zip, entry);
      if (!content.equals(expected as Buffer)) fail(`${name} differs from the staged file`);
    }
  } finally {
    zip.close();
  }
  const missing = [...staged.keys()].filter((n) => !seen.has(n));
  if (missing.length) fail(`lacks ${missing.join(', ')}`);
}

/** Writes `<bundle>.sha256` in the form `sha256sum -c` reads; returns the digest. */
export async function writeChecksum(zipPath: string): Promise<string> {
  const digest = createHash('sha256')
    .update(await readFile(zipPath))
    .digest('hex');
  await writeFile(`${zipPath}.sha256`, `${digest}  ${path.basename(zipPath)}\n`);
  return digest;
}

function openZip(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(
      bytes,
      { lazyEntries: true, strictFileNames: true, validateEntrySizes: true, decodeStrings: true },
      (err, zip) => (err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip)),
    ),
  );
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(err ?? new Error(`cannot read ${entry.fileName}`));
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(parts)));
    }),
  );
}
