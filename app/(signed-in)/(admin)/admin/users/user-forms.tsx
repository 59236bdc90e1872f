'use client';

import { ActionOutcome, useServerText } from '@/components/forms/action-outcome';
import { fieldErrors, useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { ROLES, type Role } from '@/lib/domain/vocabulary';
import type { Dictionary, Messages } from '@/lib/i18n';
import { useT } from '@/lib/i18n/client';
import { adminMessages } from '@/lib/i18n/messages/admin';
import { roleKey, shellMessages } from '@/lib/i18n/messages/shell';
import { changeUserRole, createUser, resetUserPassword, setUserDisabled, unlockUser } from './actions';

const TABLES = [adminMessages as Messages<Dictionary>];

function useRoleOptions() {
  const shell = useT(shellMessages);
  return ROLES.map((r) => ({ value: r, label: shell(roleKey(r)) }));
}

export function CreateUserForm() {
  const [state, formAction, pending] = useActionForm(createUser);
  const t = useT(adminMessages);
  const text = useServerText(...TABLES);
  const roleOptions = useRoleOptions();
  return (
    <form action={formAction} className="grid grid-cols-1 gap-4 md:grid-cols-2" data-testid="create-user-form" noValidate>
      <div className="md:col-span-2">
        <ActionOutcome state={state} messages={TABLES} success={state?.ok ? t('created', { email: state.data.email }) : ''} />
      </div>
      <TextField id="email" label={t('email')} type="email" autoComplete="off" required errors={fieldErrors(state, 'email', text)} />
      <TextField id="name" label={t('name')} autoComplete="off" required errors={fieldErrors(state, 'name', text)} />
      <SelectField id="role" label={t('role')} options={roleOptions} defaultValue="rm" errors={fieldErrors(state, 'role', text)} />
      <TextField
        id="password"
        label={t('initialPassword')}
        type="password"
        autoComplete="new-password"
        required
        hint={t('passwordHint')}
        errors={fieldErrors(state, 'password', text)}
      />
      <div className="md:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? t('creating') : t('createUserButton')}
        </Button>
      </div>
    </form>
  );
}

export function UserRowActions({ user, isSelf }: { user: { id: string; email: string; role: Role; disabled: boolean; locked: boolean }; isSelf: boolean }) {
  const [roleState, roleAction, rolePending] = useActionForm(changeUserRole);
  const [disableState, disableAction, disablePending] = useActionForm(setUserDisabled);
  const [resetState, resetAction, resetPending] = useActionForm(resetUserPassword);
  const [unlockState, unlockAction, unlockPending] = useActionForm(unlockUser);
  const t = useT(adminMessages);
  const text = useServerText(...TABLES);
  const roleOptions = useRoleOptions();
  if (isSelf) return <span className="text-xs text-zinc-600 dark:text-zinc-400">{t('thisIsYou')}</span>;
  const slug = user.email.replace(/[^a-z0-9]+/gi, '-');
  return (
    <div className="space-y-2" data-testid={`user-actions-${slug}`}>
      <form action={roleAction} className="flex items-end gap-2">
        <input type="hidden" name="userId" value={user.id} />
        <div className="w-48">
          <SelectField id={`role-${slug}`} name="role" label={t('role')} options={roleOptions} defaultValue={user.role} />
        </div>
        <Button type="submit" variant="secondary" size="sm" disabled={rolePending}>
          {t('changeRole')}
        </Button>
      </form>
      <ActionOutcome state={roleState} messages={TABLES} success={t('roleChanged')} />
      <form action={disableAction}>
        <input type="hidden" name="userId" value={user.id} />
        <input type="hidden" name="disabled" value={user.disabled ? 'false' : 'true'} />
        <Button type="submit" variant={user.disabled ? 'secondary' : 'danger'} size="sm" disabled={disablePending}>
          {user.disabled ? t('enableAccount') : t('disableAccount')}
        </Button>
      </form>
      <ActionOutcome state={disableState} messages={TABLES} success={user.disabled ? t('accountDisabled') : t('accountEnabled')} />
      {user.locked || unlockState ? (
        <>
          {user.locked ? (
            <form action={unlockAction}>
              <input type="hidden" name="userId" value={user.id} />
              <Button type="submit" variant="secondary" size="sm" disabled={unlockPending}>
                {t('unlockAccount')}
              </Button>
            </form>
          ) : null}
          <ActionOutcome state={unlockState} messages={TABLES} success={t('accountUnlocked')} />
        </>
      ) : null}
      <form action={resetAction} className="flex items-end gap-2">
        <input type="hidden" name="userId" value={user.id} />
        <div className="w-48">
          <TextField
            id={`password-${slug}`}
            name="password"
            label={t('newPassword')}
            type="password"
            autoComplete="new-password"
            errors={fieldErrors(resetState, 'password', text)}
          />
        </div>
        <Button type="submit" variant="secondary" size="sm" disabled={resetPending}>
          {t('resetPassword')}
        </Button>
      </form>
      <ActionOutcome state={resetState} messages={TABLES} success={t('passwordReset')} />
    </div>
  );
}
