// What PostgreSQL (jsonb, text) and the push route will refuse, checked where a mutation is
// made and again where it is received, so such a change is refused at validation with a
// stable code and reaches the rejection inbox instead of failing a whole push with a 500.
// - NUL (U+0000): text and jsonb store none.
// - A lone UTF-16 surrogate: not valid Unicode, jsonb refuses it.
// - Nesting deeper than MAX_VALUE_DEPTH: no form has it; a hostile one costs stack and time.
// - A mutation larger than MAX_MUTATION_BYTES (serialised).
import { RejectionCode } from './rejections';

export const MAX_VALUE_DEPTH = 16;
export const MAX_MUTATION_BYTES = 2 * 1024 * 1024;

export interface StorableProblem {
  code: typeof RejectionCode.TEXT_NOT_STORABLE | typeof RejectionCode.VALUE_TOO_DEEP;
  path: string;
  message: string;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'a NUL character';
  if (LONE_SURROGATE.test(text)) return 'a broken character (lone surrogate)';
  return null;
}

/**
 * The first thing in `value` PostgreSQL would refuse, or null. Iterative (a 10,000-deep value
 * must not overflow the stack of the code that checks it).
 */
export function findUnstorable(value: unknown, root = 'args'): StorableProblem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value, path: root, depth: 0 },
  ];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === undefined) break;
    if (typeof item.value === 'string') {
      const problem = textProblem(item.value);
      if (problem)
        return {
          code: RejectionCode.TEXT_NOT_STORABLE,
          path: item.path,
          message: `${item.path}: the text contains ${problem}, which cannot be stored.`,
        };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= MAX_VALUE_DEPTH)
      return {
        code: RejectionCode.VALUE_TOO_DEEP,
        path: item.path,
        message: `${item.path}: the value is nested more than ${String(MAX_VALUE_DEPTH)} levels deep.`,
      };
    const entries = Array.isArray(item.value)
      ? item.value.map((v, i) => [String(i), v] as const)
      : Object.entries(item.value);
    for (const [key, child] of entries) {
      const keyProblem = textProblem(key);
      if (keyProblem)
        return {
          code: RejectionCode.TEXT_NOT_STORABLE,
          path: `${item.path}.${key}`,
          message: `${item.path}: a key contains ${keyProblem}, which cannot be stored.`,
        };
      stack.push({ value: child, path: `${item.path}.${key}`, depth: item.depth + 1 });
    }
  }
  return null;
}

/** UTF-8 size of a value's JSON, or Infinity when it cannot be serialised. */
export function jsonBytes(value: unknown): number {
  try {
    return new TextEncoder().encode(JSON.stringify(value)).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
