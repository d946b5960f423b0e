/**
 * Ajv compilers as strict outside clients use them: JSON Schema 2020-12 (the MCP default
 * dialect) and draft-07, both in strict mode, independent of the SDK's own validator.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

export function strictAjv2020(): Ajv2020 {
  return new Ajv2020({ strict: true, allErrors: true });
}

export function strictAjvDraft07(): Ajv {
  return new Ajv({ strict: true, allErrors: true });
}

/** Keywords some clients refuse, with the JSON pointer of each use. */
export function refusedKeywords(schema: unknown, at = ''): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => refusedKeywords(s, `${at}/${i}`));
  if (schema === null || typeof schema !== 'object') return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'propertyNames' || (key === 'type' && Array.isArray(value))) {
      found.push(`${at}/${key}`);
    }
    found.push(...refusedKeywords(value, `${at}/${key}`));
  }
  return found;
}

export type { ValidateFunction };
