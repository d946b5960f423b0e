/**
 * Fields that live inside free text and are worth grouping on, derived as fields of their own
 * (CONTRACT section 5, "Derived fields"): a forwarding log's partner lives only inside its
 * LogMessage ("Forwarding ABC123 to Concur failed: timeout after 30 s"), and grouping on the
 * message gives one group per booking, since every message holds its locator; an app user's
 * report lives only inside RequestDetails ("HotelSegments DateStart=... DateEnd=...").
 *
 * Pure functions, added through the derived-field table (results/derived.ts): each adds its
 * field at the end of the record and says how it is computed. A text that does not read as
 * expected gives null (the field is empty), never a guess.
 */

type Rec = Record<string, unknown>;

export interface TextDeriver {
  /** The field added. */
  field: string;
  /** How it is computed, as the summary lists it. */
  how: string;
  /** The free-text field it reads. */
  from: string;
  derive(text: string): string | null;
}

/** "Forwarded ABC123 to Concur: HTTP 202 Accepted", "Forwarding ABC123 to SAP Travel failed: ...". */
const FORWARDED_TO = /^Forward(?:ed|ing)\s+\S+\s+to\s+(.+?)(?:\s+failed)?:\s/;
/** "... failed: timeout after 30 s". */
const FAILED_BECAUSE = /\sfailed:\s+(.+)$/;
/** A report transaction's name first, then its parameters or nothing: "HotelSegments DateStart=...". */
const REPORT_FIRST = /^([A-Z][A-Za-z0-9]{2,63})(?:\s+\w+=|\s*$)/;
/** "Scheduled e-mail of HotelSegments sent to ...". */
const REPORT_MAILED = /^Scheduled e-mail of ([A-Z][A-Za-z0-9]{2,63})\b/;

/** The fields derived from free text, by name: a catalog entry names those its records get
 *  (`answer.meaning.textFields`), and results/derived.ts adds them. */
export const TEXT_FIELDS: Readonly<Record<string, TextDeriver>> = {
  Partner: {
    field: 'Partner',
    how: 'the partner named in LogMessage ("Forwarding <locator> to <partner>")',
    from: 'LogMessage',
    derive: (text) => FORWARDED_TO.exec(text)?.[1].trim() || null,
  },
  FailureReason: {
    field: 'FailureReason',
    how: 'what LogMessage says after "failed:" (empty for a success)',
    from: 'LogMessage',
    derive: (text) => FAILED_BECAUSE.exec(text)?.[1].trim() || null,
  },
  ReportName: {
    field: 'ReportName',
    how: 'the report named at the start of RequestDetails, or in a scheduled e-mail (empty for sign-ins and dashboards)',
    from: 'RequestDetails',
    derive: (text) => (REPORT_FIRST.exec(text) ?? REPORT_MAILED.exec(text))?.[1] ?? null,
  },
};

/** Sets `field` on `record` (at its end) from its free text: null when the text is absent. */
export function addTextField(record: Rec, d: TextDeriver): void {
  const text = record[d.from];
  record[d.field] = typeof text === 'string' ? d.derive(text) : null;
}
