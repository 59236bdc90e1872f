// The red-flag rule table, as data (docs/protocols.md, "Red flags"). Each rule names one kind of
// decisive credit event, the evidence categories it reads, the Korean and English phrases that
// report the event, and the phrases that cancel it (a clean audit opinion, a suit withdrawn or won,
// a workout completed). lib/pool/red-flags.ts applies the table; nothing else decides what a red
// flag is.
//
// Patterns are plain words or short anchored expressions without nested quantifiers: every
// bounded gap (`[^.]{0,40}`) keeps the cost of a match linear in the text, and the text itself is
// cut to a fixed length before any pattern runs.
import type { EvidenceCategory } from '@/lib/domain/factors';
import type { RedFlagKind } from '@/lib/domain/red-flags';

export type RedFlagRule = {
  kind: RedFlagKind;
  /** The evidence categories the rule reads; an item of any other category is never this flag. */
  categories: readonly EvidenceCategory[];
  /** Any one of these in a sentence (or the title) reports the event. */
  patterns: readonly RegExp[];
  /** Any one of these in the same sentence cancels the match there. */
  negations: readonly RegExp[];
};

// Categories where any decisive event may be reported: filings lists and the press.
const GENERAL: readonly EvidenceCategory[] = ['news', 'disclosure_other'];

/**
 * Words that make a sentence speak of a proceeding or a possibility rather than an event that
 * happened: an investigation or inquiry, an allegation, a complaint or suit filed, preliminary
 * findings, a statement of objections, "may impose", "could result in", "if … then", 수 있다,
 * 가능성, 경우, 예정, 혐의, 기소, 조사 중. A rule's match in such a sentence is not a red flag
 * (unless the sentence also says the event happened, below): the item stays in the pool as an
 * adverse item the debate weighs, and a document sentence of this kind is not proposed as a
 * red-flag candidate. "May" followed by a number is the month.
 */
export const NOT_YET: readonly RegExp[] = [
  /\b(?:[Mm]ay|[Mm]ight|[Cc]ould|[Ww]ould)\b(?!\s+\d)/,
  /\bcan (?:result|lead|give rise|trigger|expose|subject)\b/i,
  /\b(?:if|unless|whether|in the event (?:that|of))\b/i,
  /(?:^|[.;:]\s+)Should\b/,
  /\b(?:potential(?:ly)?|possib(?:le|ility|ilities|ly)|risks? of|threat(?:s|ened)? of|exposure to)\b/i,
  /\b(?:investigat\w*|inquir(?:y|ies)|subpoenas?|requests? for information|under review)\b/i,
  /\b(?:preliminary (?:findings?|assessments?|conclusions?|views?)|statements? of objections|proposed (?:fines?|penalt(?:y|ies))|notice of (?:proposed|intent))\b/i,
  /\b(?:alleg\w*|accus\w*|seeks?|seeking|complaints?|indict\w*|charged with)\b/i,
  /\b(?:intends? to|expects? to|plans? to|anticipates?)\b/i,
  /수\s*(?:도\s*)?있/,
  /가능성|우려|예정|전망|예상|여부|만약|만일/,
  /(?:할|될|받을|있을|하는|되는|않을|없을)\s*경우|경우에는/,
  /혐의|기소|고발|심의|심사\s*중|사전\s*통지/,
  /(?:조사|수사)\s*(?:중|착수|개시|진행)|(?:조사|수사)(?:를|가|을)\s*(?:진행|받고|받는|착수|개시)/,
];

/**
 * Words that say the event did happen: a sanction imposed or paid, a sentence handed down, a
 * judgment entered against the company, a default or a filing made. They keep a match standing in
 * a sentence that also speaks of a proceeding ("위반 혐의로 … 과징금 처분을 받았습니다", "fined
 * … and the company may appeal"). A passive after a modal ("fines could be imposed") is not one.
 */
export const HAPPENED: readonly RegExp[] = [
  /\b(?:was|were|has been|have been|had been) (?:fined|sanctioned|penali[sz]ed|ordered|found liable|suspended|halted|delisted|convicted|sentenced)\b/i,
  /(?<!\b(?:be|is|are) )\b(?:imposed|assessed|levied)\b/i,
  /(?<!\bbe )\b(?:ordered (?:\w+ )?to pay|agreed to pay|found (?:\w+ )?liable|ruled against|defaulted on)\b/i,
  /\b(?:entered|rendered|issued|granted) (?:a |an |the )?(?:final |default )?(?:judgment|verdict|ruling) against\b/i,
  /\bjudgment (?:was )?entered against\b/i,
  /\b(?:filed (?:a )?(?:voluntary )?petition|filed for)\b/i,
  // Korean states a done act by its ending (받았다, 하였다, 되었다, 완료) or, in a condensed line,
  // by the bare noun closing a clause ("과징금 … 처분.", "선고(항소심 진행 중)").
  /(?:부과|처분|선고|확정|납부|납입|명령|판결|신청|발생|개시|결정|지정|정지)(?:을|를|이|가)?\s*(?:받았|받아|받음|받은|하였|했|되었|됐|됨|완료)/,
  /(?:부과|처분|선고|확정)\s*(?:[.,()。]|$)/,
  // DART's table of sanctions (제재 현황) lists measures taken, one row each, under these headers.
  /처벌\s*또는\s*조치\s*내용|금전적\s*제재\s*금액/,
];

/**
 * Whether one sentence reports the rule's event: a pattern matches, no negation does, and the
 * sentence does not only speak of a proceeding or a possibility (NOT_YET without HAPPENED).
 * lib/pool/red-flags.ts and the document reader (lib/pool/documents/candidates.ts) both ask this.
 */
export function reportsEvent(rule: RedFlagRule, sentence: string): boolean {
  if (!rule.patterns.some((p) => p.test(sentence))) return false;
  if (rule.negations.some((n) => n.test(sentence))) return false;
  return !NOT_YET.some((n) => n.test(sentence)) || HAPPENED.some((h) => h.test(sentence));
}

export const RED_FLAG_RULES: readonly RedFlagRule[] = [
  {
    kind: 'payment_default',
    categories: ['distress_default', 'distress_rehabilitation', 'distress_creditor_management', ...GENERAL],
    patterns: [
      // Not 부도체 (an insulator) or 부도덕 (immoral).
      /부도(?!체|덕)/,
      /당좌거래\s*정지/,
      /채무\s*불이행/,
      /기한의\s*이익\s*상실/,
      /\bdefaulted on\b/i,
      /\bpayment default\b/i,
      /\b(?:an|in) event of default\b/i,
      /\bmissed (?:a|an|its|the) (?:scheduled )?(?:interest|coupon|principal|debt) payments?\b/i,
      /\bdishono(?:u)?red (?:notes?|bills?|checks?|cheques?)\b/i,
      // Form 8-K Item 2.04: an obligation accelerated, as a default triggers it.
      /\btriggering events that accelerate\b/i,
    ],
    negations: [
      /부도\s*(?:위기|우려|가능성|설)/,
      /부도를?\s*(?:면|모면|피)/,
      /부도\s*(?:사실\s*)?없/,
      /\bno (?:event of )?default\b/i,
      /\bnot in default\b/i,
      /\bdefault (?:was|has been) cured\b/i,
    ],
  },
  {
    kind: 'court_rehabilitation',
    categories: ['distress_rehabilitation', 'distress_default', 'distress_creditor_management', 'legal_proceedings', ...GENERAL],
    patterns: [
      /회생\s*절차/,
      /기업\s*회생/,
      /법정\s*관리/,
      /\bchapter 11\b/i,
      /\b(?:court[- ]supervised |judicial )?reorgani[sz]ation proceedings?\b/i,
      /\brehabilitation proceedings?\b/i,
    ],
    negations: [/회생\s*절차\s*종결/, /\bemerged from chapter 11\b/i],
  },
  {
    kind: 'bankruptcy',
    categories: ['distress_rehabilitation', 'distress_default', 'distress_creditor_management', 'legal_proceedings', 'trading_halt', ...GENERAL],
    patterns: [
      /파산/,
      /\bfiled for bankruptcy\b/i,
      /\bbankruptcy (?:petition|filing|proceedings?|protection)\b/i,
      /\bchapter 7\b/i,
      /\binsolvency proceedings?\b/i,
      /\b(?:compulsory|involuntary) liquidation\b/i,
      // Form 8-K Item 1.03.
      /\bbankruptcy or receivership\b/i,
    ],
    negations: [/파산\s*(?:신청\s*)?(?:기각|취하|각하)/, /\bbankruptcy (?:petition )?(?:was )?(?:dismissed|withdrawn)\b/i, /\bno bankruptcy\b/i],
  },
  {
    kind: 'creditor_workout',
    categories: ['distress_creditor_management', ...GENERAL],
    patterns: [
      /채권\s*은행/,
      /채권\s*금융\s*기관/,
      /금융\s*채권자\s*협의회/,
      /관리\s*절차/,
      /워크\s*아웃/,
      /채권단\s*(?:공동\s*)?관리/,
      /자율\s*협약/,
      /\bworkout\b/i,
      /\bcreditor[- ]led (?:restructuring|rescue)\b/i,
    ],
    negations: [
      // A workout ended because the company recovered; one ended for any other reason stays a flag.
      /정상화\s*(?:완료|달성)/,
      /워크\s*아웃\s*(?:조기\s*)?졸업/,
      /\bexited (?:the |its )?workout\b/i,
      /\bworkout (?:was )?completed\b/i,
    ],
  },
  {
    kind: 'trading_suspension',
    categories: ['trading_halt', ...GENERAL],
    patterns: [
      // 당좌거래정지 is a bank closing the chequing account, a default: payment_default reads it.
      /(?<!당좌)(?<!당좌\s)거래\s*정지/,
      /매매\s*정지/,
      /관리\s*종목/,
      /\btrading (?:halt|suspension)\b/i,
      /\b(?:suspended|halted) from trading\b/i,
      /\btrading (?:in (?:its|the company's) shares )?(?:was|has been) (?:halted|suspended)\b/i,
    ],
    negations: [
      /거래\s*정지\s*(?:해제|해소)/,
      /(?:매매\s*)?거래\s*재개/,
      /관리\s*종목\s*(?:지정\s*)?해제/,
      /\btrading (?:resumed|was resumed)\b/i,
      /\b(?:halt|suspension) (?:was )?lifted\b/i,
    ],
  },
  {
    kind: 'delisting',
    categories: ['trading_halt', ...GENERAL],
    patterns: [/상장\s*폐지/, /\bdelist(?:ing|ed)?\b/i],
    negations: [
      // A company withdrawing a listing abroad (a thinly traded DR) or leaving the market of its
      // own accord keeps its home listing or its owners: not a distress signal.
      /해외\s*증권\s*시장/,
      /해외\s*상장/,
      /자진\s*상장\s*폐지/,
      /상장\s*폐지\s*(?:결정\s*)?(?:취소|무효)/,
      /상장\s*폐지\s*사유\s*(?:해소|미해당)/,
      /\bvoluntar(?:y|ily) delist/i,
      /\b(?:overseas|foreign) (?:stock )?(?:exchange|listing)\b/i,
    ],
  },
  {
    kind: 'tax_arrears',
    categories: ['sanctions', 'legal_proceedings', 'distress_default', ...GENERAL],
    patterns: [/체납/, /\btax arrears\b/i, /\bdelinquent taxes\b/i, /\btax liens?\b/i],
    negations: [/체납\s*(?:사실\s*|액\s*)?(?:없|해당\s*사항\s*없)/, /체납\s*(?:세액\s*)?(?:완납|해소)/, /\bno tax arrears\b/i],
  },
  {
    kind: 'regulatory_sanction',
    categories: ['sanctions', 'legal_proceedings', ...GENERAL],
    patterns: [
      /과징금/,
      /과태료/,
      /벌금/,
      /징역/,
      /제재/,
      /시정\s*(?:명령|조치)/,
      /영업\s*정지\s*처분/,
      /업무\s*정지/,
      /불성실\s*공시\s*법인/,
      /\bcivil (?:money )?penalt(?:y|ies)\b/i,
      /\b(?:was|were) fined\b/i,
      // A fine or penalty named with the act of imposing it, in any tense: whether it was imposed
      // or only may be is the sentence's stage (NOT_YET, HAPPENED), not the pattern's.
      /\b(?:impos|levi|assess)\w* (?:a |an |the )?(?:\w+ )?(?:fines?|penalt(?:y|ies)|sanctions?)\b/i,
      /\bconsent (?:order|decree)\b/i,
      /\bcease[- ]and[- ]desist\b/i,
      /\bsanction(?:s|ed)? (?:by|from|imposed)\b/i,
    ],
    negations: [
      /(?:제재|과징금|벌금)\s*(?:사항\s*|내역\s*)?(?:없음|없습니다|해당\s*사항\s*없)/,
      /(?:과징금|제재|처분)\s*(?:부과\s*)?(?:처분\s*)?취소\s*(?:판결|확정)/,
      /무혐의/,
      /\bno (?:fines|penalties|sanctions)\b/i,
      /\bno agency has concluded\b/i,
    ],
  },
  {
    kind: 'audit_opinion',
    categories: ['governance_ownership', 'risk_factor', ...GENERAL],
    patterns: [
      /(?:감사|검토)\s*의견\s*[:'"‘“(]?\s*(?:한정|부적정|의견\s*거절|비적정)/,
      /한정\s*의견/,
      /부적정\s*의견/,
      /의견\s*거절/,
      /\b(?<!un)qualified (?:audit )?opinion\b/i,
      /\badverse (?:audit )?opinion\b/i,
      /\bdisclaimer of opinion\b/i,
      /\bdisclaimed (?:an|its|their) opinion\b/i,
    ],
    negations: [/감사\s*의견\s*[:'"‘“(]?\s*적정/, /\bunqualified opinion\b/i, /\bunmodified opinion\b/i],
  },
  {
    kind: 'going_concern',
    categories: ['governance_ownership', 'risk_factor', 'distress_default', 'distress_rehabilitation', 'distress_creditor_management', ...GENERAL],
    patterns: [
      /계속\s*기업[^.]{0,30}(?:불확실성|의문|의구심)/,
      /\bsubstantial doubt[^.]{0,80}going concern\b/i,
      /\bgoing[- ]concern (?:doubt|uncertainty|qualification|warning|opinion|paragraph)\b/i,
    ],
    negations: [
      /(?:불확실성|의문)\s*(?:이\s*|은\s*)?(?:없|해소|해당\s*사항\s*없)/,
      /\bno substantial doubt\b/i,
      /\bsubstantial doubt[^.]{0,40}(?:alleviated|no longer)\b/i,
    ],
  },
  {
    kind: 'lawsuit_lost',
    categories: ['legal_proceedings', 'sanctions', ...GENERAL],
    patterns: [
      /패소/,
      /(?:손해\s*)?배상\s*(?:금\s*)?(?:지급\s*)?판결/,
      /\bverdict against\b/i,
      /\bjudgment (?:was )?(?:entered )?against\b/i,
      /\bfound liable\b/i,
      /\bordered to pay\b/i,
      /\blost (?:the|its|an?) (?:appeal|lawsuit|suit|case|trial)\b/i,
      /\bruled against\b/i,
      /\bawarded (?:the )?plaintiffs?(?:'s?)?\b/i,
    ],
    negations: [
      /승소/,
      /원고\s*(?:전부\s*)?패소/,
      /(?:청구|소)\s*(?:전부\s*)?(?:기각|각하)/,
      /(?:소송?|소송을)\s*취하/,
      /\bin (?:its|our|the company's|the defendants') favou?r\b/i,
      /\bin favou?r of (?:the )?(?:company|defendants?)\b/i,
      /\b(?:dismissed|reversed|vacated|overturned)\b/i,
      // A settlement the court approved is an agreement, not a ruling against the company.
      /\bapproved the settlement\b/i,
    ],
  },
];
