// The arrest screen on a real device database (fake-indexeddb), sync unreachable: the CPR
// Logger tap starts a session, each event is one tap stored on the device at the tap, a
// second adrenaline within 3 minutes is flagged, a wrong tap is voided with a reason, prompts
// are spoken with the spec's voice, and a browser without speech says so.
import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  getSyncSession,
  saveLocalChange,
  stopSyncSession,
  wipeLocalData,
} from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

const USER = makeUser({
  id: 31,
  fullName: 'Sipho Mokoena',
  callSign: 'R31',
  permissions: {
    cprLogger: { read: true, create: true, edit: true, delete: false },
    cprLogs: { view: true, edit: false, delete: false },
  },
});

function offlineDevice() {
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
  );
  signedInAs(USER);
}

async function storedEvents() {
  const rows = (await getSyncSession()?.db.store('cprEvents').toArray()) ?? [];
  return rows as unknown as {
    id: string;
    type: string;
    at: string;
    details: Record<string, unknown>;
    voidsEventId: string | null;
  }[];
}

class FakeUtterance {
  lang = '';
  rate = 1;
  pitch = 1;
  volume = 1;
  constructor(readonly text: string) {}
}

afterEach(async () => {
  vi.unstubAllGlobals();
  stopSyncSession();
  await wipeLocalData(USER.id);
});

describe('CPR logger', { timeout: 30_000 }, () => {
  it('starts on the tap and logs one event per tap, on the device, with voids', async () => {
    const spoken: FakeUtterance[] = [];
    vi.stubGlobal('SpeechSynthesisUtterance', FakeUtterance);
    vi.stubGlobal('speechSynthesis', { speak: (u: FakeUtterance) => spoken.push(u) });
    offlineDevice();
    const before = Date.now();
    const { user, location } = renderApp('/cpr-logger');
    const heading = await screen.findByRole('heading', { name: /^CPR S-/ }, { timeout: 10_000 });
    const sessionId = heading.textContent?.replace('CPR ', '') ?? '';
    expect(location.pathname).toBe(`/cpr-logger/${sessionId}`);
    const session = (await getSyncSession()?.db.store('cprSessions').toArray())?.[0] as
      { startTime: string; sessionId: string } | undefined;
    expect(session?.sessionId).toBe(sessionId);
    expect(Date.parse(session?.startTime ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(session?.startTime ?? '')).toBeLessThanOrEqual(Date.now());

    // The first prompt, spoken once with the spec's voice.
    expect(await screen.findByText('Check the rhythm.')).toBeInTheDocument();
    await waitFor(() => expect(spoken.map((u) => u.text)).toEqual(['Check the rhythm.']));
    expect(spoken[0]).toMatchObject({ lang: 'en-US', rate: 0.9, pitch: 1, volume: 0.8 });

    const events = within(screen.getByRole('region', { name: 'Log an event' }));
    await user.click(events.getByRole('button', { name: 'VF' }));
    await user.click(events.getByRole('button', { name: 'Shock 150 J' }));
    await user.click(events.getByRole('button', { name: 'Higher energy' }));
    await user.click(events.getByRole('button', { name: 'Shock 160 J' }));
    const timeline = within(await screen.findByRole('list', { name: 'Event timeline' }));
    expect(await timeline.findByText('Shock 160 J')).toBeInTheDocument();
    expect(screen.getByText('Shocks').nextSibling).toHaveTextContent('2');
    expect(screen.getByText('Pathway').nextSibling).toHaveTextContent('Shockable');

    await user.click(events.getByRole('button', { name: 'Adrenaline 1 mg' }));
    await user.click(events.getByRole('button', { name: 'Adrenaline 1 mg' }));
    expect(
      await screen.findByText(
        /Adrenaline 1 mg logged\. Adrenaline given 00:0\d after the last dose/,
      ),
    ).toBeInTheDocument();

    // A wrong tap is voided with a reason: it stays, struck through, and counts no more.
    await user.click(screen.getByRole('button', { name: /^Void Shock 150 J/ }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Void this event?' }));
    expect(dialog.getByRole('button', { name: 'Void event' })).toBeDisabled();
    await user.type(dialog.getByLabelText('Reason'), 'Pads not on');
    await user.click(dialog.getByRole('button', { name: 'Void event' }));
    expect(await timeline.findByText(/voided by You: Pads not on/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('Shocks').nextSibling).toHaveTextContent('1'));

    const stored = await storedEvents();
    expect(stored.map((e) => e.type).sort()).toEqual(
      ['adrenaline', 'adrenaline', 'rhythm_check', 'shock', 'shock', 'void'].sort(),
    );
    const shocks = stored.filter((e) => e.type === 'shock');
    expect(shocks.map((e) => e.details.energyJoules).sort()).toEqual([150, 160]);
    expect(shocks[0]?.details.by).toBe('Sipho Mokoena, R31');
    for (const e of stored) expect(Date.parse(e.at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('ends at ROSC: the session is completed and locked, and the summary shows', async () => {
    vi.stubGlobal('speechSynthesis', undefined);
    offlineDevice();
    const { user } = renderApp('/cpr-logger');
    await screen.findByRole('heading', { name: /^CPR S-/ }, { timeout: 10_000 });
    expect(screen.getByText('Speech synthesis not supported')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'PEA' }));
    expect(await screen.findByText('Adrenaline due: 1 mg.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'ROSC – end session' }));
    await user.click(await screen.findByRole('button', { name: 'Log ROSC' }));
    expect(await screen.findByText(/^Session ended: ROSC after/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Log an event' })).toBeNull();
    const session = (await getSyncSession()?.db.store('cprSessions').toArray())?.[0] as
      { status: string; outcome: string; endTime: string } | undefined;
    expect(session).toMatchObject({ status: 'completed', outcome: 'rosc' });
    expect(screen.getByText('First rhythm').nextSibling).toHaveTextContent('PEA');
  });

  it('links the session to a patient case by its number, or to a new case', async () => {
    vi.stubGlobal('speechSynthesis', undefined);
    offlineDevice();
    const { user } = renderApp('/cpr-logger');
    await screen.findByRole('heading', { name: /^CPR S-/ }, { timeout: 10_000 });
    const sync = getSyncSession();
    const caseUuid = crypto.randomUUID();
    const caseNumber = generateHumanId('C');
    await saveLocalChange({
      name: 'case.upsert',
      args: { id: caseUuid, humanId: caseNumber, fields: { patientName: 'Zanele' } },
      baseVersion: null,
      actorUserId: USER.id,
    });
    await user.click(screen.getByText(/^Patient and scene/));
    await user.type(screen.getByLabelText('Case number'), caseNumber.toLowerCase());
    await user.click(screen.getByRole('button', { name: 'Link case' }));
    expect(await screen.findByText(`Linked to case ${caseNumber}.`)).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: caseNumber })).toHaveAttribute(
      'href',
      `/patient-details/${caseNumber}`,
    );
    const stored = (await sync?.db.store('cprSessions').toArray())?.[0] as unknown as {
      caseId: string;
    };
    expect(stored.caseId).toBe(caseUuid);

    await user.type(screen.getByLabelText('Case number'), 'C-0000-0000');
    await user.click(screen.getByRole('button', { name: 'Link case' }));
    expect(await screen.findByText('Case C-0000-0000 is not on this device.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New case for this patient' }));
    const started = await screen.findByText(/^New case C-\S+ started and linked\.$/);
    const number = /C-\S+(?= started)/.exec(started.textContent ?? '')?.[0] ?? '';
    const cases = (await sync?.db.store('cases').toArray()) as {
      id: string;
      caseId: string;
      cprPerformed: boolean;
    }[];
    const created = cases.find((c) => c.caseId === number);
    expect(created?.cprPerformed).toBe(true);
    await waitFor(async () => {
      const now = (await sync?.db.store('cprSessions').toArray())?.[0] as unknown as {
        caseId: string;
      };
      expect(now.caseId).toBe(created?.id);
    });
  });
});
