// Parsing a value with a wide object schema by only the keys the value has (issue 12,
// docs/decisions/036-push-insert-cost.md). A case's fields are a strict object of ~160
// optional keys, and zod runs every key's schema on every parse, present or not: ~25 µs a
// case.upsert, most of a push's validation. A change names a handful of fields.
//
// For a plain object whose keys are all in the schema's shape, the schema picked down to those
// keys gives the same answer as the whole one: zod adds nothing to the output, and reports
// nothing, for a key that is absent and optional both ways (`optin` and `optout`), so leaving
// such keys out changes neither the value nor the issues (same codes, messages, paths, order:
// the picked keys keep the shape's order). Keys that are not optional both ways, and keys
// `in` every object (Object.prototype's), are always kept. A value with any other key, or that
// is not a plain object, is parsed by the whole schema, so unknown keys and wrong types are
// reported by it. Objects inside (upsert's `fields`) are narrowed the same way. An object
// schema with refinements is never narrowed (pick would drop them).
// narrow-parse.test.ts compares both parses, value and issues, for every mutator.
import { z } from 'zod';
import '../zod-config';

/** Object schemas with at least this many keys are narrowed to the keys a value has. */
const WIDE = 32;
/** Narrowed schemas kept per object schema; past it, new key sets use the whole schema. */
const MAX_NARROWED = 1000;

interface Plan {
  schema: z.ZodObject;
  keys: readonly string[];
  index: ReadonlyMap<string, number>;
  wide: boolean;
  /** Keys kept whatever the value has (only for a wide object). */
  always: ReadonlySet<string>;
  /** Keys whose schema is an object that may be narrowed itself. */
  children: ReadonlyMap<string, Plan>;
  narrowed: Map<string, z.ZodObject>;
}

const plans = new WeakMap<z.ZodType, Plan | null>();

function optionalBothWays(schema: z.ZodType): boolean {
  return schema._zod.optin === 'optional' && schema._zod.optout === 'optional';
}

function planOf(schema: z.ZodType): Plan | null {
  const known = plans.get(schema);
  if (known !== undefined) return known;
  let plan: Plan | null = null;
  if (schema instanceof z.ZodObject && (schema._zod.def.checks?.length ?? 0) === 0) {
    const shape = schema.shape as Record<string, z.ZodType>;
    const keys = Object.keys(shape);
    const children = new Map<string, Plan>();
    for (const key of keys) {
      const child = shape[key] ? planOf(shape[key]) : null;
      if (child) children.set(key, child);
    }
    const wide = keys.length >= WIDE;
    if (wide || children.size > 0)
      plan = {
        schema,
        keys,
        index: new Map(keys.map((key, i) => [key, i])),
        wide,
        always: new Set(
          wide
            ? keys.filter((key) => !optionalBothWays(shape[key] as z.ZodType) || key in {})
            : keys,
        ),
        children,
        narrowed: new Map(),
      };
  }
  plans.set(schema, plan);
  return plan;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The schema narrowed to `value`'s keys, or undefined when the whole schema must parse it. */
function narrow(plan: Plan, value: unknown): z.ZodObject | undefined {
  if (!isPlainObject(value)) return undefined;
  const present: number[] = [];
  for (const key of Object.keys(value)) {
    const i = plan.index.get(key);
    if (i === undefined) return undefined;
    present.push(i);
  }
  present.sort((a, b) => a - b);
  const inner = new Map<string, z.ZodObject>();
  let signature = present.join(',');
  for (const i of present) {
    const key = plan.keys[i] as string;
    const child = plan.children.get(key);
    const narrowedChild = child ? narrow(child, value[key]) : undefined;
    if (!narrowedChild) continue;
    inner.set(key, narrowedChild);
    signature += `|${String(i)}:${childSignature(narrowedChild)}`;
  }
  if (!plan.wide && inner.size === 0) return undefined;
  const cached = plan.narrowed.get(signature);
  if (cached) return cached;
  if (plan.narrowed.size >= MAX_NARROWED) return undefined;
  let schema = plan.schema;
  if (plan.wide) {
    const kept = new Set([...present.map((i) => plan.keys[i] as string), ...plan.always]);
    // In the shape's order: pick keeps the mask's.
    const mask = Object.fromEntries(
      plan.keys.filter((key) => kept.has(key)).map((key) => [key, true]),
    ) as Record<string, true>;
    schema = schema.pick(mask as never) as unknown as z.ZodObject;
  }
  if (inner.size > 0) schema = schema.extend(Object.fromEntries(inner)) as unknown as z.ZodObject;
  plan.narrowed.set(signature, schema);
  return schema;
}

/** Narrowed schemas are cached by identity, so a child's own cache names it. */
const childIds = new WeakMap<z.ZodObject, number>();
let nextChildId = 0;
function childSignature(schema: z.ZodObject): string {
  let id = childIds.get(schema);
  if (id === undefined) {
    id = nextChildId++;
    childIds.set(schema, id);
  }
  return String(id);
}

/** The schema `narrowSafeParse` parses `value` with: `schema`, or it narrowed to `value`'s keys. */
export function narrowedFor(schema: z.ZodType, value: unknown): z.ZodType {
  const plan = planOf(schema);
  return (plan ? narrow(plan, value) : undefined) ?? schema;
}

/** `schema.safeParse(value)`, with wide object schemas narrowed to the keys `value` has. */
export function narrowSafeParse<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  return narrowedFor(schema, value).safeParse(value) as z.ZodSafeParseResult<T>;
}
