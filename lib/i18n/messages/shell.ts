import { defineMessages } from '@/lib/i18n';

// The signed-in frame, the navigation, role names and the error pages.
export const shellMessages = defineMessages({
  en: {
    signOut: 'Sign out',
    demoAccount: 'Demo account',
    language: 'Interface language',
    skipToContent: 'Skip to content',
    mainNav: 'Main',
    nav_cases: 'Cases',
    nav_companies: 'Companies',
    nav_review: 'Review',
    nav_ratings: 'My ratings',
    nav_users: 'Users',
    nav_settings: 'Settings',
    nav_studies: 'Studies',
    nav_audit: 'Audit log',
    nav_holds: 'Legal holds',
    role_rm: 'Relationship manager',
    role_committee: 'Credit committee',
    role_evaluator: 'Evaluator',
    role_admin: 'Administrator',
    description: 'Structured multi-agent debates over a borrower’s non-financial evidence.',
    errorTitle: 'Something went wrong',
    errorBody: 'The page could not be shown. Try again; if it keeps happening, give your administrator this reference:',
    errorNoReference: 'none',
    tryAgain: 'Try again',
    forbiddenTitle: 'You don’t have access to this page',
    forbiddenBody: 'Your role does not include it. If you need it, ask an administrator.',
    notFoundTitle: 'Page not found',
    goHome: 'Go to your home page',
    metaCase: 'Case',
    metaRun: 'Run',
  },
  ko: {
    signOut: '로그아웃',
    demoAccount: '데모 계정',
    language: '화면 언어',
    skipToContent: '본문으로 건너뛰기',
    mainNav: '주 메뉴',
    nav_cases: '심사 건',
    nav_companies: '기업',
    nav_review: '심의',
    nav_ratings: '내 평가',
    nav_users: '사용자',
    nav_settings: '설정',
    nav_studies: '평가 연구',
    nav_audit: '감사 로그',
    nav_holds: '법적 보존',
    role_rm: '기업금융 RM',
    role_committee: '여신심사위원회',
    role_evaluator: '평가자',
    role_admin: '관리자',
    description: '차주의 비재무 정보를 다중 에이전트 구조화 토론으로 검토합니다.',
    errorTitle: '문제가 발생했습니다',
    errorBody: '페이지를 표시하지 못했습니다. 다시 시도해 보시고, 문제가 계속되면 관리자에게 다음 참조 번호를 알려 주세요:',
    errorNoReference: '없음',
    tryAgain: '다시 시도',
    forbiddenTitle: '이 페이지에 접근할 권한이 없습니다',
    forbiddenBody: '현재 역할에는 이 페이지가 포함되어 있지 않습니다. 필요하면 관리자에게 요청하세요.',
    notFoundTitle: '페이지를 찾을 수 없습니다',
    goHome: '내 홈으로 가기',
    metaCase: '심사 건',
    metaRun: '분석 실행',
  },
});

type ShellKey = keyof typeof shellMessages.en;

/** The navigation's label per href (NAV in lib/auth/permissions.ts keeps English labels). */
export const NAV_KEYS: Record<string, ShellKey> = {
  '/cases': 'nav_cases',
  '/companies': 'nav_companies',
  '/review': 'nav_review',
  '/ratings': 'nav_ratings',
  '/admin/users': 'nav_users',
  '/admin/settings': 'nav_settings',
  '/admin/studies': 'nav_studies',
  '/admin/audit': 'nav_audit',
  '/admin/holds': 'nav_holds',
};

export function roleKey(role: 'rm' | 'committee' | 'evaluator' | 'admin'): ShellKey {
  return `role_${role}`;
}
