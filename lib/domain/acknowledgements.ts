// What an RM acknowledges when submitting a case (issue 26 item 5, docs/architecture.md
// "Submitting a case"): each final check that failed on a finished run of the case, and each
// decisive red flag no finished run addresses, each with a reason. Shared by the server's check
// (lib/report/acknowledgements.ts), the submit form and the committee's view; free of zod and
// of the database, so the browser may import it.
import type { RedFlagKind } from '@/lib/domain/red-flags';

/** Characters one reason may have, after trimming, line breaks counted as one. */
export const ACK_REASON_MAX = 1000;

export const ACK_KINDS = ['check', 'red_flag'] as const;
export type AckKind = (typeof ACK_KINDS)[number];

/** The form field of an item's reason: `ack:` and the item's key. */
export const ACK_FIELD_PREFIX = 'ack:';
export const ackField = (key: string) => `${ACK_FIELD_PREFIX}${key}`;

/**
 * One item to acknowledge, as the server computes it. `key` names it within a submission:
 * `check:<runId>:<checkId>` or `flag:<evidenceId>`. A check's `count` is how many items it found
 * (0 for a check without items); `label` is the check in English, for a check without words of its own.
 */
export type AckItem =
  | { key: string; kind: 'check'; runId: string; protocol: string; runCreatedAt: string; checkId: string; count: number; label: string }
  | { key: string; kind: 'red_flag'; evidenceId: string; flagKind: RedFlagKind; title: string; date: string };

/** What an acknowledgement row keeps besides its reason: the item as it stood when acknowledged. */
export type AckDetail = { count?: number; label?: string; protocol?: string; runCreatedAt?: string; title?: string; date?: string; flagKind?: RedFlagKind };

export const checkAckKey = (runId: string, checkId: string) => `check:${runId}:${checkId}`;
export const flagAckKey = (evidenceId: string) => `flag:${evidenceId}`;

/** A stored acknowledgement as the case and report pages show it. */
export type AcknowledgementView = {
  id: string;
  kind: AckKind;
  itemKey: string;
  runId: string | null;
  checkId: string | null;
  evidenceId: string | null;
  detail: AckDetail;
  reason: string;
  submittedAt: string;
  acknowledgedByName: string;
  createdAt: string;
};
