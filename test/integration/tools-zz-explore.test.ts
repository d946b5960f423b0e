import { it } from 'vitest';
import { startInProcess, textOf } from '../helpers/mcp.js';

it('explore', async () => {
  const s = await startInProcess({ env: { REPORTS_PAGE_SIZE: '50' } });
  const ds = s.rt.sandbox!.dataset;
  const out: string[] = [];
  out.push(JSON.stringify(ds.companies));
  out.push(JSON.stringify(ds.appUsers.slice(0, 6)));
  out.push(JSON.stringify(ds.accounts.slice(0, 8).map((a) => [a.code, a.companyCode])));
  out.push(JSON.stringify(ds.pccs.map((p) => [p.code, p.companyCode])));
  out.push('days ' + ds.today + ' air ' + ds.airSegments.length + ' car ' + ds.carSegments.length + ' hotel ' + ds.hotelSegments.length + ' coupons ' + ds.coupons.length + ' tickets ' + ds.tickets.length);
  out.push('airdays ' + ds.airSegments[0].depDay + '..' + ds.airSegments[ds.airSegments.length-1].depDay);
  out.push('fs ' + ds.failedSubmissions.length + ' q ' + ds.qlogForwards.length + ' pl ' + ds.partnerLogs.length + ' qc ' + ds.qcComments.length + ' act ' + ds.activities.length);
  out.push(JSON.stringify(ds.bookings[5].recordLocator) + ' ' + ds.bookings[5].createdDay);
  out.push(JSON.stringify(ds.carSegments.slice(0,3).map(c=>c.vendor.code)));
  out.push(JSON.stringify(ds.consultants.slice(0,3).map(c=>[c.name,c.initials,c.team,c.pcc])));
  out.push(JSON.stringify(ds.tickets.slice(0,2).map(t=>[t.number,t.issueDay,t.plating.code])));
  const r = await s.call('air_segments_by_date', { DateStart: 'today-7', DateEnd: 'today' });
  out.push(JSON.stringify(r.structuredContent).slice(0, 1500));
  out.push(textOf(r).slice(0, 800));
  out.push(JSON.stringify(r.content[1]));
  out.push('requests ' + s.rt.sandbox!.requests.length);
  const lt = await s.client.listTools();
  out.push(JSON.stringify(lt.tools[2]).slice(0, 3000));
  const { writeFileSync } = await import('node:fs');
  writeFileSync('/tmp/explore/out.txt', out.join('\n\n'));
  await s.close();
});
