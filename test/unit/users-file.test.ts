/** The users file read directly: what each mistake says, and which token finds whom. */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadUsersFile } from '../../src/http/users-file.js';

const dir = mkdtempSync(join(tmpdir(), 'users-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hash = (t: string) => createHash('sha256').update(t).digest('hex');

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('loadUsersFile', () => {
  it('finds each person by their token only; a hash or a near token finds nobody', async () => {
    const source = loadUsersFile(
      file('ok.json', [
        { name: 'ana', tokenSha256: hash('tok-ana'), userName: 'ana@a.example', owningCompanyCodes: ['TRV1'] },
        { name: 'ben', tokenSha256: hash('tok-ben'), userName: 'ben@a.example', redactPii: true },
      ]),
      ['TRV1', 'TRV2'],
    );
    expect(await source.identify('tok-ana')).toEqual({
      identity: {
        owner: 'user:ana',
        label: 'ana',
        userName: 'ana@a.example',
        owningCompanyCodes: ['TRV1'],
        redactPii: undefined,
      },
    });
    expect(await source.identify('tok-ben')).toMatchObject({ identity: { owner: 'user:ben', redactPii: true } });
    expect(await source.identify('tok-an')).toBeUndefined();
    expect(await source.identify(hash('tok-ana'))).toBeUndefined();
  });

  const bad: Array<[string, unknown, string]> = [
    ['not-json.json', '[{"name": "ana",', 'is not valid JSON'],
    ['empty.json', [], 'expected a non-empty JSON array'],
    ['object.json', { name: 'ana' }, 'expected a non-empty JSON array'],
    ['entry.json', ['ana'], 'entry 1 is not an object'],
    ['no-name.json', [{ tokenSha256: hash('x'), userName: 'a@b.c' }], 'entry 1: "name" must be a non-empty string'],
    [
      'bad-hash.json',
      [{ name: 'ana', tokenSha256: 'ABC', userName: 'a@b.c' }],
      `entry 1 ('ana'): "tokenSha256" must be`,
    ],
    ['no-user.json', [{ name: 'ana', tokenSha256: hash('x') }], `entry 1 ('ana'): "userName" must be`],
    ['typo.json', [{ name: 'ana', tokenSha256: hash('x'), userName: 'a', redactPII: true }], "unknown key 'redactPII'"],
    [
      'codes.json',
      [{ name: 'ana', tokenSha256: hash('x'), userName: 'a', owningCompanyCodes: 'TRV1' }],
      '"owningCompanyCodes" must be',
    ],
    [
      'outside.json',
      [{ name: 'ana', tokenSha256: hash('x'), userName: 'a', owningCompanyCodes: ['TRV9'] }],
      'company codes TRV9 are outside REPORTS_OWNING_COMPANY_CODES',
    ],
    [
      'mask.json',
      [{ name: 'ana', tokenSha256: hash('x'), userName: 'a', redactPii: 'yes' }],
      '"redactPii" must be true or false',
    ],
    [
      'twice-name.json',
      [
        { name: 'ana', tokenSha256: hash('x'), userName: 'a' },
        { name: 'ana', tokenSha256: hash('y'), userName: 'b' },
      ],
      `entry 2 ('ana'): the name appears twice`,
    ],
    [
      'twice-hash.json',
      [
        { name: 'ana', tokenSha256: hash('x'), userName: 'a' },
        { name: 'bo', tokenSha256: hash('x'), userName: 'b' },
      ],
      `entry 2 ('bo'): the same token hash as an earlier entry`,
    ],
  ];
  it.each(bad)('%s: one line naming the file and the problem', (name, content, message) => {
    const path = file(name, content);
    let error: Error | undefined;
    try {
      loadUsersFile(path, ['TRV1']);
    } catch (err) {
      error = err as Error;
    }
    expect(error?.name).toBe('StartupError');
    expect(error?.message.startsWith(`REPORTS_HTTP_USERS: ${path}: `)).toBe(true);
    expect(error?.message).toContain(message);
    expect(error?.message).not.toContain('\n');
    expect(error?.message).not.toContain(hash('x'));
  });

  it('a missing file says so', () => {
    expect(() => loadUsersFile(join(dir, 'nope.json'), undefined)).toThrow(
      `REPORTS_HTTP_USERS: ${join(dir, 'nope.json')}: no such file`,
    );
  });
});
