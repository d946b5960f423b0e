import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** One JSON page of a held result, as resources/read returns it. */
export interface ResultPage {
  resultId: string;
  records: Record<string, unknown>[];
  page: number;
  pages: number;
  next: string | null;
  csv: string;
}

export async function readPage(client: Client, uri: string): Promise<ResultPage> {
  const read = await client.readResource({ uri });
  return JSON.parse((read.contents[0] as { text: string }).text) as ResultPage;
}

/** Every record of a held result, following `next` from `uri` to the last page. */
export async function readAllRecords(client: Client, uri: string): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  let next: string | null = uri;
  for (let n = 1; next; n++) {
    const page: ResultPage = await readPage(client, next);
    if (page.page !== n) throw new Error(`page ${n} of ${uri} says it is page ${page.page}`);
    records.push(...page.records);
    next = page.next;
  }
  return records;
}

/** The CSV of every page of a held result, header once, from `${resourceUri}.csv`. */
export async function readAllCsv(client: Client, resourceUri: string): Promise<string> {
  let next: string | null = `${resourceUri}.csv`;
  let out = '';
  while (next) {
    const read = await client.readResource({ uri: next });
    const c = read.contents[0] as { text: string; _meta?: { next: string | null } };
    out += out ? c.text.slice(c.text.indexOf('\r\n') + 2) : c.text;
    next = c._meta?.next ?? null;
  }
  return out;
}
