// Toast state (spec §4, §9): one toast at a time, a new one replaces the previous; a toast
// can be added, updated, dismissed and removed, and is removed 1,000,000 ms after dismissal
// (Radix plays its exit animation in between).
import { create } from 'zustand';

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastItem {
  id: string;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
}

export type ToastInput = Omit<ToastItem, 'id' | 'open' | 'variant'> & { variant?: ToastVariant };

interface ToastState {
  toasts: ToastItem[];
  add: (input: ToastInput) => string;
  update: (id: string, patch: Partial<ToastInput>) => void;
  dismiss: (id?: string) => void;
  remove: (id?: string) => void;
}

let counter = 0;
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      useToastStore.getState().remove(id);
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export const useToastStore = create<ToastState>()((set, get) => ({
  toasts: [],
  add: (input) => {
    counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
    const id = String(counter);
    const item: ToastItem = { variant: 'default', ...input, id, open: true };
    set((s) => ({ toasts: [item, ...s.toasts].slice(0, TOAST_LIMIT) }));
    return id;
  },
  update: (id, patch) =>
    set((s) => ({ toasts: s.toasts.map((t) => (t.id === id ? { ...t, ...patch } : t)) })),
  dismiss: (id) => {
    const targets = id === undefined ? get().toasts.map((t) => t.id) : [id];
    targets.forEach(scheduleRemoval);
    set((s) => ({
      toasts: s.toasts.map((t) => (targets.includes(t.id) ? { ...t, open: false } : t)),
    }));
  },
  remove: (id) => {
    const targets = id === undefined ? get().toasts.map((t) => t.id) : [id];
    for (const t of targets) {
      const timer = removalTimers.get(t);
      if (timer) clearTimeout(timer);
      removalTimers.delete(t);
    }
    set((s) => ({ toasts: id === undefined ? [] : s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** Shows a toast; returns its id for update/dismiss. */
export function toast(input: ToastInput): string {
  return useToastStore.getState().add(input);
}

/** Test helper: back to no toasts and no pending timers. */
export function resetToasts(): void {
  useToastStore.getState().remove();
}
