const LA_DATE = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Los_Angeles',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The America/Los_Angeles calendar date (YYYY-MM-DD) of an instant. */
export function laDate(at: Date): string {
  return LA_DATE.format(at);
}

/** Adds whole days to a YYYY-MM-DD date (calendar arithmetic, no time zone involved). */
export function addDays(day: string, n: number): string {
  const t = Date.parse(day + 'T00:00:00Z') + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** The calendar date (YYYY-MM-DD) named by a week label (unix seconds of Sunday 00:00 UTC). */
export function weekLabelDate(week: number): string {
  return new Date(week * 1000).toISOString().slice(0, 10);
}

/** The week label (Sunday 00:00 UTC, unix seconds) of the week holding a YYYY-MM-DD date. */
export function weekLabelOf(day: string): number {
  const t = Date.parse(day + 'T00:00:00Z');
  const dow = new Date(t).getUTCDay();
  return (t - dow * 86_400_000) / 1000;
}

/** Normalises an RFC 3339 timestamp or a plain YYYY-MM-DD date into an ISO UTC timestamp (seconds). */
export function normaliseTimestamp(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  let t: number;
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) t = Date.parse(s + 'T00:00:00Z');
  else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s))
    t = Date.parse(s);
  else return undefined;
  if (Number.isNaN(t)) return undefined;
  return new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
