// What server code says to a user, as a key of a message table and its values rather than a
// sentence (lib/i18n renders it in the reader's language). Declared here, at the bottom floor, so
// stored records and run events can carry one.
export type Phrase = { key: string; values?: PhraseValues };
/** A phrase's values; one may be a phrase itself ("Nothing was written: {reason}"), rendered first. */
export type PhraseValues = Record<string, string | number | Phrase>;
