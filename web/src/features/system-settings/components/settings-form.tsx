import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import {
  SETTING_KEYS,
  SETTING_LABELS,
  settingsPatchSchema,
  type SettingKey,
  type SettingsPatch,
  type SystemSettings,
} from '@rescuelog/sync-protocol/settings';
import { useState, type FormEvent, type ReactNode } from 'react';
import { SelectField, TextField } from '@/components/ui/field';
import { errorMessage, parseErrorBody } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useSaveSettings } from '../api/system-settings';
import { LogoField } from './logo-field';

type Draft = Record<SettingKey, string>;
type Errors = Partial<Record<SettingKey | 'form', string>>;

const NUMBER_KEYS = [
  'sessionInactivityMinutes',
  'sessionAbsoluteHours',
  'loginAttemptsPerEmail',
  'loginAttemptsPerIp',
  'loginWindowMinutes',
  'registrationsPerIpPerHour',
  'cprMetronomeRate',
  'cprAdrenalineIntervalMinutes',
  'cprDefaultShockEnergyJoules',
  'uploadMaxFileMiB',
  'uploadMaxCertifications',
  'dataRetentionYears',
  'inventoryExpiryWindowDays',
] as const satisfies readonly SettingKey[];
type NumberKey = (typeof NUMBER_KEYS)[number];
const isNumberKey = (k: SettingKey): k is NumberKey =>
  (NUMBER_KEYS as readonly string[]).includes(k);

function toDraft(s: SystemSettings): Draft {
  const draft = {} as Draft;
  for (const key of SETTING_KEYS) {
    const value = s[key];
    draft[key] = value === null ? '' : String(value);
  }
  return draft;
}

/** The draft as typed values; '' is null where a setting allows it. */
function fromDraft(draft: Draft): Record<SettingKey, unknown> {
  const out = {} as Record<SettingKey, unknown>;
  for (const key of SETTING_KEYS) {
    const text = draft[key];
    if (isNumberKey(key)) out[key] = text.trim() === '' ? Number.NaN : Number(text);
    else if (key === 'defaultRoleId') out[key] = text === '' ? null : Number(text);
    else if (key === 'firstUserAdmin') out[key] = text === '' ? null : text === 'true';
    else if (key === 'organisationLogoUrl') out[key] = text === '' ? null : text;
    else out[key] = text;
  }
  return out;
}

function timeZones(current: string): string[] {
  const supported =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return supported.includes(current) ? supported : [current, ...supported];
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="card settings-section">
      <legend className="card__title">{title}</legend>
      {children}
    </fieldset>
  );
}

export function SettingsForm({ settings, roles }: { settings: SystemSettings; roles: Role[] }) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveSettings();

  const set = (key: SettingKey) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setDraft((d) => ({ ...d, [key]: value }));
  };
  const number = (key: NumberKey) => (
    <TextField
      key={key}
      label={SETTING_LABELS[key]}
      type="number"
      inputMode="numeric"
      value={draft[key]}
      onChange={set(key)}
      error={errors[key]}
    />
  );

  function submit(e: FormEvent) {
    e.preventDefault();
    const typed = fromDraft(draft);
    const saved = fromDraft(toDraft(settings));
    const changes = Object.fromEntries(
      SETTING_KEYS.filter((k) => JSON.stringify(typed[k]) !== JSON.stringify(saved[k])).map((k) => [
        k,
        typed[k],
      ]),
    );
    if (Object.keys(changes).length === 0) {
      setErrors({ form: 'Nothing to change' });
      return;
    }
    const parsed = settingsPatchSchema.safeParse(changes);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = (issue.path[0] ?? 'form') as SettingKey | 'form';
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data as SettingsPatch, {
      onSuccess: ({ settings: next }) => {
        setDraft(toDraft(next));
        toast({ title: 'Settings saved' });
      },
      onError: (error) => {
        const body = parseErrorBody(error);
        const next: Errors = {};
        for (const [key, messages] of Object.entries(body?.fieldErrors ?? {}))
          next[(key === '_' ? 'form' : key) as SettingKey] = messages[0];
        if (Object.keys(next).length === 0) next.form = errorMessage(error);
        setErrors(next);
      },
    });
  }

  return (
    <form className="form" noValidate onSubmit={submit} aria-label="System settings">
      <Section title="Organisation">
        <TextField
          label={SETTING_LABELS.organisationName}
          required
          value={draft.organisationName}
          onChange={set('organisationName')}
          error={errors.organisationName}
          hint="Printed on reports and handovers."
        />
        <LogoField
          value={draft.organisationLogoUrl}
          onChange={(url) => setDraft((d) => ({ ...d, organisationLogoUrl: url }))}
          error={errors.organisationLogoUrl}
        />
        <SelectField
          label={SETTING_LABELS.serviceTimeZone}
          value={draft.serviceTimeZone}
          onChange={set('serviceTimeZone')}
          error={errors.serviceTimeZone}
        >
          {timeZones(draft.serviceTimeZone).map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </SelectField>
        {number('dataRetentionYears')}
      </Section>
      <Section title="Members">
        <SelectField
          label={SETTING_LABELS.defaultRoleId}
          value={draft.defaultRoleId}
          onChange={set('defaultRoleId')}
          error={errors.defaultRoleId}
        >
          <option value="">Responder (built in)</option>
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {r.displayName}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={SETTING_LABELS.firstUserAdmin}
          value={draft.firstUserAdmin}
          onChange={set('firstUserAdmin')}
          error={errors.firstUserAdmin}
        >
          <option value="">As the server is configured (FIRST_USER_ADMIN)</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </SelectField>
      </Section>
      <Section title="Sign-in and sessions">
        {number('sessionInactivityMinutes')}
        {number('sessionAbsoluteHours')}
        {number('loginAttemptsPerEmail')}
        {number('loginAttemptsPerIp')}
        {number('loginWindowMinutes')}
        {number('registrationsPerIpPerHour')}
      </Section>
      <Section title="CPR defaults">
        {number('cprMetronomeRate')}
        {number('cprAdrenalineIntervalMinutes')}
        {number('cprDefaultShockEnergyJoules')}
      </Section>
      <Section title="Uploads">
        {number('uploadMaxFileMiB')}
        {number('uploadMaxCertifications')}
      </Section>
      <Section title="Medical inventory">{number('inventoryExpiryWindowDays')}</Section>
      {errors.form ? (
        <p className="field__error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <button type="submit" className="button button--primary" disabled={save.isPending}>
        {save.isPending ? 'Saving...' : 'Save settings'}
      </button>
    </form>
  );
}
