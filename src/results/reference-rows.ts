/**
 * Reference data as the shipped server carries it (docs/architecture.md, "Start-up"): rows
 * read from a package when the bundle is built (scripts/bundle-server.ts) and written as text,
 * a line a row and a tab between fields, so the bundle holds the few fields used instead of
 * the package's whole source. The places of airports (results/place-rows.ts) and SQL's
 * `airports` table (sql/airports-table.ts) are carried so.
 */

const LINE_OR_FIELD_END = /[\t\n\r]/;

/** The rows as text. Throws for a field holding a tab or a line break, which could not be
 *  read back (no reference row holds one: the build would say so); `what` names the data. */
export function rowsText(rows: readonly (readonly string[])[], what: string): string {
  return rows
    .map((row) =>
      row
        .map((field) => {
          if (LINE_OR_FIELD_END.test(field))
            throw new Error(`${what} field ${JSON.stringify(field)} holds a tab or a line break`);
          return field;
        })
        .join('\t'),
    )
    .join('\n');
}

/** The rows rowsText wrote. */
export function parseRows(text: string): string[][] {
  return text === '' ? [] : text.split('\n').map((line) => line.split('\t'));
}
