// /internal-protocols/new and /internal-protocols/{sopId}/edit: an administrator writes an SOP
// or its next version. Each save publishes a new version; nothing earlier is overwritten.
import {
  SOP_CATEGORIES,
  sopFieldsSchema,
  type SopFields,
} from '@rescuelog/sync-protocol/reference/sop';
import { Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { PageHeader } from '@/components/ui/page-header';
import { SelectField, TextAreaField, TextField } from '@/components/ui/field';
import { SopBody } from './sop-body';
import { publishSop, type Sop } from '../sop-data';
import styles from './sops.module.css';

type Draft = { title: string; category: string; body: string };
type Problems = Partial<Record<keyof Draft, string>>;

const FORMAT_HINT =
  'Formatting: # Heading, - list item, 1. numbered item, **bold**, [text](https://…). No HTML.';

export function SopEditor({ sop }: { sop?: Sop }) {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>({
    title: sop?.latest.title ?? '',
    category: sop?.latest.category ?? '',
    body: sop?.latest.body ?? '',
  });
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const set = (field: keyof Draft) => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = sopFieldsSchema.safeParse(draft);
    if (!parsed.success) {
      const next: Problems = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Draft;
        next[field] ??= issue.message;
      }
      setProblems(next);
      return;
    }
    setProblems({});
    setSaving(true);
    publishSop(parsed.data as SopFields, sop?.sopId)
      .then((sopId) => navigate(`/internal-protocols/${sopId}`))
      .catch((err: unknown) => {
        setFailure(err instanceof Error ? err.message : String(err));
        setSaving(false);
      });
  };

  const back = sop
    ? { to: `/internal-protocols/${sop.sopId}`, label: 'Back to the SOP' }
    : { to: '/internal-protocols', label: 'Back to Internal SOPs' };

  return (
    <>
      <PageHeader title={sop ? `New version of ${sop.latest.title}` : 'New SOP'} back={back} />
      <main className={`page ${styles.page}`}>
        <form className="form" noValidate onSubmit={submit}>
          <TextField
            label="Title"
            required
            value={draft.title}
            maxLength={120}
            error={problems.title}
            onChange={(e) => set('title')(e.target.value)}
          />
          <SelectField
            label="Category"
            required
            value={draft.category}
            error={problems.category}
            onChange={(e) => set('category')(e.target.value)}
          >
            <option value="">Select a category</option>
            {SOP_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </SelectField>
          <TextAreaField
            label="Text"
            required
            rows={14}
            value={draft.body}
            hint={FORMAT_HINT}
            error={problems.body}
            onChange={(e) => set('body')(e.target.value)}
          />
          {failure ? (
            <p className="field__error" role="alert">
              {failure}
            </p>
          ) : null}
          <button type="submit" className="button button--primary button--block" disabled={saving}>
            <Send aria-hidden="true" size={20} />
            {sop ? `Publish version ${sop.latest.revision + 1}` : 'Publish SOP'}
          </button>
        </form>
        {draft.body.trim() && !problems.body ? (
          <section aria-labelledby="sop-preview" className={`card ${styles.article}`}>
            <h2 id="sop-preview" className="section-title">
              Preview
            </h2>
            <SopBody body={draft.body} />
          </section>
        ) : null}
      </main>
    </>
  );
}
