// The voice a protocol is read in: language, rate, pitch and volume, starting from spec §9's
// defaults and kept on this device.
import { SPEECH_DEFAULTS, type SpeechSettings } from '@rescuelog/sync-protocol/reference/first-aid';
import { useId } from 'react';
import styles from './protocols.module.css';

const BASE_LANGUAGES = ['en-US', 'en-GB', 'en-ZA'];

function Slider({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (v: number) => void;
}) {
  const id = useId();
  return (
    <div className={styles.slider}>
      <label htmlFor={id} className="field__label">
        {label} <output htmlFor={id}>{value.toFixed(1)}</output>
      </label>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={0.1}
        value={value}
        onChange={(e) => onChange(Math.round(Number(e.target.value) * 10) / 10)}
      />
    </div>
  );
}

export function VoiceSettings({
  settings,
  voices,
  onChange,
}: {
  settings: SpeechSettings;
  voices: readonly SpeechSynthesisVoice[];
  onChange: (next: SpeechSettings) => void;
}) {
  const langId = useId();
  const languages = [
    ...new Set([
      settings.lang,
      ...BASE_LANGUAGES,
      ...voices.map((v) => v.lang.replace('_', '-')).filter((l) => /^[a-z]{2,3}(-|$)/.test(l)),
    ]),
  ].sort();
  const isDefault =
    settings.lang === SPEECH_DEFAULTS.lang &&
    settings.rate === SPEECH_DEFAULTS.rate &&
    settings.pitch === SPEECH_DEFAULTS.pitch &&
    settings.volume === SPEECH_DEFAULTS.volume;

  return (
    <details className={styles.voice}>
      <summary className={styles.voiceSummary}>Voice settings</summary>
      <div className={styles.voiceBody}>
        <div className="field">
          <label htmlFor={langId} className="field__label">
            Language
          </label>
          <select
            id={langId}
            className="input"
            value={settings.lang}
            onChange={(e) => onChange({ ...settings, lang: e.target.value })}
          >
            {languages.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </div>
        <Slider
          label="Rate"
          value={settings.rate}
          min={0.5}
          max={2}
          onChange={(rate) => onChange({ ...settings, rate })}
        />
        <Slider
          label="Pitch"
          value={settings.pitch}
          min={0}
          max={2}
          onChange={(pitch) => onChange({ ...settings, pitch })}
        />
        <Slider
          label="Volume"
          value={settings.volume}
          min={0}
          max={1}
          onChange={(volume) => onChange({ ...settings, volume })}
        />
        <button
          type="button"
          className="button button--secondary"
          disabled={isDefault}
          onClick={() => onChange({ ...SPEECH_DEFAULTS })}
        >
          Reset to defaults
        </button>
      </div>
    </details>
  );
}
