// Hemorrhage (catastrophic bleeding): yes / no first; the details only when there is
// bleeding (or when details were recorded before a "No", so nothing recorded is hidden).
// A tourniquet brings up its application time with a one-tap Now.
import { tourniquetApplied } from '@rescuelog/sync-protocol/cases/completion';
import { isEmptyCaseValue } from '@rescuelog/sync-protocol/cases/fields';
import {
  CaseChoice,
  CaseMultiSelect,
  CaseSection,
  CaseTextField,
  CaseTimeField,
  CaseYesNo,
} from '../components/case-controls';
import { useCaseForm } from '../components/case-form';
import {
  HEMORRHAGE_CONTROL,
  HEMORRHAGE_INTERVENTIONS,
  HEMORRHAGE_LOCATIONS,
  HEMORRHAGE_SEVERITIES,
  HEMORRHAGE_TYPES,
  OTHER,
  withRecorded,
} from './primary-survey-options';
import { formStyles } from '@/components/record-form/form-styles';
import { Callout } from '@/components/ui/callout';
import styles from './primary-survey.module.css';

const DETAIL_FIELDS = [
  'hemorrhagingLocation',
  'hemorrhagingLocationOther',
  'hemorrhagingType',
  'hemorrhagingSeverity',
  'hemorrhagingControlStatus',
  'hemorrhagingInterventions',
  'hemorrhagingInterventionOther',
  'tourniquetApplicationTime',
] as const;

export function HemorrhageSection() {
  const { record } = useCaseForm();
  const active = record.hemorrhagingActive ?? null;
  const hasDetails = DETAIL_FIELDS.some((f) => !isEmptyCaseValue(record[f]));
  const showDetails = active === true || hasDetails;
  const interventions = record.hemorrhagingInterventions ?? [];
  const showTourniquetTime =
    tourniquetApplied(record) || !isEmptyCaseValue(record.tourniquetApplicationTime);
  return (
    <CaseSection
      title="Hemorrhage"
      id="hemorrhage"
      description="Catastrophic bleeding: find it and control it before the airway."
    >
      <CaseYesNo field="hemorrhagingActive" label="Catastrophic bleeding" />
      {active !== true && hasDetails ? (
        <Callout as="p" tone="warning" strong className={formStyles.wide} role="note">
          Bleeding details below were recorded earlier. Clear them if they no longer apply.
        </Callout>
      ) : null}
      {showDetails ? (
        <>
          <CaseChoice
            field="hemorrhagingLocation"
            label="Location"
            options={HEMORRHAGE_LOCATIONS}
          />
          {record.hemorrhagingLocation === OTHER ||
          !isEmptyCaseValue(record.hemorrhagingLocationOther) ? (
            <CaseTextField
              field="hemorrhagingLocationOther"
              label="Other location"
              placeholder="Where is the bleeding?"
            />
          ) : null}
          <CaseChoice
            field="hemorrhagingType"
            label="Type"
            options={HEMORRHAGE_TYPES}
            optionsClassName={styles.oneColumnOnPhone}
          />
          <CaseChoice
            field="hemorrhagingSeverity"
            label="Severity"
            options={HEMORRHAGE_SEVERITIES}
            optionsClassName={styles.oneColumnOnPhone}
          />
          <CaseChoice
            field="hemorrhagingControlStatus"
            label="Control status"
            options={HEMORRHAGE_CONTROL}
            optionsClassName={styles.oneColumnOnPhone}
          />
          <CaseMultiSelect
            field="hemorrhagingInterventions"
            label="Interventions (tap all that apply)"
            options={withRecorded(HEMORRHAGE_INTERVENTIONS, interventions)}
            optionsClassName={styles.oneColumnOnPhone}
          />
          {interventions.includes(OTHER) ||
          !isEmptyCaseValue(record.hemorrhagingInterventionOther) ? (
            <CaseTextField field="hemorrhagingInterventionOther" label="Other intervention" />
          ) : null}
          {showTourniquetTime ? (
            <div className={`${formStyles.wide} ${styles.tourniquet}`}>
              <CaseTimeField
                field="tourniquetApplicationTime"
                label="Tourniquet applied at"
                hint="Write the same time on the tourniquet or the patient's forehead."
              />
            </div>
          ) : null}
        </>
      ) : null}
    </CaseSection>
  );
}
