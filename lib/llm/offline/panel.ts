// Sentences for the protocols other than KPD-MADS — briefings, SAS, the three-round debate and
// FinDebate — one implementation per language (panel-en.ts, panel-ko.ts) behind one interface.
import type { Language } from '@/lib/domain/protocol';
import { PANEL_EN } from './panel-en';
import { PANEL_KO } from './panel-ko';
import type { Panel } from './panel-types';

export type * from './panel-types';

export function panelFor(lang: Language): Panel {
  return lang === 'ko' ? PANEL_KO : PANEL_EN;
}
