// Incident type as big chips (one tap with gloves), plus a description when it is "Other".
// Stored as the chip's label, or 'Other: <description>'.
import { useState } from 'react';
import { ChoiceGroup } from '@/components/record-form/choice-group';
import { useAutosaveDraft } from '@/components/record-form/use-autosave-draft';
import { useShownValue } from '@/components/record-form/use-shown-value';
import { caseFieldId, useCaseForm } from '../components/case-form';
import {
  INCIDENT_TYPE_OPTIONS,
  OTHER_INCIDENT_TYPE,
  otherIncidentType,
  readIncidentType,
} from './options';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './patient-details.module.css';

export function IncidentTypeChoice({ required }: { required: boolean }) {
  const { record, readOnly, save } = useCaseForm();
  const [error, setError] = useState<string | undefined>();
  const stored = readIncidentType(record.incidentType);
  // The chip shows at once; the description box follows the stored text.
  const { shown: choice, expect, settle } = useShownValue(stored.choice);
  const otherText = stored.otherText;
  const other = useAutosaveDraft(
    otherText,
    async (text) => (await save({ incidentType: otherIncidentType(text) })).incidentType,
  );
  const otherId = `${caseFieldId('incidentType')}-description`;

  return (
    <div className={`${formStyles.wide} ${styles.incidentType}`}>
      <ChoiceGroup
        name={caseFieldId('incidentType')}
        legend="Incident type"
        options={INCIDENT_TYPE_OPTIONS}
        value={choice}
        readOnly={readOnly}
        required={required}
        error={error ?? other.error}
        onChange={(next) => {
          const value = next === OTHER_INCIDENT_TYPE ? otherIncidentType(other.draft) : next;
          const saved = expect(next);
          // A description still waiting for its pause is saved first, so it cannot land
          // after (and overwrite) the chip just tapped.
          void other
            .flush()
            .then(() => save({ incidentType: value }))
            .then((problems) => {
              setError(problems.incidentType);
              if (problems.incidentType) settle();
            })
            .finally(saved);
        }}
      />
      {choice === OTHER_INCIDENT_TYPE ? (
        <div className={`${formStyles.field} incident-type__other`}>
          <label className={formStyles.label} htmlFor={otherId}>
            Describe the incident type
          </label>
          <input
            id={otherId}
            className={`input ${formStyles.textInput}`}
            type="text"
            autoComplete="off"
            maxLength={400}
            value={other.draft}
            readOnly={readOnly}
            placeholder="e.g. Snake bite"
            onChange={(e) => other.change(e.target.value)}
            onBlur={() => void other.flush()}
          />
        </div>
      ) : null}
    </div>
  );
}
