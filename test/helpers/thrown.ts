import { expect } from 'vitest';
import { ReportsError } from '../../src/errors.js';

/** Runs fn, which must throw a ReportsError, and returns it for assertions on its message. */
export function thrown(fn: () => unknown): ReportsError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ReportsError);
    return err as ReportsError;
  }
  throw new Error('expected a ReportsError');
}
