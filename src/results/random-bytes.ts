/**
 * Random bytes from the system's generator, drawn a block at a time: each draw is a call into
 * the generator, 5-40 us on the bench's machine however few bytes it asks for, and a small
 * report's result asks for five: its id, and the two nonces and two temporary file names of
 * its copy on disk. Each byte of a block is given out once, as a copy of its own.
 */
import { randomBytes } from 'node:crypto';

const BLOCK_BYTES = 4096;
let block = Buffer.alloc(0);
let used = 0;

/** `n` random bytes (a new Buffer), as crypto.randomBytes(n) gives them. */
export function pooledRandomBytes(n: number): Buffer {
  if (n > BLOCK_BYTES / 4) return randomBytes(n);
  if (used + n > block.length) {
    block = randomBytes(BLOCK_BYTES);
    used = 0;
  }
  used += n;
  return Buffer.from(block.subarray(used - n, used));
}
