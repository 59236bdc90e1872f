// A specialist shown a lane of the pool (StepDef.lane: FinDebate's five, SAS's management and
// industry briefings) is told what its evidence block holds, in the factor names its items carry,
// so that it does not take the absence of another lane's items for silence of the material.
import type { PoolLane } from '@/lib/domain/protocol';

const either = (words: string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : words.join(''));

export const poolWords = (pool: PoolLane) => {
  const held = [
    pool.factors.length ? `those whose factor is ${either(pool.factors.map((f) => (f === 'other' ? '`other` (or untagged)' : `\`${f}\``)))}` : null,
    pool.adverse ? 'every item read adverse, whatever its factor' : null,
  ];
  return `The evidence block above holds only the pool's items in your lane: ${held.filter(Boolean).join(', and ')}.`;
};
