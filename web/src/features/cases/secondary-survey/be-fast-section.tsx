// BE-FAST stroke screen: Balance, Eyes, Face, Arm, Speech, Time. Any sign present shows a
// "Possible stroke" banner (in words and colour) and asks for the time last known well.
import { beFastPositive } from '@rescuelog/sync-protocol/cases/completion';
import { AlertTriangle } from 'lucide-react';
import { CaseSection, CaseTimeField, CaseYesNo } from '../components/case-controls';
import { useCaseForm } from '../components/case-form';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './secondary-survey.module.css';

const SIGNS = [
  {
    field: 'fastBalanceLoss',
    label: 'Balance loss',
    hint: 'B: sudden loss of balance or coordination.',
  },
  {
    field: 'fastVisionLoss',
    label: 'Vision loss',
    hint: 'E (eyes): sudden loss or blurring of vision, in one or both eyes.',
  },
  {
    field: 'fastFaceDropping',
    label: 'Face drooping',
    hint: 'F: ask them to smile. Does one side droop?',
  },
  {
    field: 'fastArmWeakness',
    label: 'Arm weakness',
    hint: 'A: both arms up, eyes closed. Does one drift down?',
  },
  {
    field: 'fastSpeechDifficulty',
    label: 'Speech difficulty',
    hint: 'S: slurred, confused, or unable to speak.',
  },
] as const;

export function BeFastSection() {
  const { record } = useCaseForm();
  const positive = beFastPositive(record);
  const present = SIGNS.filter((s) => record[s.field] === true).map((s) => s.label.toLowerCase());
  return (
    <CaseSection title="BE-FAST stroke screen" id="be-fast">
      {positive ? (
        <div className={formStyles.wide}>
          <div className={styles.stroke} role="alert">
            <AlertTriangle size={24} aria-hidden="true" />
            <div>
              <p className={styles.strokeTitle}>Possible stroke</p>
              <p>
                Positive: {present.join(', ')}. Record the time last known well, check blood
                glucose, and take the patient to a stroke-ready hospital without delay.
              </p>
            </div>
          </div>
        </div>
      ) : null}
      {SIGNS.map((s) => (
        <CaseYesNo
          key={s.field}
          field={s.field}
          label={s.label}
          hint={s.hint}
          yes="Yes, present"
          no="No"
        />
      ))}
      <div className={formStyles.wide}>
        <CaseTimeField
          field="fastTimeNoted"
          label="Time noted / last known well"
          hint={
            positive
              ? 'Needed to complete the case when a sign is present.'
              : 'When the signs were first noticed, or when the patient was last seen well.'
          }
        />
      </div>
    </CaseSection>
  );
}
