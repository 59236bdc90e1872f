import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

const CONTROL =
  'block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 placeholder:text-zinc-500 aria-[invalid=true]:border-red-600 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400';

type FieldShell = { id: string; label: string; errors?: string[]; hint?: ReactNode };

/** A label, a control, and its hint and errors wired up with aria-describedby. */
function Shell({ id, label, errors, hint, children }: FieldShell & { children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {hint}
        </p>
      ) : null}
      {errors?.length ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {errors.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, errors?: string[], hint?: ReactNode) {
  return [hint ? `${id}-hint` : null, errors?.length ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

export function TextField({ id, label, errors, hint, ...props }: FieldShell & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Shell id={id} label={label} errors={errors} hint={hint}>
      <input
        id={id}
        name={id}
        className={CONTROL}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, errors, hint)}
        {...props}
      />
    </Shell>
  );
}

export function SelectField({
  id,
  label,
  errors,
  hint,
  options,
  ...props
}: FieldShell & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  return (
    <Shell id={id} label={label} errors={errors} hint={hint}>
      <select
        id={id}
        name={id}
        className={CONTROL}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, errors, hint)}
        {...props}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Shell>
  );
}

export function TextAreaField({ id, label, errors, hint, ...props }: FieldShell & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Shell id={id} label={label} errors={errors} hint={hint}>
      <textarea
        id={id}
        rows={3}
        className={CONTROL}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, errors, hint)}
        {...props}
      />
    </Shell>
  );
}
