import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptedParams } from '../../src/catalog/params.js';
import { inputSchema } from '../../src/catalog/schema.js';
import { TRANSACTIONS } from '../../src/catalog/transactions.js';
import type { TransactionDef } from '../../src/catalog/types.js';
import {
  CONTROLS,
  FREE_FORM,
  LOAD_OPTIONS_ITEMS,
  SPEC_BOOLEANS,
  SPEC_INTEGERS,
  SPEC_TRANSACTIONS,
} from './spec-params.js';

interface JsonProperty {
  type?: string | string[];
  description?: string;
  enum?: string[];
  anyOf?: unknown[];
  items?: unknown;
}
interface JsonObject {
  type: string;
  properties: Record<string, JsonProperty>;
  required?: string[];
  additionalProperties?: unknown;
  [k: string]: unknown;
}

/** As the MCP SDK publishes it in tools/list (zod-json-schema-compat.js). */
function published(def: TransactionDef): JsonObject {
  return z.toJSONSchema(inputSchema(def), { target: 'draft-7', io: 'input' }) as unknown as JsonObject;
}

/** What assistants pay for the tool definitions: JSON of {name, description, inputSchema}, divided by 4. */
function tokenCost(defs: readonly TransactionDef[]): number {
  let chars = 0;
  for (const def of defs) {
    chars += JSON.stringify({ name: def.tool, description: def.description, inputSchema: published(def) }).length;
  }
  return Math.ceil(chars / 4);
}

const isDateName = (name: string) => /Date(Start|End)$/.test(name) || name === 'PNRCreationDate';
const COST = tokenCost(TRANSACTIONS);
const specFor = (def: TransactionDef) => SPEC_TRANSACTIONS[def.tool]!;

describe('catalog', () => {
  it('has the tools of the spec transcription, in spec order, unique and snake_case', () => {
    expect(TRANSACTIONS.map((d) => d.tool)).toEqual(Object.keys(SPEC_TRANSACTIONS));
    expect(new Set(TRANSACTIONS.map((d) => d.tool)).size).toBe(TRANSACTIONS.length);
    for (const def of TRANSACTIONS) expect(def.tool).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
  });

  it.each(TRANSACTIONS.map((d) => [d.tool, d] as const))('%s: path, verbs, marks, envelope, record', (_, def) => {
    const spec = specFor(def);
    expect(def.transaction).toBe(spec.transaction);
    expect(def.path).toBe(spec.path);
    expect(def.verbs).toBe(spec.verbs);
    expect(def.marks).toEqual({
      accept: spec.marks.includes('A'),
      company: spec.marks.includes('C'),
      paging: spec.marks.includes('P'),
    });
    expect(def.envelope).toBe(spec.envelope);
    expect(def.record).toBe(spec.record);
    expect(def.freeForm ?? false).toBe(spec.freeForm ?? false);
    expect(def.title.trim()).not.toBe('');
  });

  it.each(TRANSACTIONS.map((d) => [d.tool, d] as const))('%s: published input schema matches the spec', (_, def) => {
    const spec = specFor(def);
    const json = published(def);
    const expected = [...spec.params, ...(spec.freeForm ? [FREE_FORM] : []), ...CONTROLS];
    expect(json.type).toBe('object');
    expect(json.additionalProperties).toBe(false);
    expect(Object.keys(json.properties).sort()).toEqual([...expected].sort());
    expect([...(json.required ?? [])].sort()).toEqual([...spec.required].sort());
    for (const [name, prop] of Object.entries(json.properties)) {
      expect(prop.description?.trim(), `${def.tool}.${name} description`).toBeTruthy();
      expect(prop.enum, `${def.tool}.${name} enum`).toEqual(spec.enums?.[name]);
    }
    for (const name of spec.params) {
      const prop = json.properties[name]!;
      // A `many` parameter is the server's own list: the service takes one value a request,
      // and the server fetches each (server/many-call.ts).
      if (spec.lists.includes(name) || def.many === name) {
        // Published as the comma-list string; the zod schema still takes an array too.
        expect(prop.type, `${def.tool}.${name} list`).toBe('string');
        expect(prop.description, `${def.tool}.${name} list`).toMatch(/, comma list/);
        expect(inputSchema(def).shape[name].safeParse(['A', 'B']).success, `${def.tool}.${name} array`).toBe(true);
      } else {
        expect(prop.description, `${def.tool}.${name} not a list`).not.toMatch(/, comma list/);
        const type = SPEC_INTEGERS.includes(name) ? 'integer' : SPEC_BOOLEANS.includes(name) ? 'boolean' : 'string';
        expect(prop.type, `${def.tool}.${name} type`).toBe(type);
      }
      const kind = acceptedParams(def)[name]!.kind;
      expect(kind === 'date', `${def.tool}.${name} date kind`).toBe(isDateName(name));
      if (kind === 'date') expect(prop.description).toContain('YYYYMMDD');
    }
    // The same properties and required list through the default conversion.
    const plain = z.toJSONSchema(inputSchema(def)) as unknown as JsonObject;
    expect(Object.keys(plain.properties).sort()).toEqual([...expected].sort());
    expect([...(plain.required ?? [])].sort()).toEqual([...spec.required].sort());
  });

  it('publishes compact schemas: no $defs, one description per property, nothing nested', () => {
    for (const def of TRANSACTIONS) {
      const json = published(def);
      const text = JSON.stringify(json);
      expect(text).not.toContain('$defs');
      expect(text).not.toContain('definitions');
      expect(text).not.toContain('9007199254740991');
      expect(text).not.toContain('"pattern"');
      expect(text.match(/"description":/g)?.length).toBe(Object.keys(json.properties).length);
    }
  });

  it('LoadOptions carries the spec vocabulary, named in its description', () => {
    const spec = TRANSACTIONS[0]!.params.LoadOptions!;
    expect(spec.kind).toBe('list');
    expect(spec.items).toEqual(LOAD_OPTIONS_ITEMS);
    for (const item of LOAD_OPTIONS_ITEMS) expect(spec.description).toContain(item);
  });

  it('keeps descriptions short, and says what the free-form tools do not know', () => {
    for (const def of TRANSACTIONS) {
      expect(def.description.length, def.tool).toBeGreaterThan(60);
      expect(def.description.length, def.tool).toBeLessThanOrEqual(320);
      for (const [name, spec] of Object.entries(acceptedParams(def))) {
        if (name !== 'LoadOptions') expect(spec.description.length, `${def.tool}.${name}`).toBeLessThanOrEqual(80);
      }
      if (def.freeForm) {
        expect(def.description).toContain('`parameters`');
        expect(def.description).toMatch(/not publish/);
        expect(def.description).toMatch(/unknown/);
      }
    }
    expect(TRANSACTIONS.find((d) => d.tool === 'find_bookings')!.description).toContain('RecordLocator');
    expect(TRANSACTIONS.find((d) => d.tool === 'tickets_issued_by_number')!.description).toContain('TicketNumber');
  });

  it('names its neighbours so the assistant can choose', () => {
    const text = (tool: string) => TRANSACTIONS.find((d) => d.tool === tool)!.description;
    expect(text('air_segments_by_date')).toContain('passenger_locations_by_routing');
    expect(text('air_segments_by_date')).toContain('passenger_arrivals');
    expect(text('ticket_coupons_by_status_code')).toContain('ticket_coupons_issued');
    expect(text('ticket_coupons_issued')).toContain('ticket_coupons_by_status_code');
    expect(text('hotel_segments')).toContain('hotel_segment_counts_per_location');
    expect(text('hotel_segment_counts_per_location')).toContain('hotel_segments');
  });

  it(`costs ${COST} tokens for the report tools' definitions (budget 9,000)`, () => {
    expect(COST).toBeGreaterThan(1000);
    expect(COST).toBeLessThan(9000);
  });
});
