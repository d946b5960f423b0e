import { findTransaction } from '../catalog/transactions.js';
import type { TransactionDef } from '../catalog/types.js';
import { daysNote, writeDaysAsDates } from '../results/day-dates.js';
import { deriverFor, meaningNotes, withDerived } from '../results/derived.js';
import type { PageCopy, PagesToFetch } from '../results/disk/page-copy.js';
import { ignoredFilterNotes } from '../results/ignored-filters.js';
import { inHouseNoteOf } from '../results/nights-window.js';
import { PageSummary } from '../results/page-summary.js';
import { notePaths } from '../results/paths.js';
import type { StoredResult } from '../results/store.js';
import { summarize } from '../results/summarize.js';
import type { PageSource } from '../upstream/client.js';
import { KeptPages } from '../upstream/kept-pages.js';
import { coversAll, intervalsOf, mergeIntervals, splitHeld } from '../upstream/paging/intervals.js';
import { type FetchRequest, fetchReport } from '../upstream/paging.js';
import { Compactor, compactRecords } from '../upstream/record-memory.js';
import { reclaimAfterPut } from './reclaim.js';
import type { Runtime } from './runtime.js';
import { ScopeFilter } from './scope.js';

export interface RunOptions {
  maxRecords: number;
  signal?: AbortSignal;
  onProgress?: (fetched: number, total: number) => void;
  /** Time this fetch may take; default REPORTS_CALL_BUDGET_MS (a tool call making several
   *  fetches gives each what is left of its own budget). */
  budgetMs?: number;
  /** Count the records' top-level values as they are walked (FetchRequest.countValues). */
  countValues?: boolean;
  /** With countValues: hold days as they are walked (FetchRequest.heldDays). */
  heldDays?: boolean;
  /** Records a page asks for; default REPORTS_PAGE_SIZE. */
  pageSize?: number;
}

/** What fetchRecords answers: the records (unmasked, within the pinned scope) and how complete. */
export interface FetchedRecords {
  records: Record<string, unknown>[];
  totalRecords: number | null;
  complete: boolean;
  notes: string[];
  requests: number;
}

/**
 * The same fetch as a report tool's (signing, paging, limiter, deadline, pinned scope), for a
 * tool that derives its answer from a report instead of holding it (travellers_at): records
 * outside REPORTS_OWNING_COMPANY_CODES are dropped, nothing is masked or stored.
 */
export async function fetchRecords(
  rt: Runtime,
  def: TransactionDef,
  query: Record<string, string>,
  opts: RunOptions,
): Promise<FetchedRecords> {
  const scope = new ScopeFilter(rt.config.owningCompanyCodes);
  const outcome = await fetchFor(rt, def, query, opts, { onPage: (_offset, page) => scope.keep(page) });
  return {
    records: outcome.pages.flatMap((p) => p.records),
    totalRecords: outcome.totalRecords,
    complete: outcome.complete,
    notes: [...outcome.notes, ...scope.notes()],
    requests: outcome.requests,
  };
}

/** Fetches a report (all pages, within cap and budget) and holds it under a new resultId. */
export async function runReport(
  rt: Runtime,
  def: TransactionDef,
  query: Record<string, string>,
  opts: RunOptions,
): Promise<StoredResult> {
  const started = Date.now();
  // Kept on disk as the pages the service sent (DiskStore.pageCopy), when they alone give the
  // records held: every one as walked (not masked, none cut by the pinned scope).
  const copy = rt.config.redactPii ? undefined : rt.store.pageCopy?.();
  let fetched: Awaited<ReturnType<typeof fetchSummarised>>;
  try {
    fetched = await fetchSummarised(rt, def, query, opts, rt.upstream, copy);
  } catch (err) {
    void copy?.abandon();
    throw err;
  }
  const { outcome, records } = fetched;
  const pageSize = opts.pageSize ?? rt.config.pageSize;
  const pages =
    copy?.whole && fetched.asWalked
      ? {
          copy,
          pageSize,
          maxRecords: opts.maxRecords,
          identities: outcome.identities,
        }
      : undefined;
  if (copy && !pages) void copy.abandon();
  // Held as walked: the walk's keys are the records' paths (query_report reads them).
  if (fetched.asWalked && outcome.flatKeys) notePaths(records, outcome.flatKeys);
  const stored = await rt.results.put({
    ...(pages ? { pages } : {}),
    report: def.tool,
    source: rt.source,
    // The echo too: PaxSurname and the like carry traveller names.
    query: rt.redact(query),
    sentQuery: query,
    totalRecords: outcome.totalRecords,
    complete: outcome.complete,
    // Notes may quote the service (a failed page's error): masked like everything else.
    notes: [
      ...outcome.notes,
      ...fetched.notes,
      ...meaningNotes(def.answer.meaning, records),
      // Masked records no longer hold the names a filter may name: the check reads them unmasked only.
      ...(rt.config.redactPii ? [] : ignoredFilterNotes(def, query, records)),
    ]
      .map(rt.redact.text)
      .concat(nightsNote(def, query)),
    records,
    held: intervalsOf(outcome.pages),
    summary: fetched.summary,
    ...(fetched.asWalked
      ? { recordBytes: outcome.heldBytes }
      : fetched.compactedBytes !== undefined
        ? { recordBytes: fetched.compactedBytes }
        : {}),
  });
  // What the result holds by the budget's measure is in the line: the bench reads it there.
  rt.log(
    `${def.tool}: ${records.length} records in ${outcome.requests} request${outcome.requests === 1 ? '' : 's'}, ` +
      `${Date.now() - started} ms${outcome.complete ? '' : ' (incomplete)'}, ${stored.bytes} bytes held`,
  );
  // The page texts, the copies the walk replaced and the fetch's working state (the summary's
  // exact value counts, left behind in fetchSummarised) are garbage now: about 2.5x what is held.
  reclaimAfterPut(stored.bytes);
  return stored;
}

/**
 * A report's pages fetched, masked and summarised as they arrive (while the others are in
 * flight), and the finished summary. Its own function so that the summary's working tables
 * are out of reach once it returns, before the collection that follows a large put.
 */
async function fetchSummarised(
  rt: Runtime,
  def: TransactionDef,
  query: Record<string, string>,
  opts: RunOptions,
  source: PageSource = rt.upstream,
  copy?: PageCopy,
) {
  let summary = new PageSummary();
  const scope = new ScopeFilter(rt.config.owningCompanyCodes);
  let learnt: number | undefined;
  let remasked = false;
  // Whether every page's records are held as the fetch walked (and measured) them: not when
  // masking or the scope replaced or dropped some, which are then measured by the store.
  let asWalked = true;
  // The fetch counts every top-level value as it walks it, so the summary needs no walk of
  // its own; masking replaces every record, so then the summary profiles the masked ones.
  const countValues = !rt.config.redactPii;
  // Records held other than as the walk left them (masked, or a page cut by the pinned scope)
  // are shared and measured here, a page as it arrives (record-memory.ts), not in a walk of
  // the whole list once the fetch is done: the pages held before the first such page are
  // caught up then. A cap, a deadline or a failed page leaves what was measured so far.
  let compactor: Compactor | undefined;
  let walkedPages: Record<string, unknown>[][] = [];
  // The days of a top-level field are held as they are walked (FetchOutcome.dayFields).
  const heldDays = countValues;
  const outcome = await fetchFor(
    rt,
    def,
    query,
    { ...opts, countValues, heldDays },
    {
      source,
      copy,
      onPage: (offset, page, counted) => {
        const kept = rt.redact.records(scope.keep(page));
        if (kept !== page && !compactor) {
          asWalked = false;
          // Masked copies have the layout of the parsed records they copy (results/pii.ts).
          compactor = new Compactor(true);
          for (const earlier of walkedPages) for (const r of earlier) compactor.record(r);
          walkedPages = [];
        }
        if (compactor) for (const r of kept) compactor.record(r);
        else walkedPages.push(kept);
        learnt ??= rt.redact.learnt();
        summary.page(offset, kept, kept === page ? counted : undefined);
        return kept;
      },
    },
  );
  walkedPages = [];
  // One list of every record, the pages' own lists released with the outcome.
  let records = outcome.pages.length === 1 ? outcome.pages[0].records : concatPages(outcome.pages);
  let values = outcome.values;
  // A traveller named on a later page may be written in an earlier page's free text: when
  // names were learnt after the first page was masked, the free text is masked again and
  // the summary made over the final records.
  if (learnt !== undefined && rt.redact.learnt() > learnt && outcome.pages.length > 1) {
    records = rt.redact.remask(records);
    asWalked = false;
    remasked = true;
    compactor = undefined;
  }
  // A page the summary profiled as it came (not counted: the pinned scope cut it) was read
  // with days that its records no longer hold when the walk wrote a field's instants back.
  if (remasked || (outcome.daysWrittenBack && !asWalked)) {
    summary = new PageSummary();
    summary.page(0, records);
    values = undefined;
  }
  const finished = summary.finish(records, { report: def.tool }, values);
  const days = writeDaysAsDates(records, finished, outcome.dayFields);
  return {
    outcome,
    records,
    asWalked,
    // Records masked again are other copies, made whole of the parsed ones (results/pii.ts):
    // measured with that layout once their days are written.
    compactedBytes: remasked ? compactRecords(records, true) : compactor?.bytes,
    notes: [...scope.notes(), ...(days.length ? [daysNote(days)] : [])],
    summary: withDerived(finished, outcome.derived),
  };
}

/** The pages' records in one list, sized once (flatMap grows its list as it goes). */
function concatPages(pages: readonly { records: Record<string, unknown>[] }[]): Record<string, unknown>[] {
  let n = 0;
  for (const p of pages) n += p.records.length;
  const out = new Array<Record<string, unknown>>(n);
  let i = 0;
  for (const p of pages) for (const r of p.records) out[i++] = r;
  return out;
}

/**
 * A report's records fetched again from the pages kept on disk (DiskStore.fetchPagesWith), under
 * the settings they were kept under (the store checks them): the same fetch as runReport's, the
 * kept pages answering in place of the service, with the page size and cap it ran with. Its
 * records are the ones held, as their identities as sent, added up, say.
 */
export async function fetchKeptReport(rt: Runtime, kept: PagesToFetch) {
  const def = findTransaction(kept.report);
  if (!def) throw new Error(`no report is named ${kept.report}`);
  const opts = { maxRecords: kept.copy.maxRecords, pageSize: kept.copy.pageSize, budgetMs: KEPT_FETCH_MS };
  const fetched = await fetchSummarised(rt, def, kept.query, opts, new KeptPages(kept.pages));
  if (!fetched.asWalked || fetched.outcome.identities !== kept.copy.identities)
    throw new Error('fetched again from its pages, it holds other records than it held');
  return fetched.records;
}

/** Pages kept are read from memory: no fetch again from them comes near this. */
const KEPT_FETCH_MS = 3_600_000;

/**
 * Fetches only what an incomplete result is missing (the gaps between held intervals, up to
 * the cap) and updates the same resultId. Records stay in upstream order.
 */
export async function continueReport(
  rt: Runtime,
  def: TransactionDef,
  stored: StoredResult,
  opts: RunOptions,
): Promise<StoredResult> {
  // Complete, or every record held and incomplete only because the data changed while it was
  // read: nothing is missing to fetch (its notes say to run the report again).
  if (stored.complete || (stored.totalRecords !== null && coversAll(stored.held, stored.totalRecords))) return stored;
  const scope = new ScopeFilter(rt.config.owningCompanyCodes);
  const outcome = await fetchFor(rt, def, stored.sentQuery, opts, {
    held: { intervals: stored.held, totalRecords: stored.totalRecords },
    onPage: (_offset, page) => rt.redact.records(scope.keep(page)),
  });
  const heldPages = splitHeld(stored.records, stored.held);
  let asWalked = true;
  const newPages = outcome.pages.map((p) => {
    const records = rt.redact.remask(p.records);
    if (records !== p.records) asWalked = false;
    return { ...p, records };
  });
  const pages = [...heldPages, ...newPages].sort((a, b) => a.offset - b.offset);
  const held = mergeIntervals(intervalsOf(pages));
  const total = outcome.totalRecords;
  const complete = outcome.complete && total !== null && coversAll(held, total);
  const records = concatPages(pages);
  // The new pages' days written as the held ones are (the store profiles the records again).
  const days = writeDaysAsDates(records, summarize(records, { report: def.tool }));
  return rt.results.update(stored.id, {
    records,
    // What was held, and what this call's walk measured (unless masking replaced it).
    ...(asWalked && Number.isFinite(stored.recordBytes) ? { recordBytes: stored.recordBytes + outcome.heldBytes } : {}),
    held,
    totalRecords: total,
    complete,
    notes: [
      ...outcome.notes,
      ...scope.notes(),
      ...meaningNotes(
        def.answer.meaning,
        pages.flatMap((p) => p.records),
      ),
      ...(days.length ? [daysNote(days)] : []),
    ]
      .map(rt.redact.text)
      .concat(nightsNote(def, stored.sentQuery)),
  });
}

/** The note on the stays NightsInWindow leaves out, as a list: this server's words only (see
 *  inHouseNoteOf), added after the notes that are masked. */
function nightsNote(def: TransactionDef, query: Record<string, string>): string[] {
  const note = inHouseNoteOf(def, query);
  return note ? [note] : [];
}

/** Where a fetch's pages come from, what it continues, and what it does with each page. */
interface FetchParts extends Pick<FetchRequest, 'held' | 'onPage' | 'copy'> {
  /** Default: the service (rt.upstream). */
  source?: PageSource;
}

async function fetchFor(
  rt: Runtime,
  def: TransactionDef,
  query: Record<string, string>,
  opts: RunOptions,
  { source = rt.upstream, held, onPage, copy }: FetchParts = {},
) {
  const deriver = await deriverFor(def.answer.meaning, query);
  const outcome = await fetchReport(source, {
    prepare: deriver?.apply,
    path: def.path,
    query,
    envelope: def.envelope,
    paged: def.marks.paging,
    pageSize: opts.pageSize ?? rt.config.pageSize,
    maxRecords: opts.maxRecords,
    budgetMs: opts.budgetMs ?? rt.config.callBudgetMs,
    signal: opts.signal,
    onProgress: opts.onProgress,
    countValues: opts.countValues,
    heldDays: opts.heldDays,
    held,
    onPage,
    copy,
  });
  return { ...outcome, derived: deriver?.fields ?? [] };
}
