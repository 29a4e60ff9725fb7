/** A modal question with a confirm and a cancel button (the native <dialog>: focus trapped, Esc cancels). */
import { useEffect, useRef } from 'react';

export function ConfirmDialog(props: { title: string; body: string; confirm: string; onConfirm: () => void; onCancel: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="confirm" aria-labelledby="confirm-title" onCancel={props.onCancel} onClose={props.onCancel}>
      <h2 id="confirm-title">{props.title}</h2>
      <p>{props.body}</p>
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel} autoFocus>
          Cancel
        </button>
        <button type="button" className="danger" onClick={props.onConfirm}>
          {props.confirm}
        </button>
      </div>
    </dialog>
  );
}
