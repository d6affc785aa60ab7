import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  NOTIFICATION_MESSAGES,
  SCHEDULE_MESSAGES,
  type AdminNotification,
} from '@rescuelog/sync-protocol/notifications';
import { zonedDay } from '@rescuelog/sync-protocol/time';
import { axeViolations } from '@/test/axe';
import { makeRoles, makeUser } from '@/test/fixtures';
import { expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { COMPOSE_MESSAGES } from './compose-input';
import preview from './components/notification-preview.module.css';

const admin = makeUser({ id: 1, role: 'administrator', fullName: 'Thandi Admin' });
const members = [
  makeUser({ id: 11, fullName: 'Sipho Dube', email: 'sipho@example.org', callSign: 'R11' }),
  makeUser({ id: 12, fullName: 'Naledi Khumalo', email: 'naledi@example.org', callSign: null }),
  makeUser({ id: 13, fullName: 'Pieter Botha', email: 'pieter@example.org', callSign: 'R13' }),
];
const roles = makeRoles([{ name: 'shift-lead', displayName: 'Shift lead' }]);

function notification(overrides: Partial<AdminNotification> = {}): AdminNotification {
  return {
    id: 1,
    title: 'Flooding on the N2',
    message: 'Avoid the N2 between exits 12 and 14.',
    type: 'emergency',
    priority: 'critical',
    targetUserIds: null,
    targetRoles: null,
    status: 'sent',
    sentAt: '2026-11-20T14:30:00.000Z',
    scheduledFor: null,
    url: null,
    sound: null,
    createdBy: 1,
    createdByName: 'Thandi Admin',
    createdAt: '2026-11-20T14:29:00.000Z',
    figures: { recipients: 12, pushed: 10, delivered: 9, clicked: 4, read: 7, failed: 2 },
    ...overrides,
  };
}

/** The page's reads: the list, the roles and the approved people. */
function adminData(list: AdminNotification[] = []) {
  signedInAs(admin);
  server.use(
    http.get('/api/admin/notifications', () => HttpResponse.json({ notifications: list })),
    http.get('/api/admin/roles', () => HttpResponse.json({ roles })),
    http.get('/api/admin/users', ({ request }) => {
      expect(new URL(request.url).searchParams.get('status')).toBe('approved');
      return HttpResponse.json({ users: [admin, ...members] });
    }),
  );
}

/** Records every POST /api/admin/notifications body and answers like the API. */
function acceptSends(): unknown[] {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/admin/notifications', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      return HttpResponse.json(
        {
          notification: notification({
            id: 99,
            title: String(body.title),
            status: body.scheduledFor ? 'scheduled' : 'sent',
            scheduledFor: typeof body.scheduledFor === 'string' ? body.scheduledFor : null,
            figures: { recipients: 3, pushed: 0, delivered: 0, clicked: 0, read: 0, failed: 0 },
          }),
        },
        { status: 201 },
      );
    }),
  );
  return bodies;
}

async function openPage() {
  const view = renderApp('/admin/notifications');
  const compose = await screen.findByRole('region', { name: 'New notification' });
  return { ...view, compose };
}

const DAY = 24 * 60 * 60 * 1000;

afterEach(() => {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});

describe('/admin/notifications: compose', () => {
  it('shows every §5 message for a bad notification and sends nothing', async () => {
    adminData();
    // Any POST would be an unhandled request and fail the test.
    const { user, compose } = await openPage();
    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    expect(await within(compose).findByText(NOTIFICATION_MESSAGES.titleRequired)).toBeVisible();
    expect(within(compose).getByText(NOTIFICATION_MESSAGES.messageRequired)).toBeVisible();
    expect(within(compose).getByLabelText(/^Title/)).toHaveAttribute('aria-invalid', 'true');

    // Spaces only are still empty (the schema trims).
    await user.type(within(compose).getByLabelText(/^Title/), '   ');
    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    expect(await within(compose).findByText(NOTIFICATION_MESSAGES.titleRequired)).toBeVisible();

    fireEvent.change(within(compose).getByLabelText(/^Title/), {
      target: { value: 'T'.repeat(101) },
    });
    fireEvent.change(within(compose).getByLabelText(/^Message/), {
      target: { value: 'M'.repeat(501) },
    });
    await user.type(within(compose).getByLabelText('Link (optional)'), 'not a link');
    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    expect(await within(compose).findByText(NOTIFICATION_MESSAGES.titleTooLong)).toBeVisible();
    expect(within(compose).getByText(NOTIFICATION_MESSAGES.messageTooLong)).toBeVisible();
    expect(within(compose).getByText(NOTIFICATION_MESSAGES.urlInvalid)).toBeVisible();
    expect(within(compose).getByText('101 of 100 characters')).toBeVisible();

    // At the limits it is accepted (up to the "everyone" question).
    fireEvent.change(within(compose).getByLabelText(/^Title/), {
      target: { value: 'T'.repeat(100) },
    });
    fireEvent.change(within(compose).getByLabelText(/^Message/), {
      target: { value: 'M'.repeat(500) },
    });
    await user.clear(within(compose).getByLabelText('Link (optional)'));
    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    expect(await screen.findByRole('alertdialog', { name: 'Send to everyone?' })).toBeVisible();
    expect(within(compose).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('previews the notification on a phone as it is typed: priority colour, type icon, title and message', async () => {
    adminData();
    const { user, compose } = await openPage();
    const phone = within(compose).getByRole('region', { name: 'Preview on a phone' });
    expect(within(phone).getByText('Title')).toBeVisible();
    expect(within(phone).getByRole('img', { name: 'General' })).toBeVisible();
    expect(within(phone).getByText('Normal priority')).toBeVisible();

    await user.type(within(compose).getByLabelText(/^Title/), 'Flooding on the N2');
    await user.type(within(compose).getByLabelText(/^Message/), 'Avoid exits 12 to 14.');
    await user.selectOptions(within(compose).getByLabelText('Type'), 'emergency');
    await user.selectOptions(within(compose).getByLabelText('Priority'), 'critical');

    const icon = within(phone).getByRole('img', { name: 'Emergency' });
    const card = icon.parentElement as HTMLElement;
    expect(card).toHaveClass(String(preview.critical));
    expect(within(card).getByText('Flooding on the N2')).toBeVisible();
    expect(within(card).getByText('Avoid exits 12 to 14.')).toBeVisible();
    expect(within(card).getByText('Critical priority')).toBeVisible();
    expect(within(card).getByText('RescueLog · now')).toBeVisible();

    await user.selectOptions(within(compose).getByLabelText('Priority'), 'low');
    expect(card).toHaveClass(String(preview.low));
    expect(card).not.toHaveClass(String(preview.critical));
  });

  it('asks before sending to everyone, then sends and clears the form', async () => {
    adminData();
    const bodies = acceptSends();
    const { user, compose } = await openPage();
    await user.type(within(compose).getByLabelText(/^Title/), '  Radio check  ');
    await user.type(
      within(compose).getByLabelText(/^Message/),
      'All stations, radio check at 18:00.',
    );
    await user.type(within(compose).getByLabelText('Link (optional)'), '/case-search');
    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));

    const confirm = await screen.findByRole('alertdialog', { name: 'Send to everyone?' });
    // The administrator and three members are approved.
    await within(confirm).findByText(/every approved account \(4 people\) now/);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(bodies).toEqual([]);

    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Send to everyone',
      }),
    );
    await expectToast('Notification sent', 'Radio check: 3 recipients.');
    expect(bodies).toEqual([
      {
        title: 'Radio check',
        message: 'All stations, radio check at 18:00.',
        type: 'general',
        priority: 'normal',
        url: '/case-search',
      },
    ]);
    expect(within(compose).getByLabelText(/^Title/)).toHaveValue('');
  });

  it('targets chosen roles, and refuses a role audience with none chosen (it would reach everyone)', async () => {
    adminData();
    const bodies = acceptSends();
    const { user, compose } = await openPage();
    await user.type(within(compose).getByLabelText(/^Title/), 'Shift leads meeting');
    await user.type(within(compose).getByLabelText(/^Message/), 'Briefing room, 07:00.');
    await user.click(within(compose).getByRole('radio', { name: 'Roles' }));
    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    expect(await within(compose).findByText(COMPOSE_MESSAGES.noRoles)).toBeVisible();
    expect(bodies).toEqual([]);

    await user.click(await within(compose).findByRole('checkbox', { name: 'Shift lead' }));
    await user.click(within(compose).getByRole('checkbox', { name: 'Administrator' }));
    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    await expectToast('Notification sent');
    expect(bodies).toEqual([
      expect.objectContaining({ targetRoles: ['shift-lead', 'administrator'] }),
    ]);
    expect(bodies[0]).not.toHaveProperty('targetUserIds');
  });

  it('finds people by name, email or call sign and sends to those chosen', async () => {
    adminData();
    const bodies = acceptSends();
    const { user, compose } = await openPage();
    await user.type(within(compose).getByLabelText(/^Title/), 'Your kit check');
    await user.type(within(compose).getByLabelText(/^Message/), 'Please check your kit bag.');
    await user.click(within(compose).getByRole('radio', { name: 'Chosen people' }));
    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    expect(await within(compose).findByText(COMPOSE_MESSAGES.noUsers)).toBeVisible();

    const search = await within(compose).findByRole('searchbox', { name: 'Find people' });
    await user.type(search, 'r13');
    expect(within(compose).queryByRole('checkbox', { name: /Sipho Dube/ })).not.toBeInTheDocument();
    await user.click(within(compose).getByRole('checkbox', { name: /Pieter Botha \(R13\)/ }));
    await user.clear(search);
    await user.type(search, 'naledi@');
    await user.click(within(compose).getByRole('checkbox', { name: /Naledi Khumalo/ }));
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(within(compose).getByText('No approved account matches “nobody”.')).toBeVisible();
    expect(within(compose).getByText('2 people chosen')).toBeVisible();
    // A chosen person can be removed even when the search hides them.
    await user.click(within(compose).getByRole('button', { name: /Naledi Khumalo \(remove\)/ }));
    expect(within(compose).getByText('1 person chosen')).toBeVisible();

    await user.click(within(compose).getByRole('button', { name: 'Send notification' }));
    await expectToast('Notification sent');
    expect(bodies).toEqual([expect.objectContaining({ targetUserIds: [13] })]);
  });

  it('schedules at a time typed in the service time zone (Africa/Johannesburg) as an ISO instant', async () => {
    adminData();
    const bodies = acceptSends();
    const { user, compose } = await openPage();
    await user.type(within(compose).getByLabelText(/^Title/), 'Roster for next month');
    await user.type(within(compose).getByLabelText(/^Message/), 'The roster is out.');
    await user.click(within(compose).getByRole('radio', { name: 'Roles' }));
    await user.click(await within(compose).findByRole('checkbox', { name: 'Member' }));
    await user.click(within(compose).getByRole('radio', { name: 'Schedule' }));
    const when = within(compose).getByLabelText(/^Date and time \(Africa\/Johannesburg\)/);
    const day = zonedDay(Date.now() + 30 * DAY);
    fireEvent.change(when, { target: { value: `${String(day)}T09:30` } });
    expect(
      within(compose).getByText(/Goes out .*09:30, Africa\/Johannesburg time\./),
    ).toBeVisible();
    await user.click(within(compose).getByRole('button', { name: 'Schedule notification' }));
    await expectToast('Notification scheduled');
    // 09:30 in Johannesburg (UTC+2) is 07:30 UTC, whatever the device's own zone (UTC here).
    expect(bodies).toEqual([
      expect.objectContaining({
        targetRoles: ['member'],
        scheduledFor: `${String(day)}T07:30:00.000Z`,
      }),
    ]);
  });

  it('refuses a time in the past, more than a year ahead, or missing, before sending', async () => {
    adminData();
    const { user, compose } = await openPage();
    await user.type(within(compose).getByLabelText(/^Title/), 'Late');
    await user.type(within(compose).getByLabelText(/^Message/), 'Too late.');
    await user.click(within(compose).getByRole('radio', { name: 'Chosen people' }));
    await user.click(await within(compose).findByRole('checkbox', { name: /Sipho Dube/ }));
    await user.click(within(compose).getByRole('radio', { name: 'Schedule' }));
    await user.click(within(compose).getByRole('button', { name: 'Schedule notification' }));
    expect(await within(compose).findByText(COMPOSE_MESSAGES.noSendAt)).toBeVisible();

    const when = within(compose).getByLabelText(/^Date and time \(Africa\/Johannesburg\)/);
    fireEvent.change(when, { target: { value: `${String(zonedDay(Date.now() - DAY))}T09:30` } });
    await user.click(within(compose).getByRole('button', { name: 'Schedule notification' }));
    expect(await within(compose).findByText(SCHEDULE_MESSAGES.past)).toBeVisible();
    expect(when).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(when, {
      target: { value: `${String(zonedDay(Date.now() + 400 * DAY))}T09:30` },
    });
    await user.click(within(compose).getByRole('button', { name: 'Schedule notification' }));
    expect(await within(compose).findByText(SCHEDULE_MESSAGES.tooFar)).toBeVisible();
  });

  it("shows the server's field error (a time that passed while the form was open)", async () => {
    adminData();
    server.use(
      http.post('/api/admin/notifications', () =>
        HttpResponse.json(
          {
            error: SCHEDULE_MESSAGES.past,
            code: 'VALIDATION_FAILED',
            fieldErrors: { scheduledFor: [SCHEDULE_MESSAGES.past] },
          },
          { status: 400 },
        ),
      ),
    );
    const { user, compose } = await openPage();
    await user.type(within(compose).getByLabelText(/^Title/), 'Drill');
    await user.type(within(compose).getByLabelText(/^Message/), 'Drill at noon.');
    await user.click(within(compose).getByRole('radio', { name: 'Chosen people' }));
    await user.click(await within(compose).findByRole('checkbox', { name: /Sipho Dube/ }));
    await user.click(within(compose).getByRole('radio', { name: 'Schedule' }));
    fireEvent.change(within(compose).getByLabelText(/^Date and time \(Africa\/Johannesburg\)/), {
      target: { value: `${String(zonedDay(Date.now() + 2 * DAY))}T12:00` },
    });
    await user.click(within(compose).getByRole('button', { name: 'Schedule notification' }));
    expect(await within(compose).findByText(SCHEDULE_MESSAGES.past)).toBeVisible();
    expect(within(compose).getByLabelText(/^Title/)).toHaveValue('Drill');
  });
});

describe('/admin/notifications: sent and scheduled', () => {
  it('shows each notification with its status, targets, times and delivery figures', async () => {
    adminData([
      notification(),
      notification({
        id: 2,
        title: 'Roster meeting',
        type: 'general',
        priority: 'normal',
        status: 'scheduled',
        sentAt: null,
        scheduledFor: '2026-12-01T06:00:00.000Z',
        targetRoles: ['shift-lead'],
        figures: { recipients: 0, pushed: 0, delivered: 0, clicked: 0, read: 0, failed: 0 },
      }),
      notification({
        id: 3,
        title: 'Kit check',
        type: 'maintenance',
        priority: 'low',
        targetUserIds: [11, 12, 13, 99],
        status: 'cancelled',
        sentAt: null,
        scheduledFor: '2026-11-22T06:00:00.000Z',
      }),
    ]);
    renderApp('/admin/notifications');
    const list = await screen.findByRole('region', { name: 'Sent and scheduled' });
    const sent = (await within(list).findByRole('heading', { name: 'Flooding on the N2' })).closest(
      'li',
    ) as HTMLElement;
    expect(within(sent).getByText('Sent', { selector: '.pill' })).toBeVisible();
    expect(sent).toHaveTextContent('To: Everyone');
    expect(sent).toHaveTextContent('Created 20 Nov 2026, 16:29 by Thandi Admin');
    expect(sent).toHaveTextContent('Sent 20 Nov 2026, 16:30');
    const dl = within(sent).getByLabelText('Delivery figures');
    for (const [label, value] of [
      ['Recipients', '12'],
      ['Pushed', '10'],
      ['Delivered', '9'],
      ['Clicked', '4'],
      ['Read', '7'],
      ['Failed', '2'],
    ]) {
      expect(within(dl).getByText(String(label)).nextElementSibling).toHaveTextContent(
        String(value),
      );
    }
    expect(within(sent).getByRole('button', { name: /Resend to 2 failed/ })).toBeVisible();
    expect(within(sent).queryByRole('button', { name: /Cancel sending/ })).not.toBeInTheDocument();

    const scheduled = within(list)
      .getByRole('heading', { name: 'Roster meeting' })
      .closest('li') as HTMLElement;
    expect(within(scheduled).getByText('Scheduled', { selector: '.pill' })).toBeVisible();
    expect(scheduled).toHaveTextContent('To: Roles: Shift lead');
    expect(scheduled).toHaveTextContent('Goes out 1 Dec 2026, 08:00');
    expect(within(scheduled).getByRole('button', { name: /Cancel sending/ })).toBeVisible();
    expect(within(scheduled).queryByRole('button', { name: /Resend/ })).not.toBeInTheDocument();

    const cancelled = within(list)
      .getByRole('heading', { name: 'Kit check' })
      .closest('li') as HTMLElement;
    expect(within(cancelled).getByText('Cancelled', { selector: '.pill' })).toBeVisible();
    expect(cancelled).toHaveTextContent(
      'To: 4 people: Sipho Dube (R11), Naledi Khumalo, Pieter Botha (R13) and 1 more',
    );
    expect(cancelled).toHaveTextContent('Scheduled for 22 Nov 2026, 08:00');
  });

  it('shows twenty at a time, newest first as the server lists them', async () => {
    adminData(
      Array.from({ length: 25 }, (_, i) =>
        notification({ id: 100 - i, title: `Notice ${String(25 - i)}` }),
      ),
    );
    const { user } = renderApp('/admin/notifications');
    const list = await screen.findByRole('region', { name: 'Sent and scheduled' });
    await within(list).findByRole('heading', { name: 'Notice 25' });
    expect(within(list).getAllByRole('heading', { level: 3 })).toHaveLength(20);
    expect(within(list).queryByRole('heading', { name: 'Notice 5' })).not.toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Show 5 more of 5' }));
    expect(within(list).getAllByRole('heading', { level: 3 })).toHaveLength(25);
    expect(within(list).getByRole('heading', { name: 'Notice 1' })).toBeVisible();
    expect(within(list).queryByRole('button', { name: /^Show/ })).not.toBeInTheDocument();
  });

  it('cancels a scheduled notification after asking', async () => {
    const scheduled = notification({
      id: 5,
      title: 'Roster meeting',
      status: 'scheduled',
      sentAt: null,
      scheduledFor: '2026-12-01T06:00:00.000Z',
    });
    adminData([scheduled]);
    let cancelled = 0;
    server.use(
      http.post('/api/admin/notifications/5/cancel', ({ request }) => {
        expect(request.headers.get('X-Requested-With')).toBe('rescuelog');
        cancelled += 1;
        const done = { ...scheduled, status: 'cancelled' as const };
        server.use(
          http.get('/api/admin/notifications', () => HttpResponse.json({ notifications: [done] })),
        );
        return HttpResponse.json({ notification: done });
      }),
    );
    const { user } = renderApp('/admin/notifications');
    const list = await screen.findByRole('region', { name: 'Sent and scheduled' });
    await user.click(await within(list).findByRole('button', { name: /Cancel sending/ }));
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Cancel this scheduled notification?',
    });
    expect(confirm).toHaveTextContent('“Roster meeting” will not be sent on 1 Dec 2026, 08:00.');
    await user.click(within(confirm).getByRole('button', { name: 'Keep it scheduled' }));
    expect(cancelled).toBe(0);

    await user.click(within(list).getByRole('button', { name: /Cancel sending/ }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Cancel sending',
      }),
    );
    await expectToast('Scheduled notification cancelled', 'Roster meeting');
    expect(cancelled).toBe(1);
    expect(await within(list).findByText('Cancelled', { selector: '.pill' })).toBeVisible();
    expect(within(list).queryByRole('button', { name: /Cancel sending/ })).not.toBeInTheDocument();
  });

  it('says so when a notification can no longer be cancelled (409)', async () => {
    adminData([
      notification({
        id: 6,
        status: 'scheduled',
        sentAt: null,
        scheduledFor: '2026-12-01T06:00:00.000Z',
      }),
    ]);
    server.use(
      http.post('/api/admin/notifications/6/cancel', () =>
        HttpResponse.json(
          { error: 'The notification is already being sent', code: 'CONFLICT' },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderApp('/admin/notifications');
    const list = await screen.findByRole('region', { name: 'Sent and scheduled' });
    await user.click(await within(list).findByRole('button', { name: /Cancel sending/ }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Cancel sending',
      }),
    );
    await expectToast('Could not cancel', 'The notification is already being sent');
  });

  it('resends to those who failed, and shows the failures with their errors in the detail view', async () => {
    adminData([notification({ id: 7 })]);
    let resent = 0;
    server.use(
      http.get('/api/admin/notifications/7', () =>
        HttpResponse.json({
          notification: notification({ id: 7 }),
          failures: [
            {
              userId: 11,
              fullName: 'Sipho Dube',
              email: 'sipho@example.org',
              errorMessage: 'Push service answered 500 three times',
              updatedAt: '2026-11-20T14:35:00.000Z',
            },
            {
              userId: 12,
              fullName: 'Naledi Khumalo',
              email: 'naledi@example.org',
              errorMessage: null,
              updatedAt: '2026-11-20T14:36:00.000Z',
            },
          ],
        }),
      ),
      http.post('/api/admin/notifications/7/resend-failed', () => {
        resent += 1;
        return HttpResponse.json({ requeued: 2 });
      }),
    );
    const { user } = renderApp('/admin/notifications');
    const list = await screen.findByRole('region', { name: 'Sent and scheduled' });
    await user.click(
      await within(list).findByRole('button', { name: 'Details of Flooding on the N2' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Flooding on the N2' });
    const failures = await within(dialog).findByRole('region', { name: 'Failed deliveries (2)' });
    const sipho = within(failures).getByText('Sipho Dube').closest('li') as HTMLElement;
    expect(sipho).toHaveTextContent('sipho@example.org');
    expect(sipho).toHaveTextContent('Push service answered 500 three times');
    expect(sipho).toHaveTextContent('Failed 20 Nov 2026, 16:35');
    expect(within(failures).getByText('Naledi Khumalo').closest('li')).toHaveTextContent(
      'No error was recorded',
    );
    expect(await axeViolations()).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Resend to 2 failed' }));
    await waitFor(() => expect(resent).toBe(1));
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await expectToast('Sending again', 'Flooding on the N2: 2 failed deliveries queued again.');

    await user.click(within(list).getByRole('button', { name: /Resend to 2 failed/ }));
    await waitFor(() => expect(resent).toBe(2));
  });

  it('has designed loading and empty states', async () => {
    signedInAs(admin);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.get('/api/admin/roles', () => HttpResponse.json({ roles })),
      http.get('/api/admin/users', () => HttpResponse.json({ users: [admin] })),
      http.get('/api/admin/notifications', async () => {
        await gate;
        return HttpResponse.json({ notifications: [] });
      }),
    );
    renderApp('/admin/notifications');
    const list = await screen.findByRole('region', { name: 'Sent and scheduled' });
    expect(within(list).getByRole('status')).toHaveTextContent('Loading notifications');
    release();
    expect(await within(list).findByText('No notifications yet')).toBeVisible();
    expect(
      within(list).getByText(
        'Notifications you send or schedule show here with their delivery figures.',
      ),
    ).toBeVisible();
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    adminData();
    let fail = true;
    server.use(
      http.get('/api/admin/notifications', () =>
        fail
          ? HttpResponse.json(
              { error: 'Database unavailable', code: 'SERVICE_UNAVAILABLE' },
              { status: 503 },
            )
          : HttpResponse.json({ notifications: [notification()] }),
      ),
    );
    const { user } = renderApp('/admin/notifications');
    const list = await screen.findByRole('region', { name: 'Sent and scheduled' });
    expect(
      await within(list).findByText('Notifications could not be loaded (Database unavailable).'),
    ).toBeVisible();
    fail = false;
    await user.click(within(list).getByRole('button', { name: 'Try again' }));
    expect(await within(list).findByRole('heading', { name: 'Flooding on the N2' })).toBeVisible();
  });

  it('offline, says administration needs a connection instead of showing the form', async () => {
    adminData([notification()]);
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    renderApp('/admin/notifications');
    expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeVisible();
    expect(screen.queryByRole('region', { name: 'New notification' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/^Title/)).not.toBeInTheDocument();

    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByRole('region', { name: 'New notification' })).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Flooding on the N2' })).toBeVisible();
  });

  it('is structurally accessible (axe) with the form, preview and list', async () => {
    adminData([notification(), notification({ id: 2, title: 'Roster', status: 'scheduled' })]);
    const { user, compose } = await openPage();
    await user.click(within(compose).getByRole('radio', { name: 'Chosen people' }));
    await within(compose).findByRole('searchbox', { name: 'Find people' });
    await user.click(within(compose).getByRole('radio', { name: 'Schedule' }));
    await user.click(within(compose).getByRole('button', { name: 'Schedule notification' }));
    await within(compose).findByText(NOTIFICATION_MESSAGES.titleRequired);
    await screen.findByRole('heading', { name: 'Roster' });
    expect(await axeViolations()).toEqual([]);
  });
});
