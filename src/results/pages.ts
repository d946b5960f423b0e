/**
 * A held result read as resource pages (docs/architecture.md, "Bounded output"): the records in order, split
 * so that each page, once written as the text of a resources/read answer, keeps the whole
 * JSON-RPC message under 1 MB. A record too large for a page on its own has its long values
 * cut (with their length) so that it fits.
 */
import { recordLine, recordsToCsv, topLevelColumns } from './csv.js';
import { fitValue, jsonStringBytes } from './cut.js';
import { escapedJsonBytes } from './json-size.js';

/** Bytes of page text per message; the rest of 1,048,576 is room for the answer's frame. */
export const PAGE_TEXT_BYTES = 1_000_000;
/** Room in a JSON page for the keys around the records (resultId, page, next, csv URIs). */
const JSON_FRAME_BYTES = 4_096;

type Rec = Record<string, unknown>;

const jsonCache = new WeakMap<readonly Rec[], Rec[][]>();
const csvCache = new WeakMap<readonly Rec[], { columns: string[]; pages: Rec[][] }>();

/** The records split into JSON pages (cached per records array: a continued result gets a new one). */
export function jsonPages(records: readonly Rec[]): Rec[][] {
  let pages = jsonCache.get(records);
  if (!pages) {
    const budget = PAGE_TEXT_BYTES - JSON_FRAME_BYTES;
    pages = split(records, budget, (r) => escapedJsonBytes(r) + 1);
    jsonCache.set(records, pages);
  }
  return pages;
}

/** The records split into CSV pages over the columns of the whole result; each page has the header. */
export function csvPages(records: readonly Rec[]): { columns: string[]; pages: Rec[][] } {
  let paged = csvCache.get(records);
  if (!paged) {
    const columns = topLevelColumns(records);
    const header = jsonStringBytes(recordsToCsv([], columns));
    // A hostile service may send many or long field names: the header takes at most half.
    const budget = Math.max(PAGE_TEXT_BYTES / 2, PAGE_TEXT_BYTES - header);
    paged = { columns, pages: split(records, budget, (r) => jsonStringBytes(recordLine(r, columns)) + 2) };
    csvCache.set(records, paged);
  }
  return paged;
}

function split(records: readonly Rec[], budget: number, size: (r: Rec) => number): Rec[][] {
  const pages: Rec[][] = [];
  let page: Rec[] = [];
  let used = 0;
  for (const record of records) {
    // Each record measured once; only one too large for a page alone is cut and measured again.
    let fitted = record;
    let bytes = size(record);
    if (bytes > budget) {
      fitted = fitValue(record, budget, size);
      bytes = size(fitted);
    }
    if (page.length > 0 && used + bytes > budget) {
      pages.push(page);
      page = [];
      used = 0;
    }
    page.push(fitted);
    used += bytes;
  }
  if (page.length > 0 || pages.length === 0) pages.push(page);
  return pages;
}
