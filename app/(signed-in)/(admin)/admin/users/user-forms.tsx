'use client';

import { ActionOutcome } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { ROLE_LABELS, ROLES } from '@/lib/auth/permissions';
import type { Role } from '@/lib/db/schema';
import { changeUserRole, createUser, resetUserPassword, setUserDisabled } from './actions';

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

export function CreateUserForm() {
  const [state, formAction, pending] = useActionForm(createUser);
  return (
    <form action={formAction} className="grid gap-4 md:grid-cols-2" data-testid="create-user-form" noValidate>
      <div className="md:col-span-2">
        <ActionOutcome state={state} success={state?.ok ? `Created ${state.data.email}.` : ''} />
      </div>
      <TextField id="email" label="Email" type="email" autoComplete="off" required errors={fieldErrors(state, 'email')} />
      <TextField id="name" label="Name" autoComplete="off" required errors={fieldErrors(state, 'name')} />
      <SelectField id="role" label="Role" options={ROLE_OPTIONS} defaultValue="rm" errors={fieldErrors(state, 'role')} />
      <TextField
        id="password"
        label="Initial password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 10 characters. Share it with the user over a separate channel."
        errors={fieldErrors(state, 'password')}
      />
      <div className="md:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create user'}
        </Button>
      </div>
    </form>
  );
}

export function UserRowActions({ user, isSelf }: { user: { id: string; email: string; role: Role; disabled: boolean }; isSelf: boolean }) {
  const [roleState, roleAction, rolePending] = useActionForm(changeUserRole);
  const [disableState, disableAction, disablePending] = useActionForm(setUserDisabled);
  const [resetState, resetAction, resetPending] = useActionForm(resetUserPassword);
  if (isSelf) return <span className="text-xs text-zinc-600 dark:text-zinc-400">This is you.</span>;
  const slug = user.email.replace(/[^a-z0-9]+/gi, '-');
  return (
    <div className="space-y-2" data-testid={`user-actions-${slug}`}>
      <form action={roleAction} className="flex items-end gap-2">
        <input type="hidden" name="userId" value={user.id} />
        <div className="w-48">
          <SelectField id={`role-${slug}`} name="role" label="Role" options={ROLE_OPTIONS} defaultValue={user.role} />
        </div>
        <Button type="submit" variant="secondary" size="sm" disabled={rolePending}>
          Change role
        </Button>
      </form>
      <ActionOutcome state={roleState} success="Role changed." />
      <form action={disableAction}>
        <input type="hidden" name="userId" value={user.id} />
        <input type="hidden" name="disabled" value={user.disabled ? 'false' : 'true'} />
        <Button type="submit" variant={user.disabled ? 'secondary' : 'danger'} size="sm" disabled={disablePending}>
          {user.disabled ? 'Enable account' : 'Disable account'}
        </Button>
      </form>
      <ActionOutcome state={disableState} success={user.disabled ? 'Account disabled.' : 'Account enabled.'} />
      <form action={resetAction} className="flex items-end gap-2">
        <input type="hidden" name="userId" value={user.id} />
        <div className="w-48">
          <TextField id={`password-${slug}`} name="password" label="New password" type="password" autoComplete="new-password" errors={fieldErrors(resetState, 'password')} />
        </div>
        <Button type="submit" variant="secondary" size="sm" disabled={resetPending}>
          Reset password
        </Button>
      </form>
      <ActionOutcome state={resetState} success="Password reset; the account is unlocked." />
    </div>
  );
}
