import { describe, expect, it } from 'vitest';
import { recordsToCsv } from '../../src/results/csv.js';

describe('toCsv', () => {
  it('writes the union of top-level fields in first-seen order, quoting per RFC 4180', () => {
    const csv = recordsToCsv([
      { RecordLocator: 'ABC123', Account: 'ACME, Inc.', FOPFare: '12.50' },
      { RecordLocator: 'DEF456', Remark: 'said "hi"\nthen left', IsVip: true, FlownKM: 1200 },
      { Account: null, Passengers: [{ FirstName: 'A' }], Summary: { RecordLocator: 'X' } },
    ]);
    expect(csv).toBe(
      [
        'RecordLocator,Account,FOPFare,Remark,IsVip,FlownKM,Passengers,Summary',
        'ABC123,"ACME, Inc.",12.50,,,,,',
        'DEF456,,,"said ""hi""\nthen left",true,1200,,',
        ',,,,,,"[{""FirstName"":""A""}]","{""RecordLocator"":""X""}"',
        '',
      ].join('\r\n'),
    );
  });

  it('has just an empty header line for no records', () => {
    expect(recordsToCsv([])).toBe('\r\n');
  });
});
