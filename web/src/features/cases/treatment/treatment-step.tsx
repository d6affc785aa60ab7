// Step 4, Treatment Provided (domain.md "Case steps"): the interventions checklist in the
// groups the crew knows (airway, breathing, circulation, trauma, medical, other), a quick
// filter to find one by name, the count ticked so far, then medications given, procedures
// and free text. Every tick saves at once; advanced interventions outside the signed-in
// responder's scope of practice carry a warning that never blocks.
import { INTERVENTION_LABELS } from '@rescuelog/sync-protocol/cases/fields';
import {
  INTERVENTIONS,
  INTERVENTION_GROUPS,
  INTERVENTION_GROUP_LABELS,
  type Intervention,
  type InterventionGroup,
} from '@rescuelog/sync-protocol/cases/clinical';
import { Search, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useUser } from '@/lib/auth';
import { CaseCheckbox, CaseSection, CaseTextField } from '../components/case-controls';
import { useCaseForm } from '../components/case-form';
import { scopeWarning } from './scope-of-practice';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './treatment.module.css';

const GROUP_KEYS = Object.keys(INTERVENTION_GROUPS) as InterventionGroup[];

function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

/** Every word typed must appear in the label (or the field name, e.g. "cpap", "io"). */
export function matchesFilter(intervention: Intervention, filter: string): boolean {
  const words = normalise(filter).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = `${normalise(INTERVENTION_LABELS[intervention])} ${normalise(intervention)}`;
  return words.every((word) => haystack.includes(word));
}

export function TreatmentStep() {
  const { record } = useCaseForm();
  const { data: user } = useUser();
  const qualification = user?.qualifications ?? null;
  const [filter, setFilter] = useState('');
  const filterId = useId();

  const ticked = INTERVENTIONS.filter((i) => record[i] === true).length;
  const visibleGroups = GROUP_KEYS.map((group) => ({
    group,
    items: INTERVENTION_GROUPS[group].filter((i) => matchesFilter(i, filter)),
  })).filter((g) => g.items.length > 0);

  return (
    <>
      <section className="card treatment-checklist" aria-labelledby="interventions-heading">
        <div className={styles.checklistTop}>
          <h2 id="interventions-heading" className={formStyles.sectionTitle}>
            Interventions
          </h2>
          <p className={styles.count} role="status">
            <strong>{ticked}</strong> of {INTERVENTIONS.length} ticked
          </p>
        </div>
        <div className={styles.filter}>
          <label htmlFor={filterId} className={formStyles.label}>
            Find an intervention
          </label>
          <div className={styles.filterRow}>
            <Search size={22} aria-hidden="true" className={styles.filterIcon} />
            <input
              id={filterId}
              type="search"
              className={`input ${formStyles.textInput} ${styles.filterInput}`}
              value={filter}
              placeholder="e.g. oxygen, splint, AED"
              autoComplete="off"
              enterKeyHint="search"
              onChange={(e) => setFilter(e.target.value)}
            />
            {filter ? (
              <button
                type="button"
                className={`button ${styles.filterClear}`}
                onClick={() => setFilter('')}
              >
                <X size={20} aria-hidden="true" /> Clear
              </button>
            ) : null}
          </div>
        </div>
        {visibleGroups.length === 0 ? (
          <p className={styles.empty} role="status">
            No intervention matches “{filter.trim()}”. Describe it under Procedures performed or
            Treatment provided below.
          </p>
        ) : null}
      </section>

      {visibleGroups.map(({ group, items }) => {
        const inGroup = INTERVENTION_GROUPS[group].filter((i) => record[i] === true).length;
        return (
          <CaseSection
            key={group}
            id={`interventions-${group}`}
            title={
              inGroup > 0
                ? `${INTERVENTION_GROUP_LABELS[group]} (${String(inGroup)} ticked)`
                : INTERVENTION_GROUP_LABELS[group]
            }
          >
            {items.map((intervention) => (
              <CaseCheckbox
                key={intervention}
                field={intervention}
                label={INTERVENTION_LABELS[intervention]}
                warning={scopeWarning(qualification, intervention)}
              />
            ))}
          </CaseSection>
        );
      })}

      <CaseSection title="Medications and procedures" id="treatment-notes">
        <div className={formStyles.wide}>
          <CaseTextField
            field="medicationsGiven"
            label="Medications given"
            multiline
            rows={4}
            hint="Drug, dose, route and time for each, e.g. Glucose gel 15 g oral 10:42."
          />
        </div>
        <div className={formStyles.wide}>
          <CaseTextField
            field="proceduresPerformed"
            label="Procedures performed"
            multiline
            rows={4}
            hint="Anything not on the checklist, and who performed advanced procedures."
          />
        </div>
        <div className={formStyles.wide}>
          <CaseTextField
            field="treatmentProvided"
            label="Treatment provided"
            multiline
            rows={4}
            hint="The treatment in your own words: response to treatment, changes in the patient."
          />
        </div>
        <div className={formStyles.wide}>
          <CaseTextField field="additionalNotes" label="Additional notes" multiline rows={3} />
        </div>
      </CaseSection>
    </>
  );
}
