// How a report's fields read on screen, in addenda and in the PDF: labels, and values in the
// service's time zone through the one formatter.
import { INCIDENT_COMMON_FIELD_LABELS } from '@rescuelog/sync-protocol/incidents/completion';
import {
  INCIDENT_TYPE_FIELDS,
  incidentTypeLabel,
  isIncidentReportType,
  type TypeField,
} from '@rescuelog/sync-protocol/incidents/incident-types';
import { formatDateTime } from '@rescuelog/sync-protocol/time';

const LABELS: Record<string, string> = {
  ...INCIDENT_COMMON_FIELD_LABELS,
  incidentType: 'Type',
  latitude: 'Latitude',
  longitude: 'Longitude',
  typeSpecificData: 'Type details',
  mediaUrls: 'Media',
};

export function reportFieldLabel(field: string): string {
  return LABELS[field] ?? field;
}

const PRIORITY: Record<string, string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  critical: 'Critical',
};

export function typeValueText(spec: TypeField | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'Not recorded';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.length === 0 ? 'None' : value.map(String).join(', ');
  if (spec && 'unit' in spec && spec.unit && typeof value === 'number')
    return `${String(value)} ${spec.unit}`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The type's own fields as label/value rows (unknown keys by their name). */
export function typeDataRows(type: unknown, data: unknown): { label: string; value: string }[] {
  const values = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const specs = isIncidentReportType(type) ? INCIDENT_TYPE_FIELDS[type] : [];
  const known = specs.map((spec) => ({
    label: spec.label,
    value: typeValueText(spec, values[spec.key]),
  }));
  const extra = Object.keys(values)
    .filter((k) => !specs.some((s) => s.key === k))
    .map((k) => ({ label: k, value: typeValueText(undefined, values[k]) }));
  return [...known, ...extra];
}

export function formatReportValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'Not recorded';
  if (field === 'incidentStartTime' || field === 'incidentEndTime')
    return formatDateTime(typeof value === 'string' ? value : null);
  if (field === 'priority') return PRIORITY[String(value)] ?? String(value);
  if (field === 'incidentType') return incidentTypeLabel(value);
  if (field === 'typeSpecificData' && typeof value === 'object')
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${typeValueText(undefined, v)}`)
      .join('; ');
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
