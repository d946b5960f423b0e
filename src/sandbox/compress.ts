/**
 * The sandbox compresses an answer as a service (or its proxy) does when the request's
 * Accept-Encoding allows it: Brotli first (smaller), then gzip, then deflate; none when the
 * request asks for none or the sandbox is told not to (SandboxOptions.compress). Levels are
 * the ones web servers use by default for dynamic answers (Brotli 4, gzip 6), not the
 * slowest ones: the benchmarks measure what a real service would send.
 */
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'deflate';
const PREFERRED: readonly Encoding[] = ['br', 'gzip', 'deflate'];

/** The encoding to answer with for an Accept-Encoding header (q=0 refuses one), or undefined. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  return PREFERRED.find((e) => (accepted.get(e) ?? accepted.get('*') ?? 0) > 0);
}

export function compress(body: string | Buffer, encoding: Encoding): Buffer {
  if (encoding === 'br')
    return brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    });
  return encoding === 'gzip' ? gzipSync(body, { level: 6 }) : deflateSync(body, { level: 6 });
}
