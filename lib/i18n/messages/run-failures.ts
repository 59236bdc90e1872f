import { defineMessages } from '@/lib/i18n';

// Why a step or a run stopped, as the engine says it: a phrase of this table (lib/i18n/failures.ts),
// kept with the run and its steps beside its English text (run_steps.error and error_phrase,
// runs.error and error_phrase, the step-failed and run-finished events). Logs, the CLI, exports
// and the JSON API read the English; the run page renders the phrase in the reader's language.
// A value may be a phrase itself (a provider's error inside a step's reason).
export const runFailureMessages = defineMessages({
  en: {
    // A step.
    rulesAfterRepair: "The output did not meet the step's rules after one repair: {problems}",
    rules: "The output did not meet the step's rules: {problems}",
    stepError: 'Stopped by an error: {reason}',
    emptyAnswer: 'The model returned an empty answer.',
    refusal: 'The model declined to answer: {reason}',
    cutOff: 'The answer was cut off at the token limit ({tokens, number} tokens), also when asked again with more room.',
    cutOffShorter: 'The answer was cut off at the token limit ({tokens, number} tokens), also when asked again for a shorter answer.',
    // The model provider (lib/llm/openai.ts); the retry note first, so it is taken off before the rest is matched.
    gaveUp: '{reason} (gave up after {n} attempts)',
    endpointNoAnswer: 'The model endpoint did not answer within {ms} ms.',
    endpointNoFinish: 'The model endpoint did not finish within {ms} ms.',
    endpointAnswered: 'The model endpoint answered {status}',
    endpointUnreachable: 'Could not reach the model endpoint: {reason}',
    callCancelled: 'The model call was cancelled.',
    // A run.
    oneStepFailed: 'Step {steps} failed; {n, plural, one {# step} other {# steps}} could not start. Retry the failed step to continue.',
    stepsFailed: 'Steps {steps} failed; {n, plural, one {# step} other {# steps}} could not start. Retry the failed steps to continue.',
    notStarted: 'Some steps could not start.',
    unexpected: 'An unexpected error: {reason}',
    couldNotStart: 'Could not start: {reason}',
    cancelled: 'Cancelled.',
    workersStopped:
      'The workers executing this run stopped {n, plural, one {# time} other {# times}} before it could finish. Retry it to continue from its finished steps.',
    // A run's budget (lib/debate/limits.ts, lib/debate/budget.ts).
    tokenBudget: 'The run reached its token budget of {budget, number} tokens: {used, number} used.',
    costBudget: 'The run reached its cost budget of ${budget}: ${used} used.',
    promptOverBudget: "The run stopped at its budget: what is left ({left}) is not enough for step {step}'s prompt of about {tokens, number} tokens.",
    usedAllLeft: 'The run stopped at its budget: step {step} used all that was left ({left}).',
    // What a budget has left, inside the two above.
    leftTokens: '{tokens, plural, one {# token} other {# tokens}}',
    leftCost: '${cost}',
    leftBoth: '{tokens, plural, one {# token} other {# tokens}}, ${cost}',
  },
  ko: {
    rulesAfterRepair: '한 번 고쳐 달라고 요청한 뒤에도 출력이 이 단계의 규칙에 맞지 않았습니다: {problems}',
    rules: '출력이 이 단계의 규칙에 맞지 않았습니다: {problems}',
    stepError: '오류로 멈췄습니다: {reason}',
    emptyAnswer: '모델이 빈 답변을 보냈습니다.',
    refusal: '모델이 답변을 거절했습니다: {reason}',
    cutOff: '답변이 토큰 한도({tokens, number}개)에서 잘렸고, 여유를 더 주고 다시 요청해도 마찬가지였습니다.',
    cutOffShorter: '답변이 토큰 한도({tokens, number}개)에서 잘렸고, 더 짧게 다시 요청해도 마찬가지였습니다.',
    gaveUp: '{reason} ({n}회 시도 후 포기)',
    endpointNoAnswer: '모델 엔드포인트가 {ms}ms 안에 응답하지 않았습니다.',
    endpointNoFinish: '모델 엔드포인트가 {ms}ms 안에 답변을 끝내지 못했습니다.',
    endpointAnswered: '모델 엔드포인트가 오류로 응답했습니다: {status}',
    endpointUnreachable: '모델 엔드포인트에 연결할 수 없습니다: {reason}',
    callCancelled: '모델 호출이 취소되었습니다.',
    oneStepFailed: '{steps} 단계가 실패해 {n, number}개 단계를 시작하지 못했습니다. 실패한 단계를 다시 실행하면 이어서 진행합니다.',
    stepsFailed: '{steps} 단계가 실패해 {n, number}개 단계를 시작하지 못했습니다. 실패한 단계들을 다시 실행하면 이어서 진행합니다.',
    notStarted: '시작하지 못한 단계가 있습니다.',
    unexpected: '예기치 않은 오류: {reason}',
    couldNotStart: '시작하지 못했습니다: {reason}',
    cancelled: '취소되었습니다.',
    workersStopped: '이 실행을 맡은 워커가 끝내기 전에 {n}번 중단되었습니다. 다시 시도하면 마친 단계부터 이어서 진행합니다.',
    tokenBudget: '토큰 예산 {budget, number}개에 도달했습니다: {used, number}개 사용.',
    costBudget: '비용 예산 ${budget}에 도달했습니다: ${used} 사용.',
    promptOverBudget: '예산에 도달해 멈췄습니다: 남은 예산({left})으로는 {step} 단계의 약 {tokens, number}토큰짜리 프롬프트를 보낼 수 없습니다.',
    usedAllLeft: '예산에 도달해 멈췄습니다: {step} 단계가 남은 예산({left})을 모두 썼습니다.',
    leftTokens: '{tokens, number}토큰',
    leftCost: '${cost}',
    leftBoth: '{tokens, number}토큰, ${cost}',
  },
});

export type RunFailureKey = keyof typeof runFailureMessages.en;
