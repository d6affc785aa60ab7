import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import rows from './components/notification-list.module.css';

const unreadItems = [
  {
    id: 1,
    title: 'Flood warning',
    message: 'Evacuate low bridge area',
    type: 'emergency',
    priority: 'critical',
    url: null,
    icon: null,
    createdAt: '2026-11-20T14:30:00.000Z',
    readAt: null,
  },
  {
    id: 2,
    title: 'Server upgrade',
    message: 'Tonight at 22:00',
    type: 'maintenance',
    priority: 'low',
    url: null,
    icon: null,
    createdAt: '2026-11-19T09:05:00.000Z',
    readAt: null,
  },
];
const readItems = [
  {
    id: 3,
    title: 'Welcome',
    message: 'Glad to have you',
    type: 'general',
    priority: 'normal',
    url: null,
    icon: null,
    createdAt: '2026-11-01T08:00:00.000Z',
    readAt: '2026-11-02T10:15:00.000Z',
  },
];

function lists(unread: unknown[], read: unknown[]) {
  server.use(
    http.get('/api/user/notifications/unread', () => HttpResponse.json(unread)),
    http.get('/api/user/notifications/read', () => HttpResponse.json(read)),
  );
}

describe('notifications dialog', () => {
  it('shows unread and read lists with icons, priorities and en-GB times', async () => {
    signedInAs(makeUser());
    dashboardData({ unread: 2 });
    lists(unreadItems, readItems);
    server.use(
      http.post('/api/user/notifications/mark-all-read', () => HttpResponse.json({ updated: 2 })),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(await within(dialog).findByRole('tab', { name: 'Unread (2)' })).toBeInTheDocument();
    const first = (await within(dialog).findByRole('heading', { name: 'Flood warning' })).closest(
      'li',
    );
    expect(first).toHaveClass(String(rows.critical));
    expect(
      within(first as HTMLElement).getByRole('img', { name: 'Emergency' }),
    ).toBeInTheDocument();
    expect(first).toHaveTextContent('Evacuate low bridge area');
    expect(first).toHaveTextContent('Sent 20 Nov 2026, 16:30');
    const second = within(dialog).getByRole('heading', { name: 'Server upgrade' }).closest('li');
    expect(second).toHaveClass(String(rows.low));
    expect(
      within(second as HTMLElement).getByRole('img', { name: 'Maintenance' }),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Read' }));
    const read = (await within(dialog).findByRole('heading', { name: 'Welcome' })).closest('li');
    expect(read).toHaveClass(String(rows.normal));
    expect(within(read as HTMLElement).getByRole('img', { name: 'General' })).toBeInTheDocument();
    expect(read).toHaveTextContent('Read 2 Nov 2026, 12:15');
  });

  it('shows a loading state and then the empty states', async () => {
    signedInAs(makeUser());
    dashboardData();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    server.use(
      http.get('/api/user/notifications/unread', async () => {
        await gate;
        return HttpResponse.json([]);
      }),
      http.get('/api/user/notifications/read', () => HttpResponse.json([])),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Loading notifications');
    release();
    expect(await within(dialog).findByText('No unread notifications')).toBeInTheDocument();
    expect(within(dialog).getByText("You're all caught up!")).toBeInTheDocument();
    await user.click(within(dialog).getByRole('tab', { name: 'Read' }));
    expect(await within(dialog).findByText('No read notifications')).toBeInTheDocument();
  });

  it('marks all as read when closed, and the badge goes away', async () => {
    signedInAs(makeUser());
    dashboardData({ unread: 2 });
    lists(unreadItems, []);
    let marked = 0;
    let header: string | null = null;
    server.use(
      http.post('/api/user/notifications/mark-all-read', ({ request }) => {
        marked += 1;
        header = request.headers.get('X-Requested-With');
        server.use(
          http.get('/api/user/notifications/unread-count', () => HttpResponse.json({ count: 0 })),
        );
        return HttpResponse.json({ updated: 2 });
      }),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(dialog).findByText('Flood warning');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(marked).toBe(1));
    expect(header).toBe('rescuelog');
    expect(await screen.findByRole('button', { name: 'Notifications' })).not.toHaveTextContent(
      /\d/,
    );
  });

  it('does not call mark-all-read when nothing is unread', async () => {
    signedInAs(makeUser());
    dashboardData({ unread: 0 });
    lists([], []);
    // Any mark-all-read call would be an unhandled request and fail the test.
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Notifications' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(dialog).findByText('No unread notifications');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('only warns (never console.error) when marking as read fails', async () => {
    signedInAs(makeUser());
    dashboardData({ unread: 1 });
    lists([unreadItems[0]], []);
    server.use(
      http.post('/api/user/notifications/mark-all-read', () =>
        HttpResponse.json({ error: 'Internal Server Error', code: 'INTERNAL' }, { status: 500 }),
      ),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(dialog).findByText('Flood warning');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith(
        'Failed to mark notifications as read',
        'Internal Server Error',
      ),
    );
  });
});
