import { useRecordForm } from './record-form';
import { useShownValue } from './use-shown-value';

/**
 * A value saved on tap: shown at once (useShownValue), and the stored one again when the save
 * is refused or the device could not store it. `tap` resolves to the field's problem, if any.
 */
export function useTapSave<T>(field: string, stored: T, same?: (a: T, b: T) => boolean) {
  const { save } = useRecordForm();
  const { shown, expect, settle } = useShownValue(stored, same);
  const tap = async (next: T): Promise<string | undefined> => {
    const saved = expect(next);
    try {
      const problem = (await save({ [field]: next }))[field];
      if (problem) settle();
      return problem;
    } finally {
      saved();
    }
  };
  return { shown, tap };
}
