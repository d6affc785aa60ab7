// Secondary survey (domain.md step 3): SAMPLE history, OPQRST with the pain score, BE-FAST,
// the head-to-toe exam, neuro reassessment, other findings, and the vital signs. A long
// page, so it opens with jump links to each part.
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { formatGcs, gcsPartsOf } from '@rescuelog/sync-protocol/cases/gcs';
import {
  CaseChoice,
  CaseMultiSelect,
  CaseNumberField,
  CaseSection,
  CaseTextField,
  CaseTimeField,
} from '../components/case-controls';
import { useCaseForm } from '../components/case-form';
import {
  AVPU_OPTIONS,
  PUPIL_OPTIONS,
  withRecorded,
  withRecordedChoice,
} from '../primary-survey/primary-survey-options';
import { VitalSignsPanel } from '../vitals/vital-signs-panel';
import { BeFastSection } from './be-fast-section';
import { BodyRegionExam } from './body-region-exam';
import { PainScorePicker } from './pain-score-picker';
import {
  COMMON_SYMPTOMS,
  MOTOR_FUNCTION,
  NO_KNOWN_ALLERGIES,
  OPQRST,
  SENSORY_FUNCTION,
} from './secondary-survey-options';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './secondary-survey.module.css';

const JUMPS = [
  { href: '#sample', label: 'SAMPLE' },
  { href: '#opqrst', label: 'OPQRST' },
  { href: '#be-fast', label: 'BE-FAST' },
  { href: '#body-exam', label: 'Exam' },
  { href: '#neuro', label: 'Neuro' },
  { href: '#field-vitalSigns', label: 'Vital signs' },
];

function QuickFill({
  label,
  onClick,
  disabled,
}: {
  label: string;
  onClick: () => void;
  disabled: boolean;
}) {
  return (
    <button
      type="button"
      className={`button button--secondary ${styles.quick}`}
      disabled={disabled}
      onClick={onClick}
    >
      {label}
    </button>
  );
}

export function SecondarySurveyForm({ now = () => new Date() }: { now?: () => Date }) {
  const { record, readOnly, save } = useCaseForm();
  const primaryGcs = formatGcs(gcsPartsOf(record));
  return (
    <div className={formStyles.survey}>
      <nav className={styles.jumps} aria-label="Parts of the secondary survey">
        <ul>
          {JUMPS.map((j) => (
            <li key={j.href}>
              <a href={j.href} className={styles.jumpLink}>
                {j.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <CaseSection title="SAMPLE history" id="sample">
        <CaseMultiSelect
          field="symptoms"
          label="S — Signs and symptoms (tap all that apply)"
          options={withRecorded(COMMON_SYMPTOMS, record.symptoms ?? [])}
        />
        <CaseTextField
          field="subjectiveSymptoms"
          label="Symptoms in the patient's words"
          multiline
        />
        <CaseTextField field="objectiveSymptoms" label="Signs you observed" multiline />
        <div className={`${formStyles.field} ${styles.withQuick}`}>
          <CaseTextField field="allergies" label="A — Allergies" multiline rows={2} />
          <QuickFill
            label={NO_KNOWN_ALLERGIES}
            disabled={readOnly || record.allergies === NO_KNOWN_ALLERGIES}
            onClick={() => void save({ allergies: NO_KNOWN_ALLERGIES })}
          />
        </div>
        <CaseTextField field="medications" label="M — Current medications" multiline rows={2} />
        <CaseTextField field="pastHistory" label="P — Past medical history" multiline rows={2} />
        <div className={`${formStyles.field} ${styles.withQuick}`}>
          <CaseTextField
            field="lastMealTime"
            label="L — Last oral intake: when"
            hint="As the patient or family tell it, e.g. 'about 12:00'."
          />
          <QuickFill
            label="Now"
            disabled={readOnly}
            onClick={() => void save({ lastMealTime: formatDateTime(now()) })}
          />
        </div>
        <CaseTextField field="lastMealContent" label="L — Last oral intake: what" />
        <CaseTextField field="eventsLeadingUp" label="E — Events leading up" multiline />
      </CaseSection>

      <CaseSection title="OPQRST" id="opqrst" description="For pain or the main complaint.">
        {OPQRST.map((q) => (
          <CaseTextField key={q.field} field={q.field} label={q.label} hint={q.hint} />
        ))}
        <PainScorePicker />
      </CaseSection>

      <BeFastSection />

      <BodyRegionExam />

      <CaseSection title="Neuro reassessment" id="neuro">
        <div className={formStyles.wide}>
          <CaseTimeField field="neuroReassessmentTime" label="Reassessed at" />
        </div>
        <CaseChoice
          field="neuroAvpu"
          label="AVPU at reassessment"
          options={AVPU_OPTIONS}
          columns={2}
        />
        <CaseNumberField
          field="neuroGcsTotal"
          label="GCS total at reassessment"
          min={3}
          max={15}
          hint={primaryGcs ? `Primary survey: ${primaryGcs}` : 'Primary survey GCS not scored.'}
        />
        <CaseChoice
          field="neuroPupils"
          label="Pupils at reassessment"
          options={withRecordedChoice(PUPIL_OPTIONS, record.neuroPupils)}
        />
        <CaseChoice
          field="neuroMotorFunction"
          label="Motor function"
          options={withRecordedChoice(MOTOR_FUNCTION, record.neuroMotorFunction)}
        />
        <CaseChoice
          field="neuroSensoryFunction"
          label="Sensory function"
          options={withRecordedChoice(SENSORY_FUNCTION, record.neuroSensoryFunction)}
        />
        <CaseTextField field="neuroNotes" label="Neuro notes" multiline />
      </CaseSection>

      <CaseSection title="Other findings" id="findings">
        <div className={formStyles.wide}>
          <CaseTextField field="additionalFindings" label="Additional findings" multiline />
        </div>
      </CaseSection>

      <VitalSignsPanel caseRecord={record} readOnly={readOnly} />
    </div>
  );
}
