// Step 1 of a case (domain.md "Case steps"): who the patient is, who called, who responded,
// where and what happened, and whether other patients are involved. Every control saves as
// the user goes (no save button); fields needed to complete the case are marked.
import {
  REQUIRED_FOR_COMPLETION,
  type CompletionField,
} from '@rescuelog/sync-protocol/cases/completion';
import { stepPath } from '@rescuelog/sync-protocol/cases/steps';
import { Link } from 'react-router-dom';
import {
  CaseCheckbox,
  CaseChoice,
  CaseNumberField,
  CaseSection,
  CaseTextField,
  CaseYesNo,
} from '../components/case-controls';
import { useCaseForm } from '../components/case-form';
import { IncidentTypeChoice } from './incident-type-choice';
import { LocationCapture } from './location-capture';
import { GENDER_OPTIONS } from './options';
import { formStyles } from '@/components/record-form/form-styles';

const isRequired = (field: CompletionField) => REQUIRED_FOR_COMPLETION.includes(field);

export function PatientDetailsForm({ caseId }: { caseId: string }) {
  const { record } = useCaseForm();
  const responsePath = stepPath('response-details', caseId);
  return (
    <>
      <CaseSection title="Patient" id="patient">
        <CaseTextField
          field="patientName"
          label="Patient name"
          autoComplete="off"
          hint="Leave empty if the patient is unknown: the case shows 'Unknown'."
        />
        <CaseNumberField
          field="approximateAge"
          label="Approximate age"
          unit="years"
          min={0}
          max={150}
          required={isRequired('approximateAge')}
          hint="An estimate is fine. Under one year: 0."
        />
        <CaseChoice
          field="patientGender"
          label="Gender"
          options={GENDER_OPTIONS}
          required={isRequired('patientGender')}
          columns={2}
        />
        <IncidentTypeChoice required={isRequired('incidentType')} />
        <CaseYesNo field="hasMedicalAid" label="Does the patient have medical aid?" />
        {record.hasMedicalAid === true ? (
          <CaseTextField
            field="medicalAidProvider"
            label="Medical aid provider"
            required
            hint="Scheme name, and the member number if known."
          />
        ) : null}
      </CaseSection>

      <CaseSection
        title="Caller"
        id="caller"
        description={
          <>
            The call received time is recorded with the other times on{' '}
            <Link to={responsePath}>Response Details</Link>.
          </>
        }
      >
        <CaseTextField field="callerName" label="Caller name" />
        <CaseTextField field="callerPhone" label="Caller phone" type="tel" inputMode="tel" />
      </CaseSection>

      <CaseSection
        title="Responder"
        id="responder"
        description={
          <>
            Filled in from your profile; change it if someone else is the responder. The arrival
            time is on <Link to={responsePath}>Response Details</Link>.
          </>
        }
      >
        <CaseTextField field="responderName" label="Responder name" />
        <CaseTextField field="responderCallSign" label="Responder call sign" />
      </CaseSection>

      <CaseSection title="Incident" id="incident">
        <CaseTextField
          field="incidentLocation"
          label="Incident location"
          required={isRequired('incidentLocation')}
          hint="Address, road and km marker, or landmark. The GPS position below also counts."
        />
        <LocationCapture />
        <div className={formStyles.wide}>
          <CaseTextField
            field="incidentDescription"
            label="Incident description"
            multiline
            rows={4}
            hint="What happened, as found on scene and as told by the caller or bystanders."
          />
        </div>
      </CaseSection>

      <CaseSection title="Multi-patient incident" id="multi-patient">
        <div className={formStyles.wide}>
          <CaseCheckbox
            field="isMultiPatientIncident"
            label="More than one patient at this incident"
            description="A crash with several people hurt, a mass-casualty incident"
          />
        </div>
        {record.isMultiPatientIncident ? (
          <>
            <CaseTextField
              field="multiPatientIncidentType"
              label="Kind of multi-patient incident"
              hint="e.g. Bus crash, building collapse, fire"
            />
            <CaseNumberField
              field="totalPatients"
              label="Total patients"
              min={1}
              max={100000}
              hint="Including this patient."
            />
            <div className={formStyles.wide}>
              <CaseTextField
                field="multiPatientDescription"
                label="Multi-patient description"
                multiline
                hint="Scene, resources on scene, where the other patients are."
              />
            </div>
          </>
        ) : null}
      </CaseSection>
    </>
  );
}
