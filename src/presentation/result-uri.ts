/** Where a held result's records are readable, as a resource (docs/architecture.md). */
export function resultUri(resultId: string): string {
  return `reports://results/${resultId}`;
}
