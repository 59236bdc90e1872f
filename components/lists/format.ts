export function formatAmount(amount: string | number, currency: string) {
  const value = typeof amount === 'string' ? Number(amount) : amount;
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency, maximumFractionDigits: 0 }).format(value);
  } catch {
    return `${value.toLocaleString('en')} ${currency}`;
  }
}

export function formatDateTime(date: Date | null | undefined) {
  return date ? date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '—';
}
