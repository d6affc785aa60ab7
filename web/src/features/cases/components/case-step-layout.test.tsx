import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp } from '@/test/render-app';
import { deviceOf, outbox, seedCase, wipeDevice } from '../completed/case-test-kit';

const USER = makeUser({ id: 7 });

const hadScrollIntoView = 'scrollIntoView' in Element.prototype;

beforeEach(() => {
  // jsdom does no layout (and has no scrollIntoView); the step scrolls a linked field into view.
  if (!hadScrollIntoView) Element.prototype.scrollIntoView = function scrollIntoView() {};
});

afterEach(async () => {
  if (!hadScrollIntoView) Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  await wipeDevice(USER);
});

async function accessRecords() {
  return (await outbox())
    .filter((e) => e.mutation.name === 'case.access')
    .map((e) => e.mutation.args as { caseId: string; action: string; detail?: string });
}

describe('the case step frame', () => {
  it('shows the case number, the patient, the steps, unsynced state and Back / Next', async () => {
    deviceOf(USER);
    const { caseId } = await seedCase({ patientName: 'Sipho Dlamini' });
    renderApp(`/response-details/${caseId}`);

    expect(
      await screen.findByRole('heading', { name: 'Response Details', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText(caseId)).toBeInTheDocument();
    expect(screen.getByText(/Sipho Dlamini/)).toBeInTheDocument();
    expect(await screen.findByText('Not yet synced')).toBeInTheDocument();

    // The header is a group named by its case line, holding the way home and the sync mark.
    const header = screen.getByRole('group', { name: `Case ${caseId} · Sipho Dlamini` });
    expect(within(header).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/');
    expect(within(header).getByRole('status')).toHaveTextContent('Not yet synced');

    const steps = screen.getByRole('navigation', { name: 'Case steps' });
    expect(within(steps).getAllByRole('link')).toHaveLength(6);
    expect(within(steps).getByRole('link', { current: 'step' })).toHaveTextContent('Response');
    expect(within(steps).getByRole('link', { name: /Patient/ })).toHaveAttribute(
      'href',
      `/patient-details/${caseId}`,
    );

    const footer = screen.getByRole('navigation', { name: 'Previous and next step' });
    expect(within(footer).getByRole('link', { name: /Treatment Provided/ })).toHaveAttribute(
      'href',
      `/treatment-provided/${caseId}`,
    );
    expect(within(footer).getByRole('link', { name: /Review and complete/ })).toHaveAttribute(
      'href',
      `/case-completed/${caseId}`,
    );
  });

  it('records one view per screen in the audit outbox, as the case uuid', async () => {
    deviceOf(USER);
    const { id, caseId } = await seedCase({});
    const first = renderApp(`/response-details/${caseId}`);
    await screen.findByRole('heading', { name: 'Response Details', level: 1 });
    await waitFor(async () =>
      expect(await accessRecords()).toEqual([
        { id: expect.any(String), caseId: id, action: 'view', detail: 'response-details' },
      ]),
    );
    first.unmount();

    // Opening the same screen again within minutes is the same view.
    renderApp(`/response-details/${caseId}`);
    await screen.findByRole('heading', { name: 'Response Details', level: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await accessRecords()).toHaveLength(1);
  });

  it('opens a step at the field a completion problem links to', async () => {
    deviceOf(USER);
    const { caseId } = await seedCase({});
    renderApp(`/response-details/${caseId}#field-receivingHospital`);
    await waitFor(() => expect(screen.getByLabelText(/^Receiving hospital/)).toHaveFocus());
  });

  it('says when the case is not on this device', async () => {
    deviceOf(USER);
    dashboardData();
    const { user, location } = renderApp('/response-details/C-0000-0000-0000');
    expect(
      await screen.findByRole('heading', { name: 'Case not on this device' }),
    ).toBeInTheDocument();
    expect(screen.getByText('C-0000-0000-0000')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Home' }));
    await waitFor(() => expect(location.pathname).toBe('/'));
  });
});
