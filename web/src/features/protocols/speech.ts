// Reading protocols aloud with the Web Speech API (issue 42): the §9 voice (en-US, rate 0.9,
// pitch 1, volume 0.8) until the user changes it on the screen, kept on this device. The
// settings are parsed with their schema when read back, so a hand-edited or older value falls
// back to the defaults instead of reaching the speech engine.
import {
  SPEECH_DEFAULTS,
  speechSettingsSchema,
  type SpeechSettings,
} from '@rescuelog/sync-protocol/reference/first-aid';
import { useCallback, useEffect, useRef, useState } from 'react';

const STORAGE_KEY = 'rescuelog.speech-settings';

export function readSpeechSettings(): SpeechSettings {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (raw === null) return { ...SPEECH_DEFAULTS };
    const parsed = speechSettingsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : { ...SPEECH_DEFAULTS };
  } catch {
    return { ...SPEECH_DEFAULTS };
  }
}

function saveSpeechSettings(settings: SpeechSettings) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Private mode or a full store: the setting holds for this visit only.
  }
}

export function speechSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'speechSynthesis' in window &&
    typeof window.SpeechSynthesisUtterance === 'function'
  );
}

/** The device's voice for a language: an exact match, else one of the same language. */
function voiceFor(voices: readonly SpeechSynthesisVoice[], lang: string) {
  const base = lang.split('-')[0];
  return (
    voices.find((v) => v.lang === lang) ??
    voices.find((v) => v.lang.replace('_', '-').toLowerCase() === lang.toLowerCase()) ??
    voices.find((v) => v.lang.split(/[-_]/)[0] === base)
  );
}

interface SpeakHandlers {
  /** An utterance began: its position in the list. */
  onStart?: (position: number) => void;
  /** The last utterance ended (not when it was cancelled by another request). */
  onDone?: () => void;
}

/** Keeps the screen on while reading, where the browser allows it, so a gloved hand does not
 * have to unlock the device between steps. */
function useWakeLock(active: boolean) {
  useEffect(() => {
    if (!active || !('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let released = false;
    navigator.wakeLock
      .request('screen')
      .then((l) => {
        if (released) void l.release();
        else lock = l;
      })
      .catch(() => undefined);
    return () => {
      released = true;
      void lock?.release().catch(() => undefined);
    };
  }, [active]);
}

export function useSpeech() {
  const supported = speechSupported();
  const [settings, setSettingsState] = useState<SpeechSettings>(readSpeechSettings);
  const [voices, setVoices] = useState<readonly SpeechSynthesisVoice[]>([]);
  const [speaking, setSpeaking] = useState(false);
  // Each request gets a number; events of a request that was replaced are ignored.
  const request = useRef(0);

  useEffect(() => {
    if (!supported) return;
    const synth = window.speechSynthesis;
    const load = () => setVoices(synth.getVoices());
    load();
    synth.addEventListener('voiceschanged', load);
    return () => {
      synth.removeEventListener('voiceschanged', load);
      request.current += 1;
      synth.cancel();
    };
  }, [supported]);

  useWakeLock(speaking);

  const setSettings = useCallback((next: SpeechSettings) => {
    setSettingsState(next);
    saveSpeechSettings(next);
  }, []);

  const stop = useCallback(() => {
    request.current += 1;
    setSpeaking(false);
    if (supported) window.speechSynthesis.cancel();
  }, [supported]);

  const speak = useCallback(
    (texts: readonly string[], handlers: SpeakHandlers = {}) => {
      if (!supported || texts.length === 0) return;
      const synth = window.speechSynthesis;
      const id = ++request.current;
      synth.cancel();
      const voice = voiceFor(voices, settings.lang);
      setSpeaking(true);
      texts.forEach((text, position) => {
        const u = new SpeechSynthesisUtterance(text);
        u.lang = settings.lang;
        u.rate = settings.rate;
        u.pitch = settings.pitch;
        u.volume = settings.volume;
        if (voice) u.voice = voice;
        u.onstart = () => {
          if (request.current === id) handlers.onStart?.(position);
        };
        if (position === texts.length - 1) {
          const done = () => {
            if (request.current !== id) return;
            setSpeaking(false);
            handlers.onDone?.();
          };
          u.onend = done;
          u.onerror = done;
        }
        synth.speak(u);
      });
    },
    [supported, voices, settings],
  );

  return { supported, settings, setSettings, voices, speaking, speak, stop };
}
