/**
 * Demo mode with a real agency's REPORTS_USER_NAME and company codes: they mean nothing to the
 * demo agency, so they are set aside with a log line instead of failing every call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

describe('demo mode with settings meant for a real agency', () => {
  let s: InProcess;
  beforeAll(async () => {
    s = await startInProcess({
      env: { REPORTS_USER_NAME: 'jane@myagency.example', REPORTS_OWNING_COMPANY_CODES: 'ACME,TRV1' },
    });
  });
  afterAll(() => s.close());

  it('sets aside what the demo agency lacks and says so', () => {
    expect(s.rt.config.userName).toBeUndefined();
    expect(s.rt.config.owningCompanyCodes).toEqual(['TRV1']);
    expect(
      s.logs.some((l) =>
        l.startsWith(
          "demo mode: REPORTS_USER_NAME 'jane@myagency.example' is not a user of the demo agency and is not used; demo users: ",
        ),
      ),
    ).toBe(true);
    expect(s.logs).toContain(
      'demo mode: REPORTS_OWNING_COMPANY_CODES ACME are not companies of the demo agency; demo companies: TRV1, TRV2, GLB1',
    );
  });

  it('tools that take UserName work, scoped to the company that exists', async () => {
    const r = await s.call('problematic_segments', { DepartureDateStart: '20261101', DepartureDateEnd: '20261231' });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent as { query: Record<string, string>; fetchedRecords: number };
    expect(sc.query).toEqual({
      DepartureDateStart: '20261101',
      DepartureDateEnd: '20261231',
      OwningCompanyCode: 'TRV1',
    });
    expect(sc.fetchedRecords).toBe(s.rt.sandbox!.report('ProblematicSegments', sc.query).length);
    expect(sc.fetchedRecords).toBeGreaterThan(0);
  });
});
