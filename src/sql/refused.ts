/** A statement refused before it ran: not a read, or not exactly one (the caller is told why). */
export class RefusedStatement extends Error {}
