// How the admin's study pages name a system: the protocol's own display name. Never imported
// by anything an evaluator loads.
import { isProtocolId, PROTOCOLS_BY_ID } from '@/lib/debate/protocols';

export function systemName(protocol: string) {
  return isProtocolId(protocol) ? PROTOCOLS_BY_ID[protocol].name : protocol;
}
