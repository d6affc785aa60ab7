import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { uploadFile } from '@/lib/upload-file';

/** The logo printed on reports: an uploaded PNG, JPEG or WebP image, or none. */
export function LogoField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (url: string) => void;
  error?: string | undefined;
}) {
  const id = useId();
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });
  const shown = state.error ?? error;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Logo on reports
      </label>
      {value ? <img src={value} alt="Current logo" className="settings-logo" /> : null}
      <input
        id={id}
        type="file"
        className="file-input"
        accept="image/png,image/jpeg,image/webp"
        disabled={state.busy}
        aria-describedby={shown ? `${id}-error` : undefined}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (!file) return;
          setState({ busy: true, error: null });
          uploadFile(file, () => undefined).then(
            (url) => {
              setState({ busy: false, error: null });
              onChange(url);
            },
            (err: unknown) => setState({ busy: false, error: errorMessage(err) }),
          );
        }}
      />
      {value ? (
        <button type="button" className="button button--secondary" onClick={() => onChange('')}>
          Remove logo
        </button>
      ) : null}
      {state.busy ? <p className="field__hint">Uploading…</p> : null}
      {shown ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
