'use client';

import { useActionState, useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Alert } from '@/components/ui/layout';
import { signInAction } from './actions';

type State = Awaited<ReturnType<typeof signInAction>> | null;

export function LoginForm({ callbackUrl }: { callbackUrl?: string }) {
  // React resets the form after each attempt; keep the email so only the password is retyped.
  const [email, setEmail] = useState('');
  const [state, formAction, pending] = useActionState<State, FormData>((_prev, form) => {
    setEmail(String(form.get('email') ?? ''));
    return signInAction(form);
  }, null);
  const failed = state && !state.ok ? state : null;
  return (
    <form action={formAction} className="space-y-4" noValidate data-testid="login-form">
      {failed ? (
        <Alert id="login-error">
          <span data-testid="login-error">{failed.message}</span>
        </Alert>
      ) : null}
      <TextField
        id="email"
        label="Email"
        type="email"
        autoComplete="username"
        required
        errors={failed?.fieldErrors?.email}
        defaultValue={email}
        key={email}
      />
      <TextField id="password" label="Password" type="password" autoComplete="current-password" required errors={failed?.fieldErrors?.password} />
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      <Button type="submit" className="w-full" disabled={pending} data-testid="login-submit">
        {pending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
