'use client';
// A pause before an irreversible step. Put it inside the form whose action it confirms: the
// trigger opens a native modal <dialog> (focus moves in, the rest of the page is inert, Escape
// cancels), the Confirm button is the form's submit button, and any `children` (a cover note,
// say) are fields of that same form, sent with it. Cancel, Escape or a submission close the
// dialog, and focus goes back to the trigger. On opening, the browser focuses the dialog's first
// control: the first field of `children`, else Cancel (the safe choice).
//
//   <form action={formAction}>
//     …fields…
//     <ConfirmDialog triggerLabel="Submit" title="Submit to the committee?" irreversible="…"
//       confirmLabel="Submit" cancelLabel="Cancel" pending={pending}>
//       <TextAreaField id="note" … />
//     </ConfirmDialog>
//   </form>
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from '@/components/ui/button';

export type ConfirmDialogProps = {
  /** The trigger button's text (shown while not pending). */
  triggerLabel: ReactNode;
  /** The trigger's text while the form's action runs; the trigger stays focusable but inactive. */
  pendingLabel?: ReactNode;
  pending?: boolean;
  /** The trigger cannot be used (e.g. nothing to submit yet). */
  disabled?: boolean;
  triggerVariant?: ButtonProps['variant'];
  triggerTestId?: string;
  /** The dialog's heading, e.g. "Submit this case to the committee?" */
  title: string;
  /** One sentence saying what cannot be undone. */
  irreversible: ReactNode;
  /** More about the step (e.g. the chosen outcome), shown under the sentence. */
  summary?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  confirmVariant?: ButtonProps['variant'];
  confirmTestId?: string;
  /**
   * Before opening, the form's own fields (outside the dialog) are checked with the browser's
   * constraint validation, so a missing required field is shown on the page and not behind
   * the modal. On by default.
   */
  checkFormFirst?: boolean;
  /** Extra fields inside the dialog, submitted with the confirmation. */
  children?: ReactNode;
};

export function ConfirmDialog({
  triggerLabel,
  pendingLabel,
  pending = false,
  disabled = false,
  triggerVariant = 'primary',
  triggerTestId,
  title,
  irreversible,
  summary,
  confirmLabel,
  cancelLabel,
  confirmVariant = 'primary',
  confirmTestId,
  checkFormFirst = true,
  children,
}: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  const titleId = `${id}-title`;
  const textId = `${id}-text`;
  // The Confirm button is the form's submit button only while the dialog is open: disabled
  // otherwise, so Enter in a field of the form (implicit submission) cannot skip the pause.
  const [isOpen, setIsOpen] = useState(false);

  const close = useCallback(() => {
    const dialog = dialogRef.current;
    if (dialog?.open) dialog.close();
  }, []);

  // Focus goes back to the trigger whenever the dialog closes (Cancel, Escape, a submission).
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const onClose = () => {
      setIsOpen(false);
      triggerRef.current?.focus();
    };
    dialog.addEventListener('close', onClose);
    // A submission that passed the browser's checks closes the dialog; the trigger shows progress.
    const form = dialog.closest('form');
    form?.addEventListener('submit', close);
    return () => {
      dialog.removeEventListener('close', onClose);
      form?.removeEventListener('submit', close);
    };
  }, [close]);

  const open = () => {
    if (pending || disabled) return;
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    const form = dialog.closest('form');
    if (checkFormFirst && form) {
      const invalid = [...form.elements].find(
        (el): el is HTMLInputElement => !dialog.contains(el) && !el.contains(dialog) && 'checkValidity' in el && !(el as HTMLInputElement).checkValidity(),
      );
      if (invalid) {
        invalid.reportValidity();
        return;
      }
    }
    dialog.showModal();
    setIsOpen(true);
  };

  return (
    <>
      <Button
        ref={triggerRef}
        variant={triggerVariant}
        onClick={open}
        disabled={disabled}
        aria-disabled={pending || undefined}
        aria-haspopup="dialog"
        data-testid={triggerTestId}
      >
        {pending && pendingLabel ? pendingLabel : triggerLabel}
      </Button>
      <dialog
        ref={dialogRef}
        aria-labelledby={titleId}
        aria-describedby={textId}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-zinc-300 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      >
        <div className="space-y-3 p-5">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          <p id={textId} className="text-sm text-zinc-700 dark:text-zinc-300">
            {irreversible}
          </p>
          {summary ? <div className="text-sm">{summary}</div> : null}
          {children}
          <div className="flex flex-wrap justify-end gap-2 pt-2">
            <Button variant="secondary" onClick={close}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant={confirmVariant} disabled={pending || !isOpen} data-testid={confirmTestId}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
