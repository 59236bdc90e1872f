/** "2025-07-01 09:30" in UTC: judgments are compared across time zones in a committee. */
export const utcMinute = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');
