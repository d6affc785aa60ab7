import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useParams } from 'react-router-dom';
import { axeViolations } from '@/test/axe';
import { renderRoute } from '@/test/render-route';
import { protocolFor } from '../protocol-library';
import { ProtocolPage } from './protocol-page';
import { ProtocolsPage } from './protocols-page';

function Screen() {
  const { category } = useParams();
  return category ? <ProtocolPage category={category} /> : <ProtocolsPage />;
}
const open = (path: string) => renderRoute('/protocols/:category?', <Screen />, path);

interface Spoken {
  text: string;
  lang: string;
  rate: number;
  pitch: number;
  volume: number;
}

/** A speech engine that speaks instantly: each utterance starts and ends when queued. */
function installSpeech() {
  const spoken: Spoken[] = [];
  class Utterance {
    lang = '';
    rate = 1;
    pitch = 1;
    volume = 1;
    voice: unknown = null;
    onstart: (() => void) | null = null;
    onend: (() => void) | null = null;
    onerror: (() => void) | null = null;
    constructor(public text: string) {}
  }
  const synth = {
    speak: vi.fn((u: Utterance) => {
      spoken.push({ text: u.text, lang: u.lang, rate: u.rate, pitch: u.pitch, volume: u.volume });
      u.onstart?.();
      u.onend?.();
    }),
    cancel: vi.fn(),
    getVoices: () => [],
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
  };
  vi.stubGlobal('SpeechSynthesisUtterance', Utterance);
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  return spoken;
}

function removeSpeech() {
  Reflect.deleteProperty(window, 'speechSynthesis');
  vi.unstubAllGlobals();
}

const current = () => document.querySelector('[aria-current="step"]')?.textContent ?? '';

describe('protocol reader', () => {
  let spoken: Spoken[];
  beforeEach(() => {
    localStorage.clear();
    spoken = installSpeech();
  });
  afterEach(removeSpeech);

  it('steps through with Next, Repeat and Previous, speaking each step in the §9 voice', async () => {
    const { user } = open('/protocols/anaphylaxis');
    const steps = protocolFor('anaphylaxis')?.variants[0]?.steps ?? [];
    expect(await screen.findByRole('heading', { level: 1, name: 'Anaphylaxis' })).toBeVisible();
    expect(current()).toContain(steps[0]);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(current()).toContain(steps[1]);
    expect(spoken.at(-1)).toEqual({
      text: `Step 2. ${steps[1]}`,
      lang: 'en-US',
      rate: 0.9,
      pitch: 1,
      volume: 0.8,
    });

    await user.click(screen.getByRole('button', { name: 'Repeat' }));
    expect(spoken.at(-1)?.text).toBe(`Step 2. ${steps[1]}`);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(current()).toContain(steps[0]);
    expect(screen.getByText('Step 1 of ' + steps.length)).toBeVisible();
  });

  it('reads the whole protocol aloud, following with the highlight', async () => {
    const { user } = open('/protocols/shock');
    const steps = protocolFor('shock')?.variants[0]?.steps ?? [];
    await user.click(await screen.findByRole('button', { name: 'Read all aloud' }));
    expect(spoken.map((s) => s.text)).toEqual(steps.map((t, i) => `Step ${i + 1}. ${t}`));
    expect(current()).toContain(steps.at(-1));
    expect(screen.getByRole('button', { name: 'Read all aloud' })).toBeVisible();
  });

  it('reads in the voice set on the screen, and keeps it for the next protocol', async () => {
    const { user } = open('/protocols/burns');
    await user.click(await screen.findByText('Voice settings'));
    const rate = screen.getByRole('slider', { name: /Rate/ });
    // A range input takes a value by its change event.
    fireEvent.change(rate, { target: { value: '1.4' } });
    await user.click(screen.getByRole('button', { name: 'Repeat' }));
    expect(spoken.at(-1)?.rate).toBe(1.4);
    expect(JSON.parse(localStorage.getItem('rescuelog.speech-settings') ?? '{}')).toMatchObject({
      rate: 1.4,
    });
    await user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    await user.click(screen.getByRole('button', { name: 'Repeat' }));
    expect(spoken.at(-1)?.rate).toBe(0.9);
  });

  it('shows the age groups of CPR and starts over when one is chosen', async () => {
    const { user } = open('/protocols/cpr');
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('radio', { name: /Infant/ }));
    expect(screen.getByRole('heading', { name: /Steps: Infant/ })).toBeVisible();
    expect(current()).toContain(protocolFor('cpr')?.variants[2]?.steps[0]);
    expect(screen.getByText(/Do not tilt an infant’s head far back/)).toBeVisible();
  });

  it('is free of structural accessibility problems', async () => {
    open('/protocols/choking');
    await screen.findByRole('heading', { level: 1, name: 'Choking' });
    expect(await axeViolations()).toEqual([]);
  });
});

describe('protocol reader without speech synthesis', () => {
  it('says so, and still steps through the protocol', async () => {
    removeSpeech();
    const { user } = open('/protocols/burns');
    expect(await screen.findByText('Speech synthesis not supported')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Read all aloud' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(current()).toContain(protocolFor('burns')?.variants[0]?.steps[1]);
  });
});

describe('protocols list', () => {
  it('finds anaphylaxis for "bee sting" and says when nothing matches', async () => {
    const { user, location } = open('/protocols');
    const urgent = await screen.findByRole('navigation', { name: 'Most urgent protocols' });
    expect(
      within(urgent)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['CPR', 'Choking', 'Severe bleeding', 'Anaphylaxis']);
    await user.type(screen.getByRole('searchbox', { name: 'Search protocols' }), 'bee sting');
    const results = screen.getByRole('list', { name: 'Search results' });
    expect(within(results).getAllByRole('link')[0]).toHaveAttribute(
      'href',
      '/protocols/anaphylaxis',
    );
    expect(location.search).toBe('?q=bee+sting');
    await user.clear(screen.getByRole('searchbox', { name: 'Search protocols' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search protocols' }), 'zebra');
    expect(screen.getByText(/No protocol matches “zebra”/)).toBeVisible();
    expect(await axeViolations()).toEqual([]);
  });

  it('shows a clear message and the list for an unknown category', async () => {
    open('/protocols/dragon-bite');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There is no protocol called “dragon-bite”',
    );
    expect(screen.getByRole('link', { name: /Snake bite/ })).toHaveAttribute(
      'href',
      '/protocols/snake-bite',
    );
  });
});
