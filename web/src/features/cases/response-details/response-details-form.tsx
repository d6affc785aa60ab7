// Step 5 of a case (domain.md "Case steps"): the times of the response, the ambulance, where
// the patient went and how urgently, or that they refused transport. Times out of order are
// flagged beside the time (a warning; Complete Case is where they must be right).
import {
  REQUIRED_FOR_COMPLETION,
  type CompletionField,
} from '@rescuelog/sync-protocol/cases/completion';
import { fieldDomId } from '@rescuelog/sync-protocol/cases/fields';
import { stepPath } from '@rescuelog/sync-protocol/cases/steps';
import { AlertTriangle, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  CaseCheckbox,
  CaseChoice,
  CaseSection,
  CaseTextField,
  CaseTimeField,
} from '../components/case-controls';
import { useCaseForm } from '../components/case-form';
import { COMMON_HOSPITALS, TRANSPORT_PRIORITY_OPTIONS } from './options';
import type { ResponseTimeField } from '@rescuelog/sync-protocol/cases/completion';
import { timeOrderWarnings } from './time-order';
import { formStyles } from '@/components/record-form/form-styles';
import { Callout } from '@/components/ui/callout';
import styles from './response-details.module.css';

const isRequired = (field: CompletionField) => REQUIRED_FOR_COMPLETION.includes(field);
const HOSPITALS_LIST_ID = 'receiving-hospital-suggestions';

function filled(value: unknown): boolean {
  return typeof value === 'string' ? value.trim() !== '' : value !== null && value !== undefined;
}

export function ResponseDetailsForm({ caseId }: { caseId: string }) {
  const { record } = useCaseForm();
  const refused = record.patientRefusedTransport === true;
  // Refusal makes the conveyance fields unnecessary; any already filled in stay visible.
  const conveyanceRecorded = [
    record.receivingHospital,
    record.transportPriority,
    record.departureTime,
    record.hospitalArrivalTime,
  ].some(filled);
  const showConveyance = !refused || conveyanceRecorded;
  const warnings = timeOrderWarnings(record);

  const time = (
    field: ResponseTimeField,
    label: string,
    hint: ReactNode,
    required = isRequired(field),
  ) => {
    const warning = warnings.find((w) => w.field === field);
    return (
      <CaseTimeField
        field={field}
        label={label}
        required={required}
        hint={
          <>
            {hint}
            {warning ? (
              <strong className={styles.timeWarning}>
                <AlertTriangle size={16} aria-hidden="true" /> {warning.message}
              </strong>
            ) : null}
          </>
        }
      />
    );
  };

  return (
    <>
      <CaseSection
        title="Times"
        id="times"
        description="Tap Now as each happens; a time can be corrected by typing it."
      >
        {time('callReceivedTime', 'Call received', 'When the call came in to the service.')}
        {time(
          'responderArrivalTime',
          'Responder arrival time',
          'When the first responder reached the patient.',
        )}
        {time(
          'arrivalTime',
          'Ambulance arrival time',
          'When the ambulance reached the scene, if it came separately.',
        )}
        {showConveyance ? (
          <>
            {time('departureTime', 'Departure time', 'Left the scene with the patient.')}
            {time(
              'hospitalArrivalTime',
              'Hospital arrival time',
              'Arrived at the receiving hospital.',
            )}
          </>
        ) : null}
        <p className="sr-only" role="status">
          {warnings.length > 0
            ? `Times out of order: ${warnings.map((w) => w.message).join(' ')}`
            : ''}
        </p>
      </CaseSection>

      <CaseSection title="Transport" id="transport">
        <div className={formStyles.wide}>
          <CaseCheckbox
            field="patientRefusedTransport"
            label="Patient refused transport"
            description="The patient (or their guardian) declined to be taken to hospital."
          />
        </div>
        {refused ? (
          <Callout tone="info" className={`${formStyles.wide} ${styles.refusal}`} role="note">
            <Info size={20} aria-hidden="true" />
            <p>
              No receiving hospital or priority is needed. Record the reason for the refusal, the
              advice given and that the risks were explained in{' '}
              <Link
                to={`${stepPath('treatment-provided', caseId)}#${fieldDomId('additionalNotes')}`}
              >
                Additional notes
              </Link>
              .
            </p>
          </Callout>
        ) : null}
        <CaseTextField
          field="ambulanceId"
          label="Ambulance"
          hint="Vehicle call sign or registration."
        />
        {showConveyance ? (
          <>
            <CaseTextField
              field="receivingHospital"
              label="Receiving hospital"
              required={!refused && isRequired('receivingHospital')}
              list={HOSPITALS_LIST_ID}
              hint="Pick a suggestion or type any facility."
            />
            <datalist id={HOSPITALS_LIST_ID}>
              {COMMON_HOSPITALS.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <CaseChoice
              field="transportPriority"
              label="Transport priority"
              options={TRANSPORT_PRIORITY_OPTIONS}
              required={!refused && isRequired('transportPriority')}
              columns={2}
            />
          </>
        ) : null}
      </CaseSection>
    </>
  );
}
