// Head-to-toe exam: for each region, examined (checkbox), normal / abnormal (one tap, which
// also ticks examined: a finding means the region was looked at) and notes. Notes open once
// the region is examined, so an untouched region stays one line.
import { BODY_REGION_LABELS, isEmptyCaseValue } from '@rescuelog/sync-protocol/cases/fields';
import { BODY_REGIONS, type BodyRegion } from '@rescuelog/sync-protocol/cases/clinical';
import { type CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import { CaseCheckbox, CaseSection, CaseTextField } from '../components/case-controls';
import { ChoiceGroup } from '@/components/record-form/choice-group';
import { caseFieldId, useCaseForm } from '../components/case-form';
import { formStyles } from '@/components/record-form/form-styles';
import layout from '../components/case-layout.module.css';
import { cx } from '@/lib/cx';
import styles from './secondary-survey.module.css';

const FINDING_OPTIONS = [
  { value: false, label: 'Normal' },
  { value: true, label: 'Abnormal' },
] as const;

function RegionRow({ region }: { region: BodyRegion }) {
  const { record, readOnly, save } = useCaseForm();
  const label = BODY_REGION_LABELS[region];
  const examined = record[`${region}Examined`] === true;
  const abnormal = record[`${region}Abnormal`];
  const notes = record[`${region}Notes`];
  const showNotes = examined || typeof abnormal === 'boolean' || !isEmptyCaseValue(notes);
  const setFinding = (value: boolean | null) => {
    const fields: CaseFields = { [`${region}Abnormal`]: value };
    if (value !== null && !examined) fields[`${region}Examined`] = true;
    void save(fields);
  };
  return (
    <div className={cx(layout.panel, abnormal === true && layout.panelAlert)}>
      <h3 className={styles.regionTitle}>{label}</h3>
      <div className={styles.regionControls}>
        <CaseCheckbox field={`${region}Examined`} label={`${label} examined`} />
        <ChoiceGroup
          name={caseFieldId(`${region}Abnormal`)}
          legend={`${label} findings`}
          options={FINDING_OPTIONS}
          value={typeof abnormal === 'boolean' ? abnormal : null}
          readOnly={readOnly}
          columns={2}
          onChange={setFinding}
        />
      </div>
      {showNotes ? (
        <CaseTextField
          field={`${region}Notes`}
          label={`${label} notes`}
          multiline
          rows={2}
          placeholder={abnormal === true ? 'What did you find?' : undefined}
        />
      ) : null}
    </div>
  );
}

export function BodyRegionExam() {
  return (
    <CaseSection
      title="Head-to-toe exam"
      id="body-exam"
      description="Tick each region you examined; Normal or Abnormal ticks it for you."
    >
      <div className={`${formStyles.wide} ${layout.columns}`}>
        {BODY_REGIONS.map((region) => (
          <RegionRow key={region} region={region} />
        ))}
      </div>
    </CaseSection>
  );
}
