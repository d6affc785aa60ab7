// The compression metronome: an audible click through Web Audio, scheduled ahead on the audio
// clock (a look-ahead scheduler: a timer every 25 ms books the clicks of the next 100 ms at
// exact audio times, so a busy main thread delays no beat), and a beat counter the screen
// uses for its visual pulse. Muting silences the click; the visual pulse goes on.
import { useEffect, useRef, useState } from 'react';

const LOOKAHEAD_MS = 25;
const SCHEDULE_AHEAD_S = 0.1;
const CLICK_S = 0.03;

type AudioContextClass = typeof AudioContext;

function audioContextClass(): AudioContextClass | null {
  if (typeof window === 'undefined') return null;
  const w = window as typeof window & { webkitAudioContext?: AudioContextClass };
  return w.AudioContext ?? w.webkitAudioContext ?? null;
}

export interface Metronome {
  /** Counts beats (for the visual pulse); advances while running, muted or not. */
  beat: number;
  /** Web Audio is available (else only the visual pulse). */
  audible: boolean;
}

export function useMetronome(ratePerMinute: number, running: boolean, muted: boolean): Metronome {
  const [beat, setBeat] = useState(0);
  const mutedRef = useRef(muted);
  useEffect(() => {
    mutedRef.current = muted;
  }, [muted]);
  const Ctx = audioContextClass();

  useEffect(() => {
    if (!running) return;
    const interval = 60 / ratePerMinute;
    let context: AudioContext | null = null;
    try {
      context = Ctx ? new Ctx() : null;
    } catch {
      context = null;
    }
    if (context?.state === 'suspended') void context.resume();
    let nextBeat = context ? context.currentTime + 0.05 : 0;
    const click = (ctx: AudioContext, when: number) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 1000;
      gain.gain.setValueAtTime(0.6, when);
      gain.gain.exponentialRampToValueAtTime(0.001, when + CLICK_S);
      osc.connect(gain).connect(ctx.destination);
      osc.start(when);
      osc.stop(when + CLICK_S);
    };
    // The visual beat follows the wall clock at the same rate (no audio on the device: still
    // a pulse); the audio clicks are booked on the audio clock.
    const startedAt = performance.now();
    let shown = 0;
    const timer = window.setInterval(() => {
      if (context && context.state === 'running') {
        while (nextBeat < context.currentTime + SCHEDULE_AHEAD_S) {
          if (!mutedRef.current) click(context, nextBeat);
          nextBeat += interval;
        }
      } else if (context) {
        nextBeat = context.currentTime + 0.05;
      }
      const due = Math.floor((performance.now() - startedAt) / (interval * 1000));
      if (due !== shown) {
        shown = due;
        setBeat(due);
      }
    }, LOOKAHEAD_MS);
    return () => {
      window.clearInterval(timer);
      void context?.close();
    };
  }, [Ctx, ratePerMinute, running]);

  return { beat, audible: Ctx !== null };
}
