/**
 * The view's headline: the report's title and the days asked for in words ("Hotel stays,
 * 1–31 Oct 2026"), the other parameters, whether the result is complete (and, when not, how
 * many of how many records it holds and what fetches the rest), and the result's notes.
 */
import type { ReportHead } from './model.js';
import { type HostTool, reportTitle } from './titles.js';
import { askedWindow, counted, dayRangeText, formatNumber } from './words.js';

export function headlineTitle(head: ReportHead, hostTool?: HostTool): string {
  const title = reportTitle(head.report, hostTool);
  const window = askedWindow(head.query);
  return window ? `${title}, ${dayRangeText(window.from, window.to)}` : title;
}

/** The parameters other than the asked days: "CouponCodeGroup OPEN · DateTracker E". */
export function otherParameters(head: ReportHead): string {
  const window = askedWindow(head.query);
  return Object.entries(head.query)
    .filter(([k]) => k !== window?.startKey && k !== window?.endKey)
    .map(([k, v]) => `${k} ${v}`)
    .join(' · ');
}

/** "Complete: 65 of 65 records", or the incomplete line with the numbers and the next call. */
export function statusLine(head: Pick<ReportHead, 'complete' | 'fetchedRecords' | 'totalRecords'>): string {
  const { fetchedRecords: fetched, totalRecords: total } = head;
  if (head.complete) return `Complete: ${formatNumber(fetched)} of ${counted(total ?? fetched, 'record')}`;
  if (total === null)
    return `Incomplete: ${counted(fetched, 'record')} of an unknown number. Ask for continue_report to fetch the rest.`;
  return (
    `Incomplete: ${formatNumber(fetched)} of ${counted(total, 'record')}. ` +
    `Ask for continue_report to fetch the other ${formatNumber(Math.max(0, total - fetched))}.`
  );
}

export function renderHeadline(el: HTMLElement, head: ReportHead | undefined, resultId: string, hostTool?: HostTool) {
  el.replaceChildren();
  const title = document.createElement('h1');
  title.textContent = head ? headlineTitle(head, hostTool) : `Result ${resultId}`;
  el.append(title);
  if (!head) return;
  const asked = otherParameters(head);
  if (asked) {
    const query = document.createElement('p');
    query.className = 'query';
    query.textContent = asked;
    el.append(query);
  }
  const status = document.createElement('p');
  status.className = head.complete ? 'status complete' : 'status incomplete';
  status.textContent = statusLine(head);
  if (head.source === 'demo') {
    const demo = document.createElement('span');
    demo.className = 'badge';
    demo.textContent = 'demo data';
    status.append(' ', demo);
  }
  el.append(status);
  if (!head.notes.length) return;
  // The notes (what the numbers mean, the dates filtered on, what is incomplete) fold into one
  // line inline in a conversation, where the whole view stays within 500 px; open in the full view.
  const notes = document.createElement('details');
  notes.className = 'notes';
  notes.open = document.documentElement.dataset.display !== 'inline';
  const label = document.createElement('summary');
  label.textContent = `Notes (${head.notes.length})`;
  notes.append(label);
  for (const note of head.notes) {
    const p = document.createElement('p');
    p.className = 'note';
    p.textContent = note;
    notes.append(p);
  }
  el.append(notes);
}
