/**
 * The fields derived from free text (src/results/text-fields.ts), read from the sandbox's own
 * generated log messages and activity details: each names what the generator put in it.
 */
import { describe, expect, it } from 'vitest';
import { addTextField, TEXT_FIELDS } from '../../src/results/text-fields.js';
import { generateDataset } from '../../src/sandbox/data.js';

const ds = generateDataset({ seed: 42, size: 2000, dataNow: new Date('2026-11-15T00:00:00Z') });

function derive(_tool: string, field: string, text: string): string | null {
  return TEXT_FIELDS[field].derive(text);
}

describe('partner_forwarding_logs: Partner and FailureReason from LogMessage', () => {
  it('names the partner of every generated message, and the reason of every failure only', () => {
    expect(ds.partnerLogs.length).toBeGreaterThan(50);
    for (const log of ds.partnerLogs) {
      expect(derive('partner_forwarding_logs', 'Partner', log.message), log.message).toBe(log.partner);
      const reason = derive('partner_forwarding_logs', 'FailureReason', log.message);
      if (log.success) expect(reason, log.message).toBeNull();
      else expect(log.message.endsWith(`failed: ${reason}`), log.message).toBe(true);
    }
    // Grouping on it is worth it: a few partners, not one per booking.
    const partners = new Set(ds.partnerLogs.map((l) => derive('partner_forwarding_logs', 'Partner', l.message)));
    expect(partners.size).toBeLessThan(ds.partnerLogs.length / 10);
  });

  it('a message that does not read as expected gives null, not a guess', () => {
    expect(derive('partner_forwarding_logs', 'Partner', 'Connection reset')).toBeNull();
    expect(derive('partner_forwarding_logs', 'Partner', 'Forwarded ABC123 somewhere')).toBeNull();
    expect(derive('partner_forwarding_logs', 'FailureReason', 'Forwarded ABC123 to X: HTTP 202')).toBeNull();
  });
});

describe('app_users_activity: ReportName from RequestDetails', () => {
  it('names the report of every report run, download and scheduled e-mail; nothing for the rest', () => {
    const reports = new Set<string>();
    for (const a of ds.activities) {
      const name = derive('app_users_activity', 'ReportName', a.details);
      if (a.activity === 'Login' || a.activity === 'ViewDashboard') expect(name, a.details).toBeNull();
      else {
        expect(name, a.details).toMatch(/^[A-Z][A-Za-z]+$/);
        expect(a.details.includes(name!), a.details).toBe(true);
        reports.add(name!);
      }
    }
    expect(reports.size).toBeGreaterThan(3);
    expect(reports.size).toBeLessThan(20);
  });

  it('adds the field at the end of the record, null where the text is absent', () => {
    const r: Record<string, unknown> = { User: 'a@b.example', RequestDetails: 'HotelSegments DateStart=1' };
    addTextField(r, TEXT_FIELDS.ReportName);
    expect(Object.keys(r)).toEqual(['User', 'RequestDetails', 'ReportName']);
    expect(r.ReportName).toBe('HotelSegments');
    const none: Record<string, unknown> = { User: 'x' };
    addTextField(none, TEXT_FIELDS.ReportName);
    expect(none.ReportName).toBeNull();
  });
});
