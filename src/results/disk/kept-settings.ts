/**
 * The settings a kept result was held under (docs/held-results.md, "On disk"): the pinned scope
 * and masking decide which records anyone may see, and the server's version decides what the
 * pages kept as sent give when fetched again. A result read back under other settings is
 * dropped, not shown: a scope narrowed or masking turned on since would otherwise show records
 * the administrator has since put out of sight.
 */

/** `version`, `REPORTS_OWNING_COMPANY_CODES` and `REPORTS_REDACT_PII`, as JSON values. */
export type KeptSettings = Record<string, unknown>;

/** A result kept under other settings than this server's: not read back. */
export class OtherSettingsError extends Error {
  override readonly name = 'OtherSettingsError';
}

/**
 * What differs between the settings a result was kept under and this server's, said as
 * `name then, now` (undefined when nothing does). The version counts only for a copy of pages:
 * records read back are the records held, whatever version reads them.
 */
export function changedSettings(
  then: KeptSettings | undefined,
  now: KeptSettings,
  versionCounts: boolean,
): string | undefined {
  if (!then) return 'kept by an earlier version, which did not write them down';
  const changed = Object.keys(now).filter(
    (k) => (versionCounts || k !== 'version') && JSON.stringify(then[k]) !== JSON.stringify(now[k]),
  );
  if (!changed.length) return undefined;
  const name = (k: string) => (k === 'version' ? 'server version' : k);
  return changed.map((k) => `${name(k)} ${JSON.stringify(then[k])} then, ${JSON.stringify(now[k])} now`).join('; ');
}
