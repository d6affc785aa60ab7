import {
  QUALIFICATIONS,
  profileUpdateSchema,
  type User,
} from '@rescuelog/sync-protocol/accounts/users';
import { useState, type FormEvent } from 'react';
import { SelectField, TextField } from '@/components/ui/field';
import { errorMessage, parseErrorBody } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useUpdateProfile } from '../api/profile';

const FIELDS = [
  ['fullName', 'Full name'],
  ['callSign', 'Call sign'],
  ['contactNumber', 'Contact number'],
  ['idNumber', 'ID number'],
  ['nextOfKinName', 'Next of kin name'],
  ['nextOfKinRelationship', 'Next of kin relationship'],
  ['nextOfKinContact', 'Next of kin contact'],
] as const;
type Key = (typeof FIELDS)[number][0] | 'qualifications' | 'qualificationsOther';
type Values = Record<Key, string>;

function initial(user: User): Values {
  return {
    fullName: user.fullName,
    callSign: user.callSign ?? '',
    contactNumber: user.contactNumber ?? '',
    idNumber: user.idNumber ?? '',
    qualifications: user.qualifications ?? '',
    qualificationsOther: user.qualificationsOther ?? '',
    nextOfKinName: user.nextOfKinName ?? '',
    nextOfKinRelationship: user.nextOfKinRelationship ?? '',
    nextOfKinContact: user.nextOfKinContact ?? '',
  };
}

/** Spec §3 profile fields with the §5 user-update rules (the server's own schema). */
export function DetailsForm({ user }: { user: User }) {
  const [values, setValues] = useState<Values>(() => initial(user));
  const [errors, setErrors] = useState<Partial<Record<Key | 'form', string>>>({});
  const update = useUpdateProfile();
  const set = (key: Key) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    const input = {
      ...values,
      qualifications: values.qualifications === '' ? undefined : values.qualifications,
      qualificationsOther: values.qualifications === 'Other' ? values.qualificationsOther : '',
    };
    const parsed = profileUpdateSchema.safeParse(input);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as Key | undefined;
        if (key && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: () => toast({ title: 'Profile saved' }),
      onError: (error) => {
        const fieldErrors = parseErrorBody(error)?.fieldErrors ?? {};
        const [key, messages] = Object.entries(fieldErrors)[0] ?? [];
        setErrors(key && key in values ? { [key]: messages?.[0] } : { form: errorMessage(error) });
      },
    });
  }

  return (
    <form className="form" noValidate onSubmit={submit} aria-labelledby="details-title">
      <h2 id="details-title" className="card__title">
        Your details
      </h2>
      {FIELDS.slice(0, 4).map(([key, label]) => (
        <TextField
          key={key}
          label={label}
          required={key === 'fullName'}
          value={values[key]}
          onChange={set(key)}
          error={errors[key]}
          autoComplete={key === 'fullName' ? 'name' : key === 'contactNumber' ? 'tel' : 'off'}
        />
      ))}
      <SelectField
        label="Qualifications"
        value={values.qualifications}
        onChange={set('qualifications')}
        error={errors.qualifications}
      >
        {values.qualifications === '' ? <option value="">Not given</option> : null}
        {QUALIFICATIONS.map((q) => (
          <option key={q} value={q}>
            {q}
          </option>
        ))}
      </SelectField>
      {values.qualifications === 'Other' ? (
        <TextField
          label="Other qualifications"
          required
          value={values.qualificationsOther}
          onChange={set('qualificationsOther')}
          error={errors.qualificationsOther}
        />
      ) : null}
      {FIELDS.slice(4).map(([key, label]) => (
        <TextField
          key={key}
          label={label}
          value={values[key]}
          onChange={set(key)}
          error={errors[key]}
        />
      ))}
      {errors.form ? (
        <p className="field__error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <button type="submit" className="button button--primary" disabled={update.isPending}>
        {update.isPending ? 'Saving...' : 'Save details'}
      </button>
    </form>
  );
}
