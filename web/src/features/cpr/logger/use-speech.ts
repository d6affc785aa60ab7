// Spoken prompts through the Web Speech API with the spec's defaults (§9: en-US, rate 0.9,
// pitch 1, volume 0.8). Where the browser has no speech synthesis the screen says so
// ('Speech synthesis not supported') and shows the prompts only.
import { useCallback, useMemo } from 'react';

export const SPEECH_DEFAULTS = { lang: 'en-US', rate: 0.9, pitch: 1, volume: 0.8 } as const;
export const SPEECH_NOT_SUPPORTED = 'Speech synthesis not supported';

export function speechSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'speechSynthesis' in window &&
    typeof window.SpeechSynthesisUtterance === 'function'
  );
}

export function useSpeech(enabled: boolean) {
  const supported = useMemo(() => speechSupported(), []);
  const speak = useCallback(
    (text: string) => {
      if (!supported || !enabled) return;
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = SPEECH_DEFAULTS.lang;
      utterance.rate = SPEECH_DEFAULTS.rate;
      utterance.pitch = SPEECH_DEFAULTS.pitch;
      utterance.volume = SPEECH_DEFAULTS.volume;
      window.speechSynthesis.speak(utterance);
    },
    [supported, enabled],
  );
  return { supported, speak };
}
