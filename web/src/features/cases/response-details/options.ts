// Choices of the Response Details step.
//
// Transport priority: South African EMS grade a patient's transport P1–P4 by colour (the
// same colours as the SA Triage Scale crews hand over with): P1 red, critical and time-
// critical, lights and siren; P2 yellow, serious but stable, urgent; P3 green, minor,
// non-urgent; P4 blue, non-emergency conveyance (a planned or routine transfer). The stored
// value is the label, e.g. 'Priority 1 (red)', so the record reads plainly anywhere.
import type { ChoiceOption } from '@/components/record-form/choice-group';

export const TRANSPORT_PRIORITY_OPTIONS: readonly ChoiceOption<string>[] = [
  {
    value: 'Priority 1 (red)',
    label: 'Priority 1 (red)',
    description: 'Critical: immediate, lights and siren',
  },
  {
    value: 'Priority 2 (yellow)',
    label: 'Priority 2 (yellow)',
    description: 'Serious but stable: urgent',
  },
  { value: 'Priority 3 (green)', label: 'Priority 3 (green)', description: 'Minor: non-urgent' },
  {
    value: 'Priority 4 (blue)',
    label: 'Priority 4 (blue)',
    description: 'Non-emergency or planned transfer',
  },
];

/**
 * Suggestions for the receiving hospital (a datalist: any name can be typed). Large public
 * and private emergency centres across the country; a service adds its own by typing.
 */
export const COMMON_HOSPITALS: readonly string[] = [
  'Groote Schuur Hospital',
  'Tygerberg Hospital',
  'Red Cross War Memorial Children’s Hospital',
  'Somerset Hospital',
  'Victoria Hospital, Wynberg',
  'Mitchells Plain District Hospital',
  'Khayelitsha District Hospital',
  'Helderberg Hospital',
  'Chris Hani Baragwanath Academic Hospital',
  'Charlotte Maxeke Johannesburg Academic Hospital',
  'Helen Joseph Hospital',
  'Steve Biko Academic Hospital',
  'Kalafong Provincial Tertiary Hospital',
  'Inkosi Albert Luthuli Central Hospital',
  'King Edward VIII Hospital',
  'Addington Hospital',
  'Universitas Academic Hospital',
  'Pelonomi Tertiary Hospital',
  'Livingstone Tertiary Hospital',
  'Frere Hospital',
  'Netcare Milpark Hospital',
  'Netcare Christiaan Barnard Memorial Hospital',
  'Life Kingsbury Hospital',
  'Mediclinic Panorama',
];
