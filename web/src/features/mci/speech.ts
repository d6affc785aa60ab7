// Reading a report aloud on the radio (spec §9 speech defaults: en-US, rate 0.9, pitch 1,
// volume 0.8). Where the browser has no speech synthesis, the spec's message is shown.
import { toast } from '@/lib/toast-store';

export const SPEECH_DEFAULTS = { lang: 'en-US', rate: 0.9, pitch: 1, volume: 0.8 } as const;
export const SPEECH_NOT_SUPPORTED = 'Speech synthesis not supported';

/** Speaks `text` (cancelling anything still being read); false when it cannot. */
export function speak(text: string): boolean {
  const synth = typeof window === 'undefined' ? undefined : window.speechSynthesis;
  if (!synth || typeof SpeechSynthesisUtterance === 'undefined') {
    toast({ title: SPEECH_NOT_SUPPORTED, variant: 'destructive' });
    return false;
  }
  synth.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  Object.assign(utterance, SPEECH_DEFAULTS);
  synth.speak(utterance);
  return true;
}
