import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '@/test/axe';
import { renderRoute } from '@/test/render-route';
import { HelpPage } from './components/help-page';
import { searchHelp } from './help-search';
import { HELP_TOPICS, helpTopicSchema } from './help-topics';

describe('help guide', () => {
  it('every topic parses, with a unique id', () => {
    for (const t of HELP_TOPICS) expect(helpTopicSchema.safeParse(t).error).toBeUndefined();
    expect(new Set(HELP_TOPICS.map((t) => t.id)).size).toBe(HELP_TOPICS.length);
  });

  it('covers the tasks the issue names', () => {
    expect(HELP_TOPICS.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        'document-a-case-offline',
        'not-yet-synced',
        'complete-and-correct-a-case',
        'log-cpr',
        'run-an-mci',
        'install-the-app',
        'notifications',
        'rejected-change',
      ]),
    );
  });

  it('finds topics by word', () => {
    expect(searchHelp(HELP_TOPICS, 'not yet synced')[0]?.id).toBe('not-yet-synced');
    expect(searchHelp(HELP_TOPICS, 'home screen').map((t) => t.id)).toEqual(['install-the-app']);
    expect(searchHelp(HELP_TOPICS, 'zebra')).toEqual([]);
  });

  it('searches on the page and opens the one match', async () => {
    const { user } = renderRoute('/help', <HelpPage />);
    await user.type(screen.getByRole('searchbox', { name: 'Search the help' }), 'home screen');
    expect(screen.getByText('Install the app')).toBeVisible();
    expect(screen.getByText(/Add to Home Screen/)).toBeVisible();
    expect(await axeViolations()).toEqual([]);
    await user.clear(screen.getByRole('searchbox', { name: 'Search the help' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search the help' }), 'zebra');
    expect(screen.getByText('No help topic matches “zebra”.')).toBeVisible();
  });
});
