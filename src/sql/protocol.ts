/** The messages between the server (engine.ts) and the SQL worker (worker.ts). */
import type { RunLimits, RunOutput } from './owner-database.js';

export type WorkerRequest =
  | { id: number; op: 'add'; owner: string; table: string; records: Record<string, unknown>[] }
  | { id: number; op: 'finish'; owner: string; table: string }
  | { id: number; op: 'drop'; owner: string; table: string }
  | { id: number; op: 'run'; owner: string; sql: string; limits: RunLimits }
  | { id: number; op: 'describe'; owner: string };

/** `bytes`, what the owner's tables occupy (OwnerDatabase.bytes), answers a drop and a finish
 *  only: the engine reads it around a build, and three PRAGMAs a chunk cost the build up to
 *  45 us a chunk for nothing. */
export type WorkerReply =
  | { id: number; ok: true; value: unknown; bytes?: number }
  | { id: number; ok: false; message: string; refused: boolean };

export type { RunLimits, RunOutput };
