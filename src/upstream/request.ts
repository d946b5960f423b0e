/**
 * Builds the absolute request URL for one page. The string returned is what is signed AND
 * what is sent, byte for byte (docs/upstream.md, "Requests"), so it is built once, here.
 * Query values are already upstream-ready strings (dates YYYYMMDD, lists comma-joined,
 * booleans true/false: see src/catalog/resolve.ts); parameter order is kept as given.
 */
export function buildUrl(baseUrl: string, path: string, query: Record<string, string>): string {
  const pairs = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeQueryValue(k)}=${encodeQueryValue(v)}`);
  const base = baseUrl.replace(/\/+$/, '');
  const p = path.startsWith('/') ? path : `/${path}`;
  return pairs.length ? `${base}${p}?${pairs.join('&')}` : `${base}${p}`;
}

/**
 * Percent-encodes like encodeURIComponent, keeping commas readable (list parameters are
 * comma-delimited) and also encoding `'`, which WHATWG URL parsing (undici's) would
 * otherwise rewrite to %27 after signing. The result is a fixed point of `new URL().href`.
 */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ',').replace(/'/g, '%27');
}

/** The page window added to every paged request. */
export function pageQuery(query: Record<string, string>, offset: number, limit: number): Record<string, string> {
  return { ...query, Offset: String(offset), Limit: String(limit) };
}
