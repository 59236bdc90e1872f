/** Loan currencies the case form offers. */
export const CURRENCIES = ['KRW', 'USD', 'EUR', 'JPY', 'CNY', 'GBP'] as const;
