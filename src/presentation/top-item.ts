/**
 * A summary's top values are written as "value count" items joined by commas. A value is
 * quoted when it would read wrong there: it holds the list's comma or a quote, or it ends in
 * a number that its count would run into ("297 Orchard Road, Chicago US" 3, "+1 3096 7424" 3).
 * The text answer and the result view follow the same rule.
 */
export function mustQuote(value: string): boolean {
  return /[,"“”]|\s[\d.]+$/.test(value);
}
