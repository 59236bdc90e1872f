'use client';

import { useActionState, useState } from 'react';
import { useServerText } from '@/components/forms/action-outcome';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { authMessages } from '@/lib/i18n/messages/auth';
import { signInAction } from './actions';

type State = Awaited<ReturnType<typeof signInAction>> | null;

export function LoginForm({ callbackUrl }: { callbackUrl?: string }) {
  // React resets the form after each attempt; keep the email so only the password is retyped.
  const [email, setEmail] = useState('');
  const t = useT(authMessages);
  // The message comes in the reader's language; field errors are keys of the sign-in table.
  const text = useServerText(authMessages as Messages<Dictionary>);
  const [state, formAction, pending] = useActionState<State, FormData>((_prev, form) => {
    setEmail(String(form.get('email') ?? ''));
    return signInAction(form);
  }, null);
  const failed = state && !state.ok ? state : null;
  return (
    <form action={formAction} className="space-y-4" noValidate data-testid="login-form">
      {failed ? (
        <Alert id="login-error">
          <span data-testid="login-error">{text(failed.message)}</span>
        </Alert>
      ) : null}
      <TextField
        id="email"
        label={t('email')}
        type="email"
        autoComplete="username"
        required
        errors={failed?.fieldErrors?.email?.map(text)}
        defaultValue={email}
        key={email}
      />
      <TextField
        id="password"
        label={t('password')}
        type="password"
        autoComplete="current-password"
        required
        errors={failed?.fieldErrors?.password?.map(text)}
      />
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      <Button type="submit" className="w-full" disabled={pending} data-testid="login-submit">
        {pending ? t('signingIn') : t('signIn')}
      </Button>
    </form>
  );
}
