// What the offline analyst says about one factor in one language: the shape of the tables in
// lexicon-en.ts and lexicon-ko.ts, which lexicon.ts chooses from. Its own module so the tables
// need not import the module that imports them.
export type FactorWords = {
  favReading: string;
  advReading: string;
  favAssumption: string;
  advAssumption: string;
  favFalsifier: string;
  advFalsifier: string;
  /** The standard objection to a favorable reading. */
  favChallenge: string;
  /** The standard harmless explanation of an adverse item. */
  advAlternative: string;
};
