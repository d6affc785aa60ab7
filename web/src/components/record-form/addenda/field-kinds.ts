// What kind of input an addendum offers for a field of a record kind, read from the kind's
// synced field schema itself, so a new field gets a suitable input without a list to keep in
// step: a time gets date-and-time with "Now", a yes/no gets Yes / No (and "Not recorded" when
// it may be empty), an enum its options, a number a number, a list one item per line, and
// structured values JSON. The new value is parsed by the same schema before it is saved.
import { z } from 'zod';

export type FieldKind =
  | { kind: 'time'; nullable: true }
  | { kind: 'boolean'; nullable: boolean }
  | { kind: 'choice'; options: readonly string[]; nullable: boolean }
  | { kind: 'number'; integer: boolean; nullable: boolean }
  | { kind: 'text'; multiline: boolean; nullable: boolean }
  | { kind: 'list' }
  | { kind: 'json' };

export type ParsedValue = { ok: true; value: unknown } | { ok: false; message: string };

export interface FieldKinds {
  /** The input a field gets. */
  kindOf(field: string): FieldKind;
  /**
   * The value a draft stands for, checked against the field's schema. Times arrive as ISO
   * instants (the input converts), yes/no as 'yes' | 'no' | '' (not recorded).
   */
  parse(field: string, kind: FieldKind, draft: string): ParsedValue;
}

/**
 * The field kinds of a record kind: `fields` is its (partial) field schema, `isTime` says
 * which of its string fields hold instants.
 */
export function fieldKinds(
  fields: z.ZodObject<z.ZodRawShape>,
  isTime: (field: string) => boolean,
): FieldKinds {
  const accepts = (field: string, value: unknown) => fields.safeParse({ [field]: value }).success;

  /** The enum values of a field declared as z.enum, if it is one. */
  const enumOptions = (field: string): readonly string[] | null => {
    let schema: unknown = fields.shape[field];
    // optional (every field of a partial schema) and nullable wrappers
    while (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable)
      schema = schema.unwrap();
    return schema instanceof z.ZodEnum ? (schema.options as string[]) : null;
  };

  return {
    kindOf(field) {
      const nullable = accepts(field, null);
      if (isTime(field)) return { kind: 'time', nullable: true };
      if (accepts(field, true)) return { kind: 'boolean', nullable };
      const options = enumOptions(field);
      if (options) return { kind: 'choice', options, nullable };
      if (accepts(field, 'x'))
        return { kind: 'text', multiline: accepts(field, 'x'.repeat(501)), nullable };
      if (accepts(field, 1)) return { kind: 'number', integer: !accepts(field, 1.5), nullable };
      if (accepts(field, ['x'])) return { kind: 'list' };
      return { kind: 'json' };
    },

    parse(field, kind, draft) {
      let value: unknown;
      const text = draft.trim();
      switch (kind.kind) {
        case 'boolean':
          value = text === 'yes' ? true : text === 'no' ? false : null;
          if (value === null && !kind.nullable) return { ok: false, message: 'Choose Yes or No' };
          break;
        case 'time':
        case 'choice':
          value = text === '' ? null : text;
          break;
        case 'text':
          value = text === '' ? null : draft;
          break;
        case 'number': {
          if (text === '') {
            value = null;
            break;
          }
          const n = Number(text.replace(',', '.'));
          if (!Number.isFinite(n))
            return { ok: false, message: kind.integer ? 'Enter a whole number' : 'Enter a number' };
          value = n;
          break;
        }
        case 'list':
          value = draft
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean);
          break;
        case 'json':
          try {
            value = JSON.parse(text === '' ? 'null' : text);
          } catch {
            return { ok: false, message: 'Enter valid JSON' };
          }
          break;
      }
      const parsed = fields.safeParse({ [field]: value });
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'Invalid value';
        return { ok: false, message: value === null ? 'This field cannot be empty' : message };
      }
      return { ok: true, value: (parsed.data as Record<string, unknown>)[field] ?? null };
    },
  };
}

/** The draft text an input starts from for a stored value. */
export function draftOf(kind: FieldKind, value: unknown): string {
  if (value === null || value === undefined) return '';
  switch (kind.kind) {
    case 'boolean':
      return value === true ? 'yes' : value === false ? 'no' : '';
    case 'list':
      return Array.isArray(value) ? value.map(String).join('\n') : '';
    case 'json':
      return JSON.stringify(value, null, 2);
    case 'time':
    case 'choice':
    case 'number':
    case 'text':
      return String(value);
  }
}

/** Stored values compare as JSON (a synced field holds JSON values only). */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
