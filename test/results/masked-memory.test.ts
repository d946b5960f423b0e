/**
 * A masked result occupies about what the unmasked one does, and the budget measures it as the
 * heap it occupies. Masked copies were built a property at a time, and V8 made a record of
 * more than 16 fields a hash table: about 6x the heap of the parsed record, for every record
 * of a result with REPORTS_REDACT_PII on. Memory is read after a full collection (V8's gc,
 * exposed for this file only).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createRedactor } from '../../src/results/pii.js';
import { compactRecords, listBytes } from '../../src/upstream/record-memory.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => process.memoryUsage().heapUsed;
const COUNT = 20_000;

/** The JSON of air segments as the service sends them: 30 fields, a traveller's name and e-mail in each. */
function segmentsJson(): string {
  const surnames = ['Müller', 'Nakamura', "O'Neil", 'Okafor', 'Sørensen', 'Dubois', 'García', 'Kowalski'];
  return JSON.stringify(
    Array.from({ length: COUNT }, (_, i) => {
      const r: Record<string, unknown> = {
        RecordLocator: `R${(100_000 + i).toString(36).toUpperCase()}`,
        PaxSurname: surnames[i % surnames.length],
        PaxFirstName: `Traveller${i % 997}`,
        Email: `person${i % 2_000}@example.com`,
        CarrierCode: ['LH', 'BA', 'SQ', 'AF'][i % 4],
        FlightNumber: 100 + (i % 900),
        DepartureDate: `2026-0${1 + (i % 9)}-1${i % 10}T08:30:00`,
      };
      for (let k = 0; k < 23; k++) r[`Code${k}`] = k % 2 ? `C${(i + k) % 50}` : (i * 7 + k) % 1_000;
      return r;
    }),
  );
}

/** Heap held by what `make` returns, once its garbage is collected. */
function heldBy<T>(make: () => T): { value: T; bytes: number } {
  gc();
  const start = heap();
  const value = make();
  gc();
  return { value, bytes: heap() - start };
}

it('a masked result of wide records occupies about what the unmasked one does, measured as it is held', () => {
  const json = segmentsJson();
  const plain = heldBy(() => JSON.parse(json) as Record<string, unknown>[]);
  const redactor = createRedactor(true);
  // The parsed records are dropped once masked: what remains is the masked result alone.
  const masked = heldBy(() => {
    const records = redactor.records(JSON.parse(json) as Record<string, unknown>[]);
    compactRecords(records, true);
    return records;
  });
  expect(masked.value).toHaveLength(COUNT);
  expect(String(masked.value[0].PaxSurname)).toMatch(/^Traveller-/);
  expect(masked.value[0].CarrierCode).toBe('LH');
  const measured = compactRecords(masked.value, true) + listBytes(COUNT);
  console.error(
    `${COUNT} records of 30 fields: parsed ${(plain.bytes / COUNT).toFixed(0)} heap bytes a record, masked ` +
      `${(masked.bytes / COUNT).toFixed(0)}, measured ${(measured / COUNT).toFixed(0)}`,
  );
  // Built a property at a time, a masked record took about 6x the parsed one.
  expect(masked.bytes / plain.bytes).toBeLessThan(1.3);
  expect(measured / masked.bytes).toBeGreaterThan(0.85);
  expect(measured / masked.bytes).toBeLessThan(1.15);
});
