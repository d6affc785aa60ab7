// Primary survey (domain.md step 2) in the dashboard's quick-reference order: Hazard, Hello,
// Help, Hemorrhage, Airway, Breathing, Circulation, then GCS, pupils and triage. Every
// answer is one tap and saves at once; numbers take the numeric keypad or − / +.
import { AlertTriangle } from 'lucide-react';
import { CaseChoice, CaseNumberField, CaseSection, CaseYesNo } from '../components/case-controls';
import { useCaseForm } from '../components/case-form';
import { VitalRangeNote } from '../vitals/vital-range-note';
import { GcsPicker } from './gcs-picker';
import { HemorrhageSection } from './hemorrhage-section';
import {
  AIRWAY_STATUSES,
  AVPU_OPTIONS,
  BREATHING_STATUSES,
  CIRCULATION_STATUSES,
  PUPIL_OPTIONS,
  withRecordedChoice,
} from './primary-survey-options';
import { TriageChoice } from './triage-choice';
import { formStyles } from '@/components/record-form/form-styles';
import { Callout } from '@/components/ui/callout';

export function PrimarySurveyForm() {
  const { record } = useCaseForm();
  const age = record.approximateAge ?? null;
  const rr = record.respiratoryRate;
  const crt = record.capillaryRefillTime;
  return (
    <div className={formStyles.survey}>
      <CaseSection
        title="Hazard"
        id="hazard"
        description="Scene safety: yours, your crew's, bystanders', then the patient's."
      >
        <CaseYesNo field="sceneSafe" label="Scene safety" yes="Safe" no="Not safe" />
        {record.sceneSafe === false ? (
          <Callout as="p" tone="danger" strong className={formStyles.wide} role="alert">
            <AlertTriangle size={20} aria-hidden="true" /> Scene not safe: do not approach. Make it
            safe or wait for the right service.
          </Callout>
        ) : null}
      </CaseSection>

      <CaseSection
        title="Hello"
        id="hello"
        description="Responsiveness: speak to the patient, then a painful stimulus if there is no answer."
      >
        <CaseChoice field="avpu" label="AVPU" options={AVPU_OPTIONS} required columns={2} />
      </CaseSection>

      <CaseSection title="Help" id="help">
        <CaseYesNo
          field="helpCalled"
          label="Help called"
          hint="Backup, advanced life support or other emergency services."
        />
      </CaseSection>

      <HemorrhageSection />

      <CaseSection title="Airway" id="airway">
        <CaseChoice
          field="airwayStatus"
          label="Airway status"
          options={withRecordedChoice(AIRWAY_STATUSES, record.airwayStatus)}
        />
      </CaseSection>

      <CaseSection title="Breathing" id="breathing">
        <CaseChoice
          field="breathingStatus"
          label="Breathing status"
          options={withRecordedChoice(BREATHING_STATUSES, record.breathingStatus)}
        />
        <CaseNumberField
          field="respiratoryRate"
          label="Respiratory rate"
          unit="/min"
          min={0}
          max={150}
          hint={
            <VitalRangeNote
              type="respiratoryRate"
              value={typeof rr === 'number' ? String(rr) : ''}
              ageYears={age}
            />
          }
        />
      </CaseSection>

      <CaseSection title="Circulation" id="circulation">
        <CaseChoice
          field="circulationStatus"
          label="Circulation status"
          options={withRecordedChoice(CIRCULATION_STATUSES, record.circulationStatus)}
        />
        <CaseNumberField
          field="capillaryRefillTime"
          label="Capillary refill"
          unit="seconds"
          min={0}
          max={30}
          step={0.5}
          integer={false}
          hint={
            <VitalRangeNote
              type="capillaryRefill"
              value={typeof crt === 'number' ? String(crt) : ''}
              ageYears={age}
            />
          }
        />
      </CaseSection>

      <CaseSection
        title="Glasgow Coma Scale"
        id="gcs"
        description="Tap one score in each of E, V and M; the total is worked out for you."
      >
        <GcsPicker />
      </CaseSection>

      <CaseSection title="Pupils" id="pupils">
        <CaseChoice
          field="pupilResponsesiveness"
          label="Pupil response"
          options={withRecordedChoice(PUPIL_OPTIONS, record.pupilResponsesiveness)}
        />
      </CaseSection>

      <CaseSection title="Triage" id="triage">
        <TriageChoice required />
      </CaseSection>
    </div>
  );
}
